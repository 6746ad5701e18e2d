/** Test helper: small v1 graphs written by hand, node by node. */
import type { Edge, Graph, GraphNode } from '@pcp/graph-builder';

type Omit2<T, K extends keyof never> = T extends unknown ? Omit<T, K> : never;
export type NodeSpec = Omit2<GraphNode, 'frame' | 'start' | 'end'> & { frame?: string; start?: number; end?: number };

const PRIO = { mimeType: 1, criticalPath: 1 };

/** A resource node's fields beyond id, URL and MIME type. */
export function res(id: string, url: string, mimeType: string, size: number, more: Partial<Extract<GraphNode, { kind: 'resource' }>> = {}): NodeSpec {
  return { id, kind: 'resource', url, mimeType, size, method: 'GET', status: 200, cached: false, priority: PRIO, onCriticalPath: false, ...more };
}

/** A graph of `nodes` (frame 'main' unless said, times 0 unless said) and [from, to, rule] edges. */
export function graphOf(pageUrl: string, nodes: NodeSpec[], edges: [string, string, number | string][], frames: Graph['frames'] = [{ id: 'main', url: pageUrl, parent: null }]): Graph {
  const all = [...nodes, { id: 'dcl', kind: 'marker', markerName: 'domContentLoaded' } as NodeSpec, { id: 'load', kind: 'marker', markerName: 'load' } as NodeSpec];
  return {
    schemaVersion: 1,
    page: { url: pageUrl },
    frames,
    nodes: all.map((n) => ({ frame: 'main', start: 0, end: 0, ...n }) as GraphNode),
    edges: edges.map(([from, to, rule]): Edge => ({ from, to, rule })),
    markers: { domContentLoaded: 'dcl', load: 'load' },
    root: nodes[0]?.id,
    provenance: { source: 'synthetic', tool: 'test', toolVersion: '0' },
  };
}

/** A page whose first parse chunk declares the script `scriptUrl` (node `js`, evaluated as node `s`), plus `nodes` and `edges`. */
export function scriptPage(pageUrl: string, scriptUrl: string, mimeType: string, nodes: NodeSpec[], edges: [string, string, number | string][]): Graph {
  return graphOf(pageUrl, [
    res('doc', pageUrl, 'text/html', 3000),
    { id: 'p0', kind: 'parse_chunk', docUrl: pageUrl, startLine: 1, startColumn: 16, endLine: 2, endColumn: 1 },
    res('js', scriptUrl, mimeType, 2000),
    { id: 's', kind: 'script_eval', scriptUrl, scriptKind: 'sync', start: 8, end: 9 },
    ...nodes,
  ], [['doc', 'p0', 'resource-chunk'], ['p0', 'js', 1], ['js', 's', 10], ...edges]);
}

/**
 * Elements whose loads failed: the parser's `<img>` of an unknown-status text/plain resource fires
 * error, whose handler inserts the script `http://cdn.pcp.test/app.js`, which inserts a 404 image
 * whose error handler requests `after.gif`.
 */
export function failedElementsPage(pageUrl: string): Graph {
  return graphOf(pageUrl, [
    res('doc', pageUrl, 'text/html', 3000),
    { id: 'p0', kind: 'parse_chunk', docUrl: pageUrl, startLine: 1, startColumn: 16, endLine: 2, endColumn: 1 },
    res('bad', 'http://cdn.pcp.test/gone', 'text/plain', 400, { status: 0 }),
    { id: 'err', kind: 'event', eventName: 'error', eventTarget: 'Element', start: 5, end: 6 },
    res('js', 'http://cdn.pcp.test/app.js', 'application/javascript', 5000),
    { id: 's', kind: 'script_eval', scriptUrl: 'http://cdn.pcp.test/app.js', scriptKind: 'sync', start: 8, end: 9 },
    res('bad2', 'http://cdn.pcp.test/gone.png', 'image/png', 500, { status: 404 }),
    { id: 'err2', kind: 'event', eventName: 'error', eventTarget: 'Element', start: 12, end: 13 },
    res('img', 'http://cdn.pcp.test/after.gif', 'image/gif', 300),
  ], [['doc', 'p0', 'resource-chunk'], ['p0', 'bad', 1], ['bad', 'err', 25], ['err', 'js', 2], ['js', 's', 10], ['s', 'bad2', 2], ['bad2', 'err2', 25], ['err2', 'img', 2]]);
}

