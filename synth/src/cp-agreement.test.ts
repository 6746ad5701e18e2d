import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Graph } from '@pcp/graph-builder';
import { asRecorded, cpUrls, criticalPathFigures, recordedGraphs, nearCriticalJaccard, pathEdgesMissing, pathLengths, withDurationsOf } from './cp-agreement.ts';
import type { KeyedEdge } from './compare.ts';
import { graphOf, res } from './testing.ts';

const PAGE = 'http://www.pcp.test/';
const A = 'http://cdn.pcp.test/a.js';
const B = 'http://cdn.pcp.test/b.js';

/**
 * The document (10 ms), then two scripts: a (its own `a` ms, below a parse chunk of `chunk` ms, then
 * `aBelow` ms of evaluation) and b (`b` ms, straight below the document, or below the chunk when `bUnderChunk`).
 * The path runs through a when 10 + chunk + a + aBelow > 10 + b.
 */
function branches(a: number, b: number, more: { aBelow?: number; chunk?: number; bUnderChunk?: boolean } = {}): Graph {
  const chunk = more.chunk ?? 0;
  return graphOf(PAGE, [
    res('doc', PAGE, 'text/html', 100, { end: 10 }),
    { id: 'p0', kind: 'parse_chunk', docUrl: PAGE, startLine: 1, startColumn: 1, endLine: 2, endColumn: 1, start: 10, end: 10 + chunk },
    res('a', A, 'application/javascript', 10, { start: 20, end: 20 + a }),
    { id: 'sa', kind: 'script_eval', scriptUrl: A, scriptKind: 'async', start: 20 + a, end: 20 + a + (more.aBelow ?? 0) },
    res('b', B, 'application/javascript', 10, { start: 20, end: 20 + b }),
  ], [['doc', 'p0', 'resource-chunk'], ['p0', 'a', 1], ['a', 'sa', 10], [more.bUnderChunk ? 'p0' : 'doc', 'b', 1]]);
}

/** Both graphs' nodes keyed by their ids (the hand-made graphs share them). */
const ids = (g: Graph): Map<string, string> => new Map(g.nodes.map((n) => [n.id, n.id]));
/** A graph's edges keyed by their ends' ids, as the comparison keys them. */
const edgesOf = (g: Graph): Map<string, KeyedEdge> => new Map(g.edges.map((e) => [`${e.from} -> ${e.to}`, { rule: String(e.rule), from: e.from, to: e.to }]));
const figures = (source: Graph, built: Graph) => criticalPathFigures(recordedGraphs(source, built), ids(source), ids(built), { source: edgesOf(source), built: edgesOf(built) });

test('the critical path of a hand-made graph and the lengths through its nodes', () => {
  assert.deepEqual(cpUrls(branches(100, 50)), [PAGE, A]);
  assert.deepEqual(cpUrls(branches(50, 100)), [PAGE, B]);
  const len = pathLengths(branches(100, 95, { chunk: 5 }));
  // Through a: doc 10 + chunk 5 + a 100; through b: doc 10 + b 95.
  assert.equal(len.before('a') + len.after('a'), 115);
  assert.equal(len.before('b') + len.after('b'), 105);
});

test('a near tie flipped by the replay: the headline misses it, the structural figure does not', () => {
  // Source: a (100) beats b (95); rebuilt, same edges: b (100) beats a (97).
  const source = branches(100, 95);
  const built = branches(97, 100);
  const f = figures(source, built);
  assert.equal(f.jaccard, 1 / 3); // {doc, a} against {doc, b}
  assert.equal(f.structural, 1);
  // a's branch in the rebuilt graph: 107 of 110 (2.7% short); b's in the source: 105 of 110 (4.5% short).
  assert.deepEqual(f.near, { '2%': 1 / 3, '5%': 1, '10%': 1 });
  assert.deepEqual(f.sourcePathEdgesMissing, []);
});

test('an edge the source lacks moves the path: a miss in the structural figure too', () => {
  // Source: a below a 20 ms parse chunk (130 ms) beats b below the document (125 ms);
  // rebuilt: b below the chunk as well, the same durations: b's branch is 145 ms.
  const source = branches(100, 115, { chunk: 20 });
  const built = branches(100, 115, { chunk: 20, bUnderChunk: true });
  const f = figures(source, built);
  assert.equal(f.jaccard, 1 / 3);
  assert.equal(f.structural, 1 / 3);
  // a's branch in the rebuilt graph: 130 of 145 (10.3% short): never near; b's in the source: 125 of 130 (3.8%).
  assert.deepEqual(f.near, { '2%': 1 / 3, '5%': 2 / 3, '10%': 2 / 3 });
  assert.deepEqual(f.sourcePathEdgesMissing, [], 'the source path doc -> p0 -> a -> sa is all there: the rebuilt graph added an edge');
});

