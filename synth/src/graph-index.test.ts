import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ResourceNode } from '@pcp/graph-builder';
import { callerOf, contentKeys, firstEvaluationStart, indexGraph, isMemoryCacheRepeat, isUndeclaringChunkKey, stripFragment, xhrEvents } from './graph-index.ts';
import { graphOf, res } from './testing.ts';

const PAGE = 'http://www.pcp.test/';

test('URLs are keyed as the browser requests them, without fragment', () => {
  assert.equal(stripFragment('http://a.test/x y"<>.png#frag'), 'http://a.test/x%20y%22%3C%3E.png');
  assert.equal(stripFragment('not a url#x'), 'not a url');
});

test('keys: chunks by what they declare, parts, element targets, the load marker', () => {
  const g = graphOf(PAGE, [
    res('doc', PAGE, 'text/html', 100),
    { id: 'p0', kind: 'parse_chunk', docUrl: PAGE, startLine: 1, startColumn: 1, endLine: 1, endColumn: 9 },
    { id: 'p1', kind: 'parse_chunk', docUrl: PAGE, startLine: 2, startColumn: 1, endLine: 2, endColumn: 9 },
    { id: 'p2', kind: 'parse_chunk', docUrl: PAGE, startLine: 3, startColumn: 1, endLine: 3, endColumn: 9 },
    res('js', 'http://www.pcp.test/a.js', 'application/javascript', 10, { start: 1 }),
    { id: 's_0', kind: 'script_eval', scriptUrl: 'http://www.pcp.test/a.js', scriptKind: 'sync', start: 2, end: 3, part: 0 },
    { id: 's_1', kind: 'script_eval', scriptUrl: 'http://www.pcp.test/a.js', scriptKind: 'sync', start: 3, end: 4, part: 1 },
    { id: 'ev', kind: 'event', eventName: 'load', eventTarget: 'Img', start: 5, end: 6 },
  ], [['doc', 'p0', 'resource-chunk'], ['p0', 'js', 1], ['p0', 'p1', 3], ['p1', 'p2', 3], ['js', 's_0', 10], ['s_0', 's_1', 'split'], ['s_1', 'ev', 25]]);
  const ix = indexGraph(g);
  assert.deepEqual(ix.partsOf.get('s_1'), ['s_0', 's_1']);
  const k = contentKeys(ix);
  assert.equal(k.get('p0'), `parse ${PAGE} @ resource http://www.pcp.test/a.js#0`);
  assert.equal(k.get('p2'), `parse ${PAGE} @ resource http://www.pcp.test/a.js#0 +2`);
  // Chunks declaring nothing, and only they, are named so (chunk-merge.ts merges them by it).
  assert.deepEqual(['p0', 'p1', 'p2', 'js', 's_0'].map((id) => isUndeclaringChunkKey(k.get(id)!)), [false, true, true, false, false]);
  assert.equal(k.get('s_1'), `script http://www.pcp.test/a.js in ${PAGE}#0 part 1`);
  assert.equal(contentKeys(ix, true).get('s_1'), `script http://www.pcp.test/a.js in ${PAGE}#0`);
  assert.equal(k.get('ev'), `event element.load in ${PAGE}#0`);
  assert.equal(k.get('load'), `marker load ${PAGE}`);
});

test('a call into another script (no download of its own, a computation before it) is its caller', () => {
  const g = graphOf(PAGE, [
    res('js', 'http://www.pcp.test/a.js', 'application/javascript', 10),
    { id: 's', kind: 'script_eval', scriptUrl: 'http://www.pcp.test/a.js', scriptKind: 'sync', start: 2, end: 3 },
    { id: 't', kind: 'timer', timerId: '1', timerDelay: 0, start: 4, end: 5 },
    { id: 'call', kind: 'script_eval', scriptUrl: PAGE, scriptKind: 'sync', start: 5, end: 6 },
    { id: 'call2', kind: 'script_eval', scriptUrl: 'http://www.pcp.test/a.js', scriptKind: 'sync', start: 6, end: 7 },
  ], [['js', 's', 10], ['s', 't', 19], ['t', 'call', 16], ['call', 'call2', 14]]);
  const ix = indexGraph(g);
  assert.equal(callerOf(ix, ix.byId.get('s')!), undefined);
  assert.equal(callerOf(ix, ix.byId.get('call')!), 't');
  const k = contentKeys(ix, true);
  assert.equal(k.get('call'), k.get('t'));
  assert.equal(k.get('call2'), k.get('t'));
  assert.equal(k.get('s'), `script http://www.pcp.test/a.js in ${PAGE}#0`);
  assert.equal(contentKeys(ix).get('call2'), `script http://www.pcp.test/a.js in ${PAGE}#1`);
});

