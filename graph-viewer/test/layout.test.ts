/**
 * The layouts on hand-built graphs whose right answer is known by construction.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Graph, GraphNode } from '@pcp/graph-builder';
import { layeredLayout, longestPathLayers } from '../src/shared/layeredLayout.ts';
import { toLayoutInput } from '../src/shared/layoutTypes.ts';
import { timeAxisLayout, timeToX } from '../src/shared/timeAxisLayout.ts';
import { syntheticGraph } from './synthetic.ts';

/** A graph of script_evals in one frame: [id, start, end] and edges. */
function tiny(spec: [string, number, number][], edges: [string, string][], frameOf: (id: string) => string = () => 'f0'): Graph {
  const nodes: GraphNode[] = spec.map(([id, start, end]) => ({ id, kind: 'script_eval', frame: frameOf(id), start, end, scriptUrl: `http://x.test/${id}.js`, scriptKind: 'sync' }));
  const frames = [...new Set(nodes.map((n) => n.frame))].map((id, k) => ({ id, url: `http://${id}.test/`, parent: k === 0 ? null : 'f0' }));
  return {
    schemaVersion: 1,
    page: { url: 'http://x.test/' },
    frames,
    nodes,
    edges: edges.map(([from, to]) => ({ from, to, rule: 9 })),
    markers: { domContentLoaded: 'a', load: 'a' },
    provenance: { source: 'synthetic', tool: 'test', toolVersion: '0' },
  };
}

test('longest-path layering: a node sits one past its deepest parent', () => {
  // a -> b -> c -> d and a shortcut a -> d: d's longest path has 3 edges, so layer 3 (not 1).
  const g = tiny([['a', 0, 1], ['b', 1, 2], ['c', 2, 3], ['d', 3, 4], ['e', 0, 1]], [['a', 'b'], ['b', 'c'], ['c', 'd'], ['a', 'd']]);
  const { input, index } = toLayoutInput(g);
  const layers = longestPathLayers(g.nodes.length, input.edgeFrom, input.edgeTo);
  assert.deepEqual(['a', 'b', 'c', 'd', 'e'].map((id) => layers[index.get(id)!]), [0, 1, 2, 3, 0]);
});

test('layered layout: every edge points to a later layer, no two nodes share a slot, long chains wrap', () => {
  const g = syntheticGraph(3000, { seed: 7 });
  const { input } = toLayoutInput(g);
  const l = layeredLayout(input);
  const layers = longestPathLayers(g.nodes.length, input.edgeFrom, input.edgeTo);
  for (let e = 0; e < input.edgeFrom.length; e++) assert.ok(layers[input.edgeTo[e]!]! > layers[input.edgeFrom[e]!]!, `edge ${e} goes backwards`);
  // The synthetic page is one long parse chain (hundreds of layers): wrapped, it is not a sliver.
  assert.ok(l.width <= 3 * l.height, `aspect ${l.width} x ${l.height}`);
  const slots = new Set<string>();
  for (let i = 0; i < g.nodes.length; i++) {
    const key = `${l.x[i]},${l.y[i]}`;
    assert.ok(!slots.has(key), `two nodes at ${key}`);
    slots.add(key);
  }
});

test('barycentre ordering untangles a crossing', () => {
  // Layer 0: p, q (p recorded first); layer 1: u (child of q), v (child of p), u recorded first.
  // Recorded order crosses the two edges; after ordering v must sit above u.
  const g = tiny([['p', 0, 1], ['q', 0.5, 1], ['u', 2, 3], ['v', 2.5, 3]], [['q', 'u'], ['p', 'v']]);
  const { input, index } = toLayoutInput(g);
  const l = layeredLayout(input);
  assert.ok(l.y[index.get('p')!]! < l.y[index.get('q')!]!);
  assert.ok(l.y[index.get('v')!]! < l.y[index.get('u')!]!, 'v (child of p) above u (child of q)');
});

test('time-axis layout: x follows start, overlapping activities get separate rows, rows are minimal', () => {
  // Three activities overlap pairwise in time (0-10, 5-15, 8-20) and one starts after all end (30-40):
  // interval partitioning needs exactly 3 rows, and the late one reuses row 0.
  const g = tiny([['a', 0, 10], ['b', 5, 15], ['c', 8, 20], ['d', 30, 40]], []);
  const { input, index } = toLayoutInput(g);
  const l = timeAxisLayout(input);
  const ix = (id: string): number => index.get(id)!;
  assert.ok(l.x[ix('a')]! < l.x[ix('b')]! && l.x[ix('b')]! < l.x[ix('c')]! && l.x[ix('c')]! < l.x[ix('d')]!);
  const rows = new Set(['a', 'b', 'c', 'd'].map((id) => l.y[ix(id)]));
  assert.equal(rows.size, 3);
  assert.equal(l.y[ix('d')], l.y[ix('a')]);
  assert.equal(l.x[ix('a')], timeToX(l.axis!, 0));
});

test('time-axis layout: boxes never overlap within a lane, on a 5,000-node synthetic page', () => {
  const g = syntheticGraph(5000, { seed: 3 });
  const { input } = toLayoutInput(g);
  const l = timeAxisLayout(input);
  const byRow = new Map<number, number[]>();
  for (let i = 0; i < g.nodes.length; i++) byRow.set(l.y[i]!, [...(byRow.get(l.y[i]!) ?? []), i]);
  for (const list of byRow.values()) {
    list.sort((a, b) => l.x[a]! - l.x[b]!);
    for (let k = 1; k < list.length; k++) assert.ok(l.x[list[k]!]! >= l.x[list[k - 1]!]! + l.w[list[k - 1]!]!, 'overlap in a row');
  }
});

test('collapsing a frame hides its nodes behind one bar', () => {
  const g = tiny([['a', 0, 10], ['b', 5, 15], ['c', 8, 20]], [['a', 'c']], (id) => (id === 'a' ? 'f0' : 'f1'));
  const { input, index } = toLayoutInput(g);
  const open = timeAxisLayout(input);
  const closed = timeAxisLayout(input, new Set([1]));
  assert.equal(open.hidden.reduce((s, v) => s + v, 0), 0);
  assert.equal(closed.hidden[index.get('b')!], 1);
  assert.equal(closed.hidden[index.get('c')!], 1);
  assert.equal(closed.y[index.get('b')!], closed.y[index.get('c')!]);
  assert.ok(closed.height < open.height);
});
