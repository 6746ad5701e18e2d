/**
 * Layered DAG layout (Sugiyama) by d3-dag: longest-path layering, dummy nodes for edges that span
 * several layers (their bend points route the edge between the layers it crosses, see
 * edgeGeometry.ts), two-layer median decrossing, greedy coordinates (centred layers past
 * LAYERED.greedyMaxSize, where greedy placement dominates the cost). Layers run left to right in time
 * order. Nodes of one frame are kept together inside each layer so frames read as grey groups (one
 * group per run of a frame in a layer). Collapsed frames: their nodes are laid out as usual, then
 * hidden behind one box per run.
 *
 * It costs far more than the time-axis layout, in proportion to nodes plus dummy nodes (edge spans):
 * above LAYERED.maxSize of them the viewer offers the time axis only (layeredSize.ts;
 * `npm run bench:viewer` measures the cost).
 * Edges that would close a cycle (the format does not forbid one) are left out of the library's
 * input and drawn straight.
 */
import { coordCenter, coordGreedy, decrossTwoLayer, graph, layeringLongestPath, sugiyama, twolayerAgg, aggMedian, type MutGraphNode, type SugiNode } from 'd3-dag';
import { LAYERED, layeredGraphSize, longestPathLayers } from './layeredSize.ts';
import type { EdgeBends, FrameGroup, Layout, LayoutInput } from './layoutTypes.ts';

export { LAYERED, longestPathLayers };

/** The frame a node of d3-dag's layered graph belongs to (a dummy node: its edge's source's). */
function frameOf(input: LayoutInput, s: SugiNode<number, number>): number {
  const d = s.data;
  return input.frame[d.role === 'node' ? d.node.data : d.link.source.data]!;
}

export function layeredLayout(input: LayoutInput, collapsed: ReadonlySet<number> = new Set()): Layout {
  const L = LAYERED;
  const n = input.kinds.length;
  const { edgeFrom, edgeTo } = input;
  const E = edgeFrom.length;

  // The graph d3-dag lays out: every node, each edge once, edges closing a cycle left out.
  const order = longestPathLayers(n, edgeFrom, edgeTo);
  const dag = graph<number, number>();
  const nodes: MutGraphNode<number, number>[] = [];
  for (let i = 0; i < n; i++) nodes.push(dag.node(i));
  const linkOf = new Map<number, number>(); // a * n + b -> first layout edge between them
  for (let e = 0; e < E; e++) {
    const a = edgeFrom[e]!;
    const b = edgeTo[e]!;
    if (order[b]! <= order[a]! || linkOf.has(a * n + b)) continue;
    linkOf.set(a * n + b, e);
    dag.link(nodes[a]!, nodes[b]!, e);
  }

  // Frames kept contiguous in every layer: the median decrossing, then a stable sort by frame.
  const twoLayer = decrossTwoLayer().order(twolayerAgg().aggregator(aggMedian)).inits([]).passes(L.passes);
  const decross = (layers: SugiNode<number, number>[][]): void => {
    twoLayer(layers);
    for (const layer of layers) {
      const rank = new Map(layer.map((s, k) => [s, k]));
      layer.sort((p, q) => frameOf(input, p) - frameOf(input, q) || rank.get(p)! - rank.get(q)!);
    }
  };
  // d3-dag lays layers out top to bottom: its x is our y and its y our x.
  const { width, height } = sugiyama()
    .layering(layeringLongestPath())
    .decross(decross)
    .coord(layeredGraphSize(input) <= L.greedyMaxSize ? coordGreedy() : coordCenter())
    .nodeSize([L.nodeH, L.nodeW])
    .gap([L.rowGap, L.layerGap])(dag);

  const x = new Float64Array(n);
  const y = new Float64Array(n);
  const w = new Float64Array(n).fill(L.nodeW);
  const h = new Float64Array(n).fill(L.nodeH);
  const hidden = new Uint8Array(n);
  for (const node of dag.nodes()) {
    x[node.data] = node.y - L.nodeW / 2;
    y[node.data] = node.x - L.nodeH / 2;
  }

  // Bend points: the link's inner points; every layout edge between the same two nodes shares them.
  const inner: number[][] = new Array<number[]>(E);
  for (const link of dag.links()) {
    const pts: number[] = [];
    for (const [px, py] of link.points.slice(1, -1)) pts.push(py, px);
    inner[link.data] = pts;
  }
  const offset = new Int32Array(E + 1);
  const flat: number[] = [];
  for (let e = 0; e < E; e++) {
    const first = linkOf.get(edgeFrom[e]! * n + edgeTo[e]!);
    const pts = first === undefined ? undefined : inner[first];
    if (pts) flat.push(...pts);
    offset[e + 1] = flat.length / 2;
  }
  const edgeBends: EdgeBends = { offset, points: Float64Array.from(flat) };

  const groups = frameGroups(input, x, y, w, h, hidden, collapsed);
  return { kind: 'layered', x, y, w, h, hidden, groups, lanes: [], width: Math.max(1, height), height: Math.max(1, width), edgeBends };
}

/** One grey group per run of a frame's nodes in a layer (a column); collapsed frames' runs become
 * one box their nodes share. Mutates the boxes of collapsed nodes. */
function frameGroups(input: LayoutInput, x: Float64Array, y: Float64Array, w: Float64Array, h: Float64Array, hidden: Uint8Array, collapsed: ReadonlySet<number>): FrameGroup[] {
  const L = LAYERED;
  const columns = new Map<number, number[]>();
  for (let i = 0; i < x.length; i++) {
    const c = columns.get(x[i]!);
    if (c) c.push(i);
    else columns.set(x[i]!, [i]);
  }
  const groups: FrameGroup[] = [];
  for (const [cx, column] of columns) {
    column.sort((a, b) => y[a]! - y[b]!);
    let k = 0;
    while (k < column.length) {
      const f = input.frame[column[k]!]!;
      let j = k;
      while (j < column.length && input.frame[column[j]!] === f) j++;
      const top = y[column[k]!]!;
      const bottom = y[column[j - 1]!]! + L.nodeH;
      const isCollapsed = collapsed.has(f);
      if (isCollapsed) {
        for (let m = k; m < j; m++) {
          const v = column[m]!;
          y[v] = top;
          h[v] = bottom - top;
          hidden[v] = 1;
        }
      }
      groups.push({ frame: f, x: cx - L.framePad, y: top - L.framePad, w: w[column[k]!]! + 2 * L.framePad, h: bottom - top + 2 * L.framePad, collapsed: isCollapsed });
      k = j;
    }
  }
  return groups;
}