test('an inline script a style sheet preceded (rule 13, legacy `css -> script`) is no call: keyed as an inline script of its document', () => {
  const css = 'http://www.pcp.test/partner.css';
  const g = graphOf(PAGE, [
    res('doc', PAGE, 'text/html', 100),
    { id: 'p0', kind: 'parse_chunk', docUrl: PAGE, startLine: 1, startColumn: 1, endLine: 1, endColumn: 9 },
    { id: 'i0', kind: 'script_eval', scriptUrl: PAGE, scriptKind: 'sync', start: 1, end: 2 },
    res('sheet', css, 'text/css', 10, { start: 1, end: 3 }),
    { id: 'c', kind: 'css_eval', styleUrl: css, start: 3, end: 4 },
    { id: 'p1', kind: 'parse_chunk', docUrl: PAGE, startLine: 2, startColumn: 1, endLine: 2, endColumn: 9, start: 4, end: 4 },
    { id: 'i1', kind: 'script_eval', scriptUrl: PAGE, scriptKind: 'sync', start: 5, end: 6 },
  ], [['doc', 'p0', 'resource-chunk'], ['p0', 'i0', 12], ['i0', 'sheet', 2], ['sheet', 'c', 18], ['i0', 'p1', 4], ['p1', 'i1', 12], ['c', 'i1', 13]]);
  const ix = indexGraph(g);
  assert.equal(callerOf(ix, ix.byId.get('i1')!), undefined);
  const k = contentKeys(ix, true);
  assert.equal(k.get('i1'), `script ${PAGE} in ${PAGE}#1`);
  assert.equal(k.get('p1'), `parse ${PAGE} @ script ${PAGE} in ${PAGE}#1`);
  assert.equal(k.get('c'), `css ${css} in ${PAGE}`);
  // A legacy graph draws the same order with no rule of its own.
  const legacy = indexGraph({ ...g, edges: g.edges.map((e) => (e.from === 'c' ? { ...e, rule: 'legacy' } : e)) });
  assert.equal(contentKeys(legacy, true).get('i1'), `script ${PAGE} in ${PAGE}#1`);
});

test('a chunk cut only by an about: iframe (no request in a trace) is one chunk with the chunk after it', () => {
  const g = graphOf(PAGE, [
    res('doc', PAGE, 'text/html', 100),
    { id: 'p0', kind: 'parse_chunk', docUrl: PAGE, startLine: 1, startColumn: 1, endLine: 1, endColumn: 9, start: 1 },
    { id: 'i0', kind: 'script_eval', scriptUrl: PAGE, scriptKind: 'sync', start: 2, end: 3 },
    { id: 'p1', kind: 'parse_chunk', docUrl: PAGE, startLine: 2, startColumn: 1, endLine: 2, endColumn: 9, start: 4 },
    res('blank', 'about:blank', 'text/html', 0, { start: 4 }),
    { id: 'p2', kind: 'parse_chunk', docUrl: PAGE, startLine: 3, startColumn: 1, endLine: 3, endColumn: 9, start: 5 },
    res('img', 'http://www.pcp.test/a.png', 'image/png', 10, { start: 5 }),
  ], [['doc', 'p0', 'resource-chunk'], ['p0', 'i0', 12], ['i0', 'p1', 4], ['p0', 'p1', 3], ['p1', 'blank', 1], ['p1', 'p2', 3], ['p2', 'img', 1]]);
  const k = contentKeys(indexGraph(g), true);
  assert.equal(k.get('p1'), `parse ${PAGE} @ resource http://www.pcp.test/a.png#0`);
  assert.equal(k.get('p2'), k.get('p1'));
  // Uncollapsed (the builders' own keys) the iframe still names its chunk.
  assert.equal(contentKeys(indexGraph(g)).get('p1'), `parse ${PAGE} @ resource about:blank#0`);
});