/**
 * Two frames of one document URL: the page's parser makes two iframes of `ad` (requests `doc_a` at 10 ms, `doc_b` at 20 ms, in the frames
 * they load, as legacy graphs record them): frame a parses an image tag, frame b an inline script, and
 * both run `lib`, b's evaluation requesting an image of its own.
 */
export function sharedUrlFramesPage(pageUrl: string, ad: string, lib: string): Graph {
  const frame = (f: 'a' | 'b', t: number) => [
    res(`doc_${f}`, `${ad}#${f}`, 'text/html', 4000, { frame: f, start: t, end: t + 5 }),
    { id: `d_${f}`, kind: 'download_chunk' as const, frame: f, resource: `doc_${f}`, index: 0, offset: 0, size: 4000, start: t + 1, end: t + 5 },
    { id: `p_${f}`, kind: 'parse_chunk' as const, frame: f, docUrl: ad, startLine: 2, startColumn: 1, endLine: 3, endColumn: 1, start: t + 6, end: t + 7 },
    res(`lib_${f}`, lib, 'application/javascript', 3000, { frame: f, start: t + 8, end: t + 9 }),
    { id: `l_${f}`, kind: 'script_eval' as const, frame: f, scriptUrl: lib, scriptKind: 'sync' as const, start: t + 10, end: t + 11 },
  ];
  return graphOf(pageUrl, [
    res('doc', pageUrl, 'text/html', 3000),
    { id: 'p0', kind: 'parse_chunk', docUrl: pageUrl, startLine: 1, startColumn: 16, endLine: 2, endColumn: 1 },
    ...frame('b', 20), ...frame('a', 10),
    res('img_a', 'http://ads.pcp.test/a.png', 'image/png', 300, { frame: 'a', start: 17, end: 18 }),
    { id: 's_b', kind: 'script_eval', frame: 'b', scriptUrl: ad, scriptKind: 'sync', start: 27, end: 28 },
    res('img_b', 'http://ads.pcp.test/b.png', 'image/png', 300, { frame: 'b', start: 32, end: 33 }),
  ], [
    ['doc', 'p0', 'resource-chunk'], ['p0', 'doc_a', 1], ['p0', 'doc_b', 1],
    ['doc_a', 'd_a', 'resource-chunk'], ['doc_b', 'd_b', 'resource-chunk'], ['d_a', 'p_a', 3], ['d_b', 'p_b', 3],
    ['p_a', 'lib_a', 1], ['p_b', 'lib_b', 1], ['lib_a', 'l_a', 10], ['lib_b', 'l_b', 10],
    ['p_a', 'img_a', 1], ['p_b', 's_b', 12], ['l_b', 'img_b', 2],
  ], [{ id: 'main', url: pageUrl, parent: null }, { id: 'a', url: `${ad}#a`, parent: 'main' }, { id: 'b', url: `${ad}#b`, parent: 'main' }]);
}

/**
 * A frame of the page's own URL that a script inserts (www.behance.net): the main document's inline script
 * (s0) inserts an iframe of the page's URL; that frame's document runs the external `lib`, whose evaluation
 * there requests `in-frame.png`.
 */
export function ownUrlFrameByScriptPage(pageUrl: string, lib: string): Graph {
  return graphOf(pageUrl, [
    res('doc', pageUrl, 'text/html', 3000, { start: 0, end: 10 }),
    { id: 'p0', kind: 'parse_chunk', docUrl: pageUrl, startLine: 1, startColumn: 16, endLine: 2, endColumn: 1, start: 11, end: 12 },
    { id: 's0', kind: 'script_eval', scriptUrl: pageUrl, scriptKind: 'inline', start: 12, end: 13 },
    res('self', pageUrl, 'text/html', 5000, { frame: 'f', start: 20, end: 30 }),
    { id: 'd_f', kind: 'download_chunk', frame: 'f', resource: 'self', index: 0, offset: 0, size: 5000, start: 21, end: 30 },
    { id: 'p_f', kind: 'parse_chunk', frame: 'f', docUrl: pageUrl, startLine: 2, startColumn: 1, endLine: 3, endColumn: 1, start: 31, end: 32 },
    res('lib', lib, 'application/javascript', 3000, { frame: 'f', start: 33, end: 34 }),
    { id: 'l', kind: 'script_eval', frame: 'f', scriptUrl: lib, scriptKind: 'sync', start: 35, end: 36 },
    res('img', new URL('in-frame.png', pageUrl).href, 'image/png', 300, { frame: 'f', start: 37, end: 40 }),
  ], [['doc', 'p0', 'resource-chunk'], ['p0', 's0', 12], ['s0', 'self', 2], ['self', 'd_f', 'resource-chunk'], ['d_f', 'p_f', 3], ['p_f', 'lib', 1], ['lib', 'l', 10], ['l', 'img', 2]],
  [{ id: 'main', url: pageUrl, parent: null }, { id: 'f', url: pageUrl, parent: 'main' }]);
}

