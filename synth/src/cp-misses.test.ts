import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Graph } from '@pcp/graph-builder';
import { criticalPathMisses } from './cp-misses.ts';
import { recordedGraphs } from './cp-agreement.ts';
import { graphOf, res } from './testing.ts';

const misses = (source: Graph, built: Graph): Map<string, number> => criticalPathMisses(recordedGraphs(source, built));

const PAGE = 'http://www.pcp.test/';

/** A document with two scripts on separate branches, each lasting what is given; `extra` on the document's chunk. */
function page(a: number, b: number, more: { aWait?: number; interpolated?: boolean; chunk?: number } = {}) {
  const chunkEnd = more.chunk ?? 1;
  return graphOf(PAGE, [
    res('doc', PAGE, 'text/html', 100, { end: 10 }),
    { id: 'd0', kind: 'download_chunk', resource: 'doc', index: 0, offset: 0, size: 100, start: 0, end: chunkEnd, ...(more.interpolated ? { extra: { interpolatedTimes: true } } : {}) },
    { id: 'p0', kind: 'parse_chunk', docUrl: PAGE, startLine: 1, startColumn: 1, endLine: 2, endColumn: 1, start: chunkEnd, end: chunkEnd + 1 },
    res('a', 'http://cdn.pcp.test/a.js', 'application/javascript', 10, { start: 20, end: 20 + a, browserDelay: { request: more.aWait ?? 0 } }),
    res('b', 'http://cdn.pcp.test/b.js', 'application/javascript', 10, { start: 20, end: 20 + b }),
  ], [['doc', 'd0', 'resource-chunk'], ['d0', 'p0', 3], ['doc', 'a', 1], ['p0', 'b', 1]]);
}

test('paths that agree have no misses', () => {
  assert.equal(misses(page(100, 50), page(100, 50)).size, 0);
});

test('a resource that waited for a connection in the replay takes the path', () => {
  // Source: b (100) is heavier; rebuilt: a lasted 400 ms instead of 50, 300 of them queued.
  const m = misses(page(50, 100), page(400, 100, { aWait: 300 }));
  assert.deepEqual(Object.fromEntries(m), {
    // b's branch is as long in the rebuilt graph as in the source: the rebuilt path grew through a.
    'source path resource off the rebuilt path (another branch weighs more): the other path is longer (its branch as long as on its own side)': 1,
    'rebuilt path resource longer in the replay: waited for a connection': 1,
  });
  assert.equal(misses(page(50, 100), page(400, 100)).get('rebuilt path resource longer in the replay: server or transfer'), 1);
  const held = page(400, 100);
  Object.assign(held.nodes.find((n) => n.id === 'a')!, { browserDelay: { release: 300, request: 1 } });
  assert.equal(misses(page(50, 100), held).get("rebuilt path resource longer in the replay: held by the renderer's scheduler"), 1);
});

test('a source path through interpolated download chunks is named once per graph', () => {
  // Source: the chunk spread over 500 ms leads the path to b; rebuilt: the chunk lasts 1 ms, a 300.
  const m = misses(page(100, 50, { interpolated: true, chunk: 500 }), page(300, 50));
  assert.equal(m.get('graph: source path mostly interpolated download chunks'), 1);
  assert.equal(misses(page(100, 50, { chunk: 500 }), page(300, 50)).has('graph: source path mostly interpolated download chunks'), false);
});

/** Two scripts after the document: a (below a parse chunk of `chunk` ms, then `aBelow` ms of computation below it) and b. */
function branches(a: number, b: number, aBelow = 0, chunk = 0) {
  return graphOf(PAGE, [
    res('doc', PAGE, 'text/html', 100, { end: 10 }),
    { id: 'p0', kind: 'parse_chunk', docUrl: PAGE, startLine: 1, startColumn: 1, endLine: 2, endColumn: 1, start: 10, end: 10 + chunk },
    res('a', 'http://cdn.pcp.test/a.js', 'application/javascript', 10, { start: 20, end: 20 + a }),
    { id: 'sa', kind: 'script_eval', scriptUrl: 'http://cdn.pcp.test/a.js', scriptKind: 'async', start: 20 + a, end: 20 + a + aBelow },
    res('b', 'http://cdn.pcp.test/b.js', 'application/javascript', 10, { start: 20, end: 20 + b }),
  ], [['doc', 'p0', 'resource-chunk'], ['p0', 'a', 1], ['a', 'sa', 10], ['doc', 'b', 1]]);
}

test('a branch taken on one side only: a near tie, the other path longer, or its branch shorter before or after it', () => {
  const key = (side: 'source' | 'rebuilt', cls: string): string =>
    `${side} path resource off the ${side === 'source' ? 'rebuilt' : 'source'} path (another branch weighs more): ${cls}`;
  // Source: a (100) beats b (95); rebuilt: b (100) beats a (97): within a tenth either way.
  const tie = misses(branches(100, 95), branches(97, 100));
  assert.equal(tie.get(key('source', 'near tie (its branch within 10% of the path)')), 1);
  assert.equal(tie.get(key('rebuilt', 'near tie (its branch within 10% of the path)')), 1);
  // Source: a with 200 ms of computation below it; rebuilt: the computation lasts 20 (a and b alike on both sides).
  const after = misses(branches(100, 150, 200), branches(100, 150, 20));
  assert.equal(after.get(key('source', 'its branch is shorter there, after it')), 1);
  // Source: the parse chunk that declares a lasts 200 ms; rebuilt: 20.
  const before = misses(branches(100, 150, 0, 200), branches(100, 150, 0, 20));
  assert.equal(before.get(key('source', 'its branch is shorter there, before it')), 1);
});