test("an XHR's events are keyed by its request, counted from the last, whether children of the resource or a chain", () => {
  const url = 'http://api.pcp.test/x';
  const ev = (id: string, start: number) => ({ id, kind: 'event' as const, eventName: 'readystatechange', eventTarget: 'XMLHttpRequest', start, end: start });
  // Trace: three events, children of the resource. Legacy: four, each the child of the one before.
  const trace = indexGraph(graphOf(PAGE, [res('x', url, 'text/html', 10, { requestType: 'XHR' }), ev('a', 5), ev('b', 6), ev('c', 7)], [['x', 'a', 25], ['x', 'b', 25], ['x', 'c', 25]]));
  const legacy = indexGraph(graphOf(PAGE, [res('x', url, 'text/html', 10), ev('a', 4), ev('b', 5), ev('c', 6), ev('d', 7)], [['x', 'a', 25], ['a', 'b', 25], ['b', 'c', 25], ['c', 'd', 25]]));
  assert.deepEqual(xhrEvents(legacy, legacy.byId.get('x') as never).map((e) => e.id), ['a', 'b', 'c', 'd']);
  const t = contentKeys(trace, true);
  const l = contentKeys(legacy, true);
  assert.equal(t.get('c'), `event xmlhttprequest.readystatechange of resource ${url}#0 -0`);
  assert.equal(l.get('d'), t.get('c'));
  assert.equal(l.get('c'), t.get('b'));
});

test("the main frame's window load handler is the load marker when scoring (the trace builder merges them)", () => {
  const g = graphOf(PAGE, [
    res('doc', PAGE, 'text/html', 100),
    { id: 'h', kind: 'event', eventName: 'load', eventTarget: 'Window', start: 9, end: 12 },
    { id: 'f', kind: 'event', eventName: 'load', eventTarget: 'Window', frame: 'sub', start: 8, end: 9 },
  ], [['load', 'h', 25]], [{ id: 'main', url: PAGE, parent: null }, { id: 'sub', url: 'http://sub.pcp.test/', parent: 'main' }]);
  const ix = indexGraph(g);
  assert.equal(contentKeys(ix, true).get('h'), `marker load ${PAGE}`);
  assert.equal(contentKeys(ix, true).get('f'), 'event window.load in http://sub.pcp.test/#0');
  assert.equal(contentKeys(ix).get('h'), `event window.load in ${PAGE}#0`);
});

test("an element's events are keyed by its resource, whatever order the downloads finished in", () => {
  const page = (order: [number, number]) => graphOf(PAGE, [
    res('a', 'http://www.pcp.test/a.png', 'image/png', 10),
    res('b', 'http://www.pcp.test/b.png', 'image/png', 10),
    { id: 'la', kind: 'event', eventName: 'load', eventTarget: 'Img', start: order[0], end: order[0] + 1 },
    { id: 'lb', kind: 'event', eventName: 'load', eventTarget: 'Element', start: order[1], end: order[1] + 1 },
  ], [['a', 'la', 25], ['b', 'lb', 25]]);
  const one = contentKeys(indexGraph(page([200, 300])), true);
  const other = contentKeys(indexGraph(page([400, 250])), true);
  for (const id of ['la', 'lb']) assert.equal(one.get(id), other.get(id), id);
  assert.equal(one.get('la'), 'event element.load of resource http://www.pcp.test/a.png#0#0');
});

test("the next part of a computation after a focus event it caused is the computation's, not the handler's", () => {
  const g = graphOf(PAGE, [
    res('js', 'http://www.pcp.test/a.js', 'application/javascript', 10),
    { id: 'comp_8_0', kind: 'script_eval', scriptUrl: 'http://www.pcp.test/a.js', scriptKind: 'sync', start: 2, end: 3, part: 0 },
    { id: 'comp_9', kind: 'event', eventName: 'focus', eventTarget: 'Element', start: 3, end: 4 },
    { id: 'comp_8_1', kind: 'script_eval', scriptUrl: 'http://www.pcp.test/a.js', scriptKind: 'sync', start: 4, end: 5, part: 1 },
    { id: 'comp_10', kind: 'script_eval', scriptUrl: PAGE, scriptKind: 'sync', start: 3.5, end: 4 },
  ], [['js', 'comp_8_0', 10], ['comp_8_0', 'comp_9', 25], ['comp_9', 'comp_8_1', 15], ['comp_9', 'comp_10', 15]]);
  const ix = indexGraph(g);
  assert.equal(callerOf(ix, ix.byId.get('comp_8_1')!), 'comp_8_0');
  assert.equal(callerOf(ix, ix.byId.get('comp_10')!), 'comp_9'); // a function the handler called
  const k = contentKeys(ix, true);
  assert.equal(k.get('comp_8_1'), k.get('comp_8_0'));
  assert.equal(k.get('comp_10'), k.get('comp_9'));
});