test("the source path's edges the rebuilt graph lacks, computations' parts as one", () => {
  const source = branches(100, 95);
  const built = branches(100, 95);
  built.edges = built.edges.map((e) => (e.from === 'p0' && e.to === 'a' ? { ...e, from: 'doc' } : e));
  assert.deepEqual(pathEdgesMissing(source, ids(source), edgesOf(source), edgesOf(built), new Set(ids(built).values())), [{ rule: '1', from: 'p0', to: 'a' }]);
  // A rebuilt graph without the evaluation: its edge is missing for want of an end.
  const lacking = new Set([...ids(built).values()].filter((k) => k !== 'sa'));
  const noEval = edgesOf(source);
  noEval.delete('a -> sa');
  assert.deepEqual(pathEdgesMissing(source, ids(source), edgesOf(source), noEval, lacking), [{ rule: '10', from: 'a', to: 'sa', endLacking: true }]);
  // The evaluation's two parts under one key: no edge between them is looked for.
  const parts = branches(100, 95);
  parts.nodes.push({ ...parts.nodes.find((n) => n.id === 'sa')!, id: 'sa2' });
  parts.edges.push({ from: 'sa', to: 'sa2', rule: 'split' });
  const keys = ids(parts).set('sa2', 'sa');
  assert.deepEqual(pathEdgesMissing(parts, keys, edgesOf(parts), edgesOf(source), new Set(ids(source).values())), []);
});

test('at tolerance 0 the near-critical figure is the Jaccard (no exact tie)', () => {
  assert.equal(nearCriticalJaccard(branches(100, 95), branches(97, 100), 0), 1 / 3);
  assert.equal(nearCriticalJaccard(branches(100, 95), branches(100, 95), 0), 1);
});

test("the source's durations are shared among a key's rebuilt parts by their spans", () => {
  const source = graphOf(PAGE, [res('doc', PAGE, 'text/html', 100, { end: 10 }), { id: 'y', kind: 'script_eval', scriptUrl: A, scriptKind: 'sync', start: 10, end: 90 }], [['doc', 'y', 10]]);
  const built = graphOf(PAGE, [
    res('doc', PAGE, 'text/html', 100, { end: 30 }),
    { id: 'x1', kind: 'script_eval', scriptUrl: A, scriptKind: 'sync', start: 30, end: 40 },
    { id: 'x2', kind: 'script_eval', scriptUrl: A, scriptKind: 'sync', start: 40, end: 70 },
    { id: 'z', kind: 'script_eval', scriptUrl: B, scriptKind: 'sync', start: 70, end: 75 },
  ], [['doc', 'x1', 10], ['x1', 'x2', 'part'], ['x2', 'z', 2]]);
  const keys = (m: Record<string, string>): Map<string, string> => new Map(Object.entries(m));
  const out = withDurationsOf(built, keys({ doc: 'doc', x1: 'k', x2: 'k', z: 'z' }), source, keys({ doc: 'doc', y: 'k' }));
  const d = Object.fromEntries(out.nodes.map((n) => [n.id, n.end - n.start]));
  assert.deepEqual({ doc: d.doc, x1: d.x1, x2: d.x2, z: d.z }, { doc: 10, x1: 20, x2: 60, z: 5 });
  assert.equal(out.nodes.find((n) => n.id === 'x2')!.start, 40, 'starts kept');
  // Parts that last nothing: the first takes the source's duration.
  const zero = graphOf(PAGE, [res('doc', PAGE, 'text/html', 100, { end: 30 }), { id: 'x1', kind: 'script_eval', scriptUrl: A, scriptKind: 'sync', start: 30, end: 30 }, { id: 'x2', kind: 'script_eval', scriptUrl: A, scriptKind: 'sync', start: 30, end: 30 }], [['doc', 'x1', 10], ['x1', 'x2', 'part']]);
  const z = withDurationsOf(zero, keys({ x1: 'k', x2: 'k' }), source, keys({ y: 'k' }));
  assert.deepEqual(z.nodes.filter((n) => n.id.startsWith('x')).map((n) => n.end - n.start), [80, 0]);
  assert.equal(z.nodes.find((n) => n.id === 'doc')!.end, 30, 'a node without a key keeps its span');
});

test("a post-load timer the rebuilt graph disables stays on its critical path, as on the source's (www.aliexpress.com's shape)", () => {
  // The document (10 ms); its load handler's timer (after the load) requests an ad frame of 4,600 ms; a script of 50 ms
  // beside it. The legacy graph disables nothing; the trace builder's normalisation disables the post-load timer.
  const AD = 'http://dis.pcp.test/ad.html';
  const page = (disabled: boolean): Graph => graphOf(PAGE, [
    res('doc', PAGE, 'text/html', 100, { end: 10 }),
    { id: 't', kind: 'timer', timerId: '1', timerDelay: 0, start: 20, end: 21, ...(disabled && { disabled: true }) },
    res('ad', AD, 'text/html', 100, { start: 21, end: 4621 }),
    res('b', B, 'application/javascript', 10, { start: 20, end: 70 }),
  ], [['doc', 't', 20], ['t', 'ad', 2], ['doc', 'b', 1]]);
  const source = page(false);
  const built = page(true);
  assert.deepEqual(cpUrls(source), [PAGE, AD]);
  assert.deepEqual(cpUrls(built), [PAGE, B], 'Algorithm 1 on the enabled part alone: the timer and the ad it leads to are left out');
  assert.deepEqual(cpUrls(asRecorded(built)), [PAGE, AD]);
  assert.equal(asRecorded(source), source, 'a graph that disables nothing is returned as is');
  assert.equal(built.nodes.find((n) => n.id === 't')!.disabled, true, 'the graph given is not changed');
  const f = figures(source, built);
  assert.equal(f.jaccard, 1);
  assert.equal(f.structural, 1);
});
