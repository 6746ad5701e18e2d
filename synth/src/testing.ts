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