test("an event's or timer's parts are one computation whether the importer named their edge 'split' or, before, 25 and 21", () => {
  const ev = (id: string, start: number, part: number) => ({ id, kind: 'event' as const, eventName: 'DOMContentLoaded', eventTarget: 'Document', start, end: start + 1, part });
  const tm = (id: string, start: number, part?: number) => ({ id, kind: 'timer' as const, timerId: id, timerDelay: 100, start, end: start + 1, ...(part === undefined ? {} : { part }) });
  const nodes = [res('doc', PAGE, 'text/html', 100), ev('comp_16_0', 2, 0), ev('comp_16_1', 3, 1), tm('comp_17', 5), tm('comp_22_0', 7, 0), tm('comp_22_1', 8, 1)];
  const edges = (eventPart: number | string, timerPart: number | string): [string, string, number | string][] =>
    [['doc', 'comp_16_0', 25], ['comp_16_0', 'comp_16_1', eventPart], ['comp_16_1', 'comp_17', 20], ['comp_17', 'comp_22_0', 21], ['comp_22_0', 'comp_22_1', timerPart]];
  const now = indexGraph(graphOf(PAGE, nodes, edges('split', 'split')));
  const before = indexGraph(graphOf(PAGE, nodes, edges(25, 21)));
  for (const ix of [now, before]) {
    assert.deepEqual(ix.partsOf.get('comp_16_1'), ['comp_16_0', 'comp_16_1']);
    assert.deepEqual(ix.partsOf.get('comp_22_1'), ['comp_22_0', 'comp_22_1']);
    assert.deepEqual(ix.partsOf.get('comp_17'), ['comp_17'], 'a timer another installed is not its part');
  }
  assert.deepEqual([...contentKeys(now)], [...contentKeys(before)]);
});

test('timers are keyed by the delay the page passed, whether the graph trimmed it (normalisation) or not', () => {
  const timer = (delay: number, extra?: Record<string, unknown>) => indexGraph(graphOf(PAGE, [
    res('js', 'http://www.pcp.test/a.js', 'application/javascript', 10),
    { id: 's', kind: 'script_eval', scriptUrl: 'http://www.pcp.test/a.js', scriptKind: 'sync', start: 2, end: 3 },
    { id: 't', kind: 'timer', timerId: '2', timerDelay: delay, start: 1500, end: 1501, ...(extra ? { extra } : {}) },
  ], [['js', 's', 10], ['s', 't', 19]]));
  assert.equal(contentKeys(timer(1000, { originalDelay: 1500 }), true).get('t'), contentKeys(timer(1500), true).get('t'));
  assert.equal(contentKeys(timer(1500), true).get('t'), `timer 1500 in ${PAGE}#0`);
});

test("a memory-cache repeat is a cached use of a URL already loaded in its own frame; another frame's use is a request", () => {
  const img = 'http://www.pcp.test/i.gif';
  const ix = indexGraph(graphOf(PAGE, [
    res('i1', img, 'image/gif', 10, { start: 1, end: 5 }),
    res('i2', img, 'image/gif', 10, { start: 6, end: 6, cached: true }),
    res('i3', img, 'image/gif', 10, { start: 7, end: 7, cached: true, frame: 'sub' }),
  ], [], [{ id: 'main', url: PAGE, parent: null }, { id: 'sub', url: 'http://sub.pcp.test/', parent: 'main' }]));
  assert.deepEqual(['i1', 'i2', 'i3'].map((id) => isMemoryCacheRepeat(ix, ix.byId.get(id)!)), [false, true, false]);
  assert.equal(contentKeys(ix, true).get('i2'), undefined);
});

test("a cached use of a URL as another request type is a request of its own (the memory cache serves a resource only to its type)", () => {
  const js = 'https://s1.adform.net/Adform.DHTML.js';
  const ix = indexGraph(graphOf(PAGE, [
    res('asImg', js, 'application/x-javascript', 10, { start: 1, end: 80, requestType: 'Image' }),
    res('asScript', js, 'application/x-javascript', 10, { start: 4, end: 85, cached: true, requestType: 'Script' }),
    res('again', js, 'application/x-javascript', 10, { start: 90, end: 90, cached: true, requestType: 'Image' }),
  ], []));
  assert.deepEqual(['asScript', 'again'].map((id) => isMemoryCacheRepeat(ix, ix.byId.get(id)!)), [false, true]);
  assert.equal(contentKeys(ix, true).get('asScript'), `resource ${js}#1`);
});

