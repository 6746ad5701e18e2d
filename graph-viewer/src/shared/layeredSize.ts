/**
 * The layered layout's sizes and where it stops being offered, apart from the layout itself so the
 * page can decide without bundling the layout library (which only the worker needs). Its cost grows
 * with the layered graph's size: nodes plus one dummy node per layer an edge crosses, computed here
 * in O(V + E) from the longest-path layers the layout uses.
 */
export const LAYERED = {
  nodeW: 28,
  nodeH: 10,
  /** Space between layers (x: room for a short label right of a box) and between neighbours in a layer (y). */
  layerGap: 56,
  rowGap: 6,
  framePad: 3,
  /** Decrossing sweeps (d3-dag's default is 24, with slower greedy swaps). */
  passes: 4,
  /** Greedy coordinates up to this layered-graph size; centred layers above (greedy dominates the cost). */
  greedyMaxSize: 3000,
  /** Above this layered-graph size (nodes + dummy nodes) the worker is not asked and the time axis is
   * the only layout: where the layout's CPU time passes LAYOUT_BUDGET_MS (bench/layeredSize.ts). */
  maxSize: 10000,
} as const;

/** Layer of every node = length of the longest path reaching it. Cycle members go one past the last layer. */
export function longestPathLayers(n: number, from: Int32Array, to: Int32Array): Int32Array {
  const indeg = new Int32Array(n);
  const head = new Int32Array(n).fill(-1);
  const next = new Int32Array(from.length);
  for (let e = 0; e < from.length; e++) {
    indeg[to[e]!]!++;
    next[e] = head[from[e]!]!;
    head[from[e]!] = e;
  }
  const layer = new Int32Array(n);
  const queue = new Int32Array(n);
  let qh = 0;
  let qt = 0;
  for (let i = 0; i < n; i++) if (indeg[i] === 0) queue[qt++] = i;
  while (qh < qt) {
    const v = queue[qh++]!;
    for (let e = head[v]!; e !== -1; e = next[e]!) {
      const u = to[e]!;
      if (layer[v]! + 1 > layer[u]!) layer[u] = layer[v]! + 1;
      if (--indeg[u]! === 0) queue[qt++] = u;
    }
  }
  if (qt < n) {
    let max = 0;
    for (let i = 0; i < n; i++) max = Math.max(max, layer[i]!);
    for (let i = 0; i < n; i++) if (indeg[i]! > 0) layer[i] = max + 1;
  }
  return layer;
}

/** Nodes plus dummy nodes of the layered graph: what the layered layout's cost follows. */
export function layeredGraphSize(input: { kinds: unknown[]; edgeFrom: Int32Array; edgeTo: Int32Array }): number {
  const n = input.kinds.length;
  const layer = longestPathLayers(n, input.edgeFrom, input.edgeTo);
  let size = n;
  for (let e = 0; e < input.edgeFrom.length; e++) {
    const span = layer[input.edgeTo[e]!]! - layer[input.edgeFrom[e]!]!;
    if (span > 1) size += span - 1;
  }
  return size;
}
