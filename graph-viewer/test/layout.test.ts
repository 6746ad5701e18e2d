/**
 * The layouts on hand-built graphs whose right answer is known by construction.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Graph, GraphNode } from '@pcp/graph-builder';
import { LAYERED, layeredLayout, longestPathLayers } from '../src/shared/layeredLayout.ts';
import { edgePath } from '../src/shared/edgeGeometry.ts';
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

test('layered layout: edges run left to right, long ones routed through the layers they cross, no boxes overlap', () => {
  const g = syntheticGraph(300, { seed: 7 });
  const { input } = toLayoutInput(g);
  const l = layeredLayout(input);
  const layers = longestPathLayers(g.nodes.length, input.edgeFrom, input.edgeTo);
  const pts: number[] = [];
  let routed = 0;
  for (let e = 0; e < input.edgeFrom.length; e++) {
    const a = input.edgeFrom[e]!;
    const b = input.edgeTo[e]!;
    if (layers[b]! <= layers[a]!) continue; // closes a cycle: drawn straight
    assert.ok(l.x[b]! > l.x[a]!, `edge ${e} goes backwards`);
    edgePath(l, input, e, pts);
    // Bend points lie between the two ends, in order, one per layer crossed.
    for (let k = 2; k < pts.length; k += 2) assert.ok(pts[k]! >= pts[k - 2]!, `edge ${e} turns back`);
    const crossed = Math.round((l.x[b]! - l.x[a]!) / (LAYERED.nodeW + LAYERED.layerGap)) - 1;
    assert.equal(pts.length / 2 - 2, crossed, `edge ${e}: one bend per layer crossed`);
    if (crossed > 0) routed++;
  }
  assert.ok(routed > 0, 'the synthetic page has long edges');
  const order = [...Array(g.nodes.length).keys()].sort((p, q) => l.x[p]! - l.x[q]! || l.y[p]! - l.y[q]!);
  for (let k = 1; k < order.length; k++) {
    const p = order[k - 1]!;
    const q = order[k]!;
    if (l.x[p] === l.x[q]) assert.ok(l.y[q]! >= l.y[p]! + l.h[p]!, `nodes ${p} and ${q} overlap`);
  }
  assert.ok(l.width > 0 && l.height > 0);
});

test('layered layout: the nodes of a frame are contiguous in every layer, and collapsing the frame hides them', () => {
  const g = syntheticGraph(300, { seed: 9, frameSize: 60 });
  const { input } = toLayoutInput(g);
  const l = layeredLayout(input);
  // Inside a column, frames appear as runs: no frame comes back after another one started.
  const columns = new Map<number, number[]>();
  for (let i = 0; i < g.nodes.length; i++) columns.set(l.x[i]!, [...(columns.get(l.x[i]!) ?? []), i]);
  for (const column of columns.values()) {
    column.sort((a, b) => l.y[a]! - l.y[b]!);
    const seen = new Set<number>();
    for (let k = 0; k < column.length; k++) {
      const f = input.frame[column[k]!]!;
      if (k > 0 && input.frame[column[k - 1]!] !== f) assert.ok(!seen.has(f), 'a frame split inside a layer');
      seen.add(f);
    }
  }
  const frame = input.frame[g.nodes.length - 1]!;
  const closed = layeredLayout(input, new Set([frame]));
  for (let i = 0; i < g.nodes.length; i++) assert.equal(closed.hidden[i], input.frame[i] === frame ? 1 : 0);
  assert.ok(closed.groups.some((gr) => gr.collapsed && gr.frame === frame));
});

test('median ordering untangles a crossing', () => {
  // r -> p, q (layer 1, p recorded first); q -> u, p -> v (layer 2, u recorded first). Recorded order
  // crosses the two lower edges; after ordering they must not cross: v is on p's side, u on q's.
  const g = tiny([['r', 0, 0.1], ['p', 0.2, 1], ['q', 0.5, 1], ['u', 2, 3], ['v', 2.5, 3]], [['r', 'p'], ['r', 'q'], ['q', 'u'], ['p', 'v']]);
  const { input, index } = toLayoutInput(g);
  const l = layeredLayout(input);
  const y = (id: string): number => l.y[index.get(id)!]!;
  assert.equal(y('p') < y('q'), y('v') < y('u'), 'p -> v and q -> u cross');
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