test('an XHR is never a memory-cache repeat: it makes a request even when the HTTP cache answers it', () => {
  const api = 'http://www.pcp.test/api';
  const ev = { id: 'rs', kind: 'event' as const, eventName: 'readystatechange', eventTarget: 'XMLHttpRequest', start: 9, end: 9 };
  const ix = indexGraph(graphOf(PAGE, [
    res('x1', api, 'application/json', 10, { start: 1, end: 5, requestType: 'XHR' }),
    res('x2', api, 'application/json', 10, { start: 6, end: 6, cached: true, requestType: 'XHR' }),
    // A legacy graph keeps no request type: its readystatechange events say it is an XHR.
    res('x3', api, 'application/json', 10, { start: 8, end: 8, cached: true }),
    ev,
  ], [['x3', 'rs', 25]]));
  assert.deepEqual(['x2', 'x3'].map((id) => isMemoryCacheRepeat(ix, ix.byId.get(id)!)), [false, false]);
  assert.equal(contentKeys(ix, true).get('x2'), `resource ${api}#1`);
});

test("an XHR's first event is `first`, workless ones before its last are one, `between`; one with work keeps its count", () => {
  const url = 'http://api.pcp.test/x';
  const ev = (id: string, start: number) => ({ id, kind: 'event' as const, eventName: 'readystatechange', eventTarget: 'XMLHttpRequest', start, end: start });
  const chainOf = (ids: string[]): [string, string, number][] => ids.map((id, i) => [i === 0 ? 'x' : ids[i - 1]!, id, 25]);
  // Six dispatches in the source (four LOADING), three in the replay: the same request's chain.
  const six = contentKeys(indexGraph(graphOf(PAGE, [res('x', url, 'text/html', 10), ...['h', 'l1', 'l2', 'l3', 'l4', 'd'].map((id, i) => ev(id, 5 + i))], chainOf(['h', 'l1', 'l2', 'l3', 'l4', 'd']))), true);
  const three = contentKeys(indexGraph(graphOf(PAGE, [res('x', url, 'text/html', 10), ...['h', 'l1', 'd'].map((id, i) => ev(id, 5 + i))], chainOf(['h', 'l1', 'd']))), true);
  const base = `event xmlhttprequest.readystatechange of resource ${url}#0`;
  assert.deepEqual(['h', 'l1', 'l4', 'd'].map((id) => six.get(id)), [`${base} first`, `${base} between`, `${base} between`, `${base} -0`]);
  assert.deepEqual(['h', 'l1', 'd'].map((id) => three.get(id)), [`${base} first`, `${base} between`, `${base} -0`]);
  // A LOADING handler that requests something is a node of its own.
  const busy = indexGraph(graphOf(PAGE, [res('x', url, 'text/html', 10), ...['h', 'l1', 'l2', 'd'].map((id, i) => ev(id, 5 + i)), res('img', 'http://api.pcp.test/i.png', 'image/png', 5, { start: 9 })],
    [...chainOf(['h', 'l1', 'l2', 'd']), ['l1', 'img', 2]]));
  assert.equal(contentKeys(busy, true).get('l1'), `${base} -2`);
});

test('firstEvaluationStart: the earliest script or style sheet evaluation the download caused, else undefined', () => {
  const JS = 'http://www.pcp.test/a.js';
  const g = graphOf(PAGE, [
    res('js', JS, 'application/javascript', 10, { start: 1, end: 9 }),
    { id: 'late', kind: 'script_eval', scriptUrl: JS, scriptKind: 'sync', start: 40, end: 41 },
    { id: 'early', kind: 'script_eval', scriptUrl: JS, scriptKind: 'sync', start: 12, end: 13 },
    { id: 'ev', kind: 'event', eventName: 'load', eventTarget: 'Script', start: 5, end: 6 },
    res('img', 'http://www.pcp.test/a.png', 'image/png', 10, { start: 1, end: 3 }),
  ], [['js', 'late', 10], ['js', 'early', 10], ['js', 'ev', 25]]);
  const ix = indexGraph(g);
  assert.equal(firstEvaluationStart(ix, ix.byId.get('js') as ResourceNode), 12);
  assert.equal(firstEvaluationStart(ix, ix.byId.get('img') as ResourceNode), undefined);
});