/**
 * Element events the page causes (element-events.ts): the script `app.js` (ends at 9 ms) dispatches a
 * custom event `pcp-custom` as it ends, and asks for a scroll fired at 40 ms; a webkit-prefixed
 * transitionend (60 ms), a media play (70 ms) and a webkit-prefixed animationiteration (280 ms) hang off
 * the parser's chunk. Each handler (1 ms) requests an image `by-KIND.gif`.
 */
export function eventsPage(pageUrl: string): Graph {
  const kinds: [string, string, string, number][] = [
    ['cu', 'pcp-custom', 's', 9], ['sc', 'scroll', 's', 40], ['tr', 'webkitTransitionEnd', 'p0', 60],
    ['pl', 'play', 'p0', 70], ['an', 'webkitAnimationIteration', 'p0', 280],
  ];
  const name: Record<string, string> = { cu: 'custom', sc: 'scroll', tr: 'transition', pl: 'play', an: 'animation' };
  return scriptPage(pageUrl, 'http://cdn.pcp.test/app.js', 'application/javascript', kinds.flatMap(([id, eventName, , at]): NodeSpec[] => [
    { id, kind: 'event', eventName, eventTarget: 'Element', start: at, end: at + 1 },
    res(`${id}-img`, `http://cdn.pcp.test/by-${name[id]}.gif`, 'image/gif', 300, { start: at + 1, end: at + 5 }),
  ]), kinds.flatMap(([id, , from]): [string, string, number][] => [[from, id, 25], [id, `${id}-img`, 2]]));
}

/**
 * twitter.com's shape: the DOMContentLoaded handler inserts `streams.js`; its element's load (which
 * inserts `boot.js`) began as the script's run ended, and the legacy graph hangs it off the last parse
 * chunk (after its inline script, which installs the DOMContentLoaded handler); `loadStart` moves that load's start.
 */
export function loaderPage(pageUrl: string, loadStart = 30.5, extra: NodeSpec[] = [], extraEdges: [string, string, number | string][] = []): Graph {
  const STREAMS = 'http://cdn.pcp.test/streams.js';
  const BOOT = 'http://cdn.pcp.test/boot.js';
  return graphOf(pageUrl, [
    res('doc', pageUrl, 'text/html', 3000),
    { id: 'p0', kind: 'parse_chunk', docUrl: pageUrl, startLine: 1, startColumn: 16, endLine: 2, endColumn: 1, start: 1, end: 2 },
    { id: 'inl', kind: 'script_eval', scriptUrl: pageUrl, scriptKind: 'inline', start: 2, end: 2.5 },
    { id: 'dcl_0', kind: 'event', eventName: 'DOMContentLoaded', eventTarget: 'Document', start: 3, end: 5 },
    res('streams', STREAMS, 'application/javascript', 2000, { start: 5, end: 25 }),
    { id: 's', kind: 'script_eval', scriptUrl: STREAMS, scriptKind: 'async', start: 26, end: 30 },
    { id: 'l_0', kind: 'event', eventName: 'load', eventTarget: 'Element', start: loadStart, end: loadStart + 2 },
    res('boot', BOOT, 'application/javascript', 2000, { start: loadStart + 2, end: loadStart + 20 }),
    ...extra,
  ], [['doc', 'p0', 'resource-chunk'], ['p0', 'inl', 12], ['p0', 'dcl_0', 25], ['dcl_0', 'streams', 2], ['p0', 's', 10], ['p0', 'l_0', 25], ['l_0', 'boot', 2], ...extraEdges]);
}

/**
 * espn.co.uk's shape: the page's script inserts a cross-origin frame whose script posts a message to
 * the page (`m1`); the page's handler posts one back into the frame (`m2`), whose handler requests an image.
 */
export function responderPage(pageUrl: string, frameUrl: string): Graph {
  return graphOf(pageUrl, [
    res('doc', pageUrl, 'text/html', 500),
    { id: 'p0', kind: 'parse_chunk', docUrl: pageUrl, startLine: 1, startColumn: 16, endLine: 1, endColumn: 20, start: 1, end: 2 },
    res('js', 'http://www.pcp.test/app.js', 'application/javascript', 900, { start: 2, end: 5 }),
    { id: 's', kind: 'script_eval', scriptUrl: 'http://www.pcp.test/app.js', scriptKind: 'sync', start: 5, end: 6 },
    res('fr', frameUrl, 'text/html', 400, { start: 6, end: 10 }),
    { id: 'fp0', kind: 'parse_chunk', docUrl: frameUrl, startLine: 1, startColumn: 1, endLine: 1, endColumn: 20, frame: 'ad', start: 10, end: 11 },
    res('rjs', 'http://login.pcp.test/responder.js', 'application/javascript', 900, { frame: 'ad', start: 11, end: 15 }),
    { id: 'rs', kind: 'script_eval', scriptUrl: 'http://login.pcp.test/responder.js', scriptKind: 'sync', frame: 'ad', start: 15, end: 17 },
    { id: 'm1', kind: 'event', eventName: 'message', eventTarget: 'Window', start: 18, end: 19 },
    { id: 'm2', kind: 'event', eventName: 'message', eventTarget: 'Window', frame: 'ad', start: 20, end: 22 },
    res('img', 'http://login.pcp.test/p.gif', 'image/gif', 40, { frame: 'ad', start: 22, end: 30 }),
  ], [['doc', 'p0', 'resource-chunk'], ['p0', 'js', 1], ['js', 's', 10], ['s', 'fr', 2], ['fr', 'fp0', 'resource-chunk'], ['fp0', 'rjs', 1], ['rjs', 'rs', 10],
    ['rs', 'm1', 25], ['m1', 'm2', 25], ['m2', 'img', 2]],
  [{ id: 'main', url: pageUrl, parent: null }, { id: 'ad', url: frameUrl, parent: 'main' }]);
}

/**
 * Scripts that ran and one that never did: the parser declares `app.js` (run), `idle.js` (requested,
 * never run: the 2016 log's download with no evaluation), `lib.js` (never run as a file, but a timer
 * calls a function of it: a callee evaluation of its URL) and `loaded.js` (no evaluation, its element's
 * load recorded), then an image.
 */
export function neverRunPage(pageUrl: string): Graph {
  const js = (id: string, name: string, start: number) => res(id, `http://cdn.pcp.test/${name}`, 'application/javascript', 400, { start, end: start + 5 });
  return graphOf(pageUrl, [
    res('doc', pageUrl, 'text/html', 2000, { start: 0, end: 10 }),
    { id: 'p0', kind: 'parse_chunk', docUrl: pageUrl, startLine: 1, startColumn: 16, endLine: 2, endColumn: 1, start: 10, end: 11 },
    js('js', 'app.js', 11), js('idle', 'idle.js', 11), js('called', 'lib.js', 11), js('loaded', 'loaded.js', 11),
    res('img', 'http://cdn.pcp.test/a.png', 'image/png', 300, { start: 11, end: 15 }),
    { id: 's', kind: 'script_eval', scriptUrl: 'http://cdn.pcp.test/app.js', scriptKind: 'async', start: 20, end: 22 },
    { id: 't', kind: 'timer', timerId: '1', timerDelay: 5, start: 30, end: 31 },
    { id: 'call', kind: 'script_eval', scriptUrl: 'http://cdn.pcp.test/lib.js', scriptKind: 'sync', start: 31, end: 32 },
    { id: 'ld', kind: 'event', eventName: 'load', eventTarget: 'Element', start: 17, end: 17.5 },
  ], [['doc', 'p0', 'resource-chunk'], ['p0', 'js', 1], ['p0', 'idle', 1], ['p0', 'called', 1], ['p0', 'loaded', 1], ['p0', 'img', 1], ['js', 's', 10], ['s', 't', 19], ['t', 'call', 16], ['loaded', 'ld', 25]]);
}
