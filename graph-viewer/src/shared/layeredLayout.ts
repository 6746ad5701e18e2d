/**
 * Layered DAG layout (Sugiyama-style, kept deliberately small): longest-path layering from the sources,
 * then barycentre ordering sweeps (down using predecessors, up using successors). Nodes of one frame
 * stay contiguous inside a layer (ordering key: frame first, barycentre second) so frames read as grey
 * groups. No dummy nodes for long edges: that keeps it O(sweeps * (V + E) log V), which is what lets
 * it run on corpus-sized graphs in a worker where general engines take tens of seconds.
 * Collapsed frames: their nodes are laid out as usual, then hidden behind one box per layer run.
 */
import type { FrameGroup, Layout, LayoutInput } from './layoutTypes.ts';

export const LAYERED = {
  layerStep: 40,
  nodeW: 28,
  nodeH: 10,
  rowStep: 14,
  framePad: 3,
  sweeps: 4,
  /** Long chains (parse chunk after parse chunk) make layered graphs very wide and flat; past this
   * width/height ratio the layers are wrapped into bands stacked vertically, like lines of text. */
  maxAspect: 3,
  bandGap: 40,
  /** Above this the worker is not asked and the time-axis layout is the one offered. Measured in node:
   * 64 ms at 20,000 synthetic nodes, so the bound is about memory and readability, not time. */
  maxNodes: 50000,
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

export function layeredLayout(input: LayoutInput, collapsed: ReadonlySet<number> = new Set()): Layout {
  const L = LAYERED;
  const n = input.kinds.length;
  const { edgeFrom, edgeTo } = input;
  const layer = longestPathLayers(n, edgeFrom, edgeTo);
  let layerCount = 0;
  for (let i = 0; i < n; i++) layerCount = Math.max(layerCount, layer[i]! + 1);

  // Adjacency (CSR) for predecessors and successors.
  const csr = (src: Int32Array, dst: Int32Array): { off: Int32Array; adj: Int32Array } => {
    const off = new Int32Array(n + 1);
    for (let e = 0; e < src.length; e++) off[src[e]! + 1]!++;
    for (let i = 0; i < n; i++) off[i + 1]! += off[i]!;
    const fill = off.slice(0, n);
    const adj = new Int32Array(src.length);
    for (let e = 0; e < src.length; e++) adj[fill[src[e]!]!++] = dst[e]!;
    return { off, adj };
  };
  const succ = csr(edgeFrom, edgeTo);
  const pred = csr(edgeTo, edgeFrom);

  const layers: number[][] = Array.from({ length: layerCount }, () => []);
  for (let i = 0; i < n; i++) layers[layer[i]!]!.push(i);
  // Start from recorded order: frame, then start time.
  for (const l of layers) l.sort((a, b) => input.frame[a]! - input.frame[b]! || input.start[a]! - input.start[b]! || a - b);

  // Positions normalised to [0, 1] within their layer, so neighbours in layers of different sizes compare.
  const pos = new Float64Array(n);
  const place = (l: number[]): void => {
    const d = Math.max(1, l.length - 1);
    l.forEach((v, k) => (pos[v] = k / d));
  };
  layers.forEach(place);
  const bary = new Float64Array(n);
  const sweep = (adjacency: { off: Int32Array; adj: Int32Array }, order: number[]): void => {
    for (const li of order) {
      const l = layers[li]!;
      for (const v of l) {
        const a = adjacency.off[v]!;
        const b = adjacency.off[v + 1]!;
        if (a === b) {
          bary[v] = pos[v]!;
          continue;
        }
        let s = 0;
        for (let k = a; k < b; k++) s += pos[adjacency.adj[k]!]!;
        bary[v] = s / (b - a);
      }
      l.sort((p, q) => input.frame[p]! - input.frame[q]! || bary[p]! - bary[q]! || p - q);
      place(l);
    }
  };
  const down = layers.map((_, i) => i);
  const up = down.slice().reverse();
  for (let s = 0; s < L.sweeps; s++) sweep(s % 2 === 0 ? pred : succ, s % 2 === 0 ? down : up);

  const x = new Float64Array(n);
  const y = new Float64Array(n);
  const w = new Float64Array(n).fill(L.nodeW);
  const h = new Float64Array(n).fill(L.nodeH);
  const hidden = new Uint8Array(n);
  const groups: FrameGroup[] = [];
  let height = 0;
  layers.forEach((l, li) => {
    const lx = li * L.layerStep;
    let row = 0;
    let k = 0;
    while (k < l.length) {
      // One run of nodes of the same frame.
      const f = input.frame[l[k]!]!;
      let j = k;
      while (j < l.length && input.frame[l[j]!] === f) j++;
      const isCollapsed = collapsed.has(f);
      const top = row * L.rowStep;
      if (isCollapsed) {
        for (let m = k; m < j; m++) {
          const v = l[m]!;
          x[v] = lx;
          y[v] = top;
          hidden[v] = 1;
        }
        row += 1;
      } else {
        for (let m = k; m < j; m++) {
          const v = l[m]!;
          x[v] = lx;
          y[v] = row * L.rowStep;
          row++;
        }
      }
      const bottom = (row - 1) * L.rowStep + L.nodeH;
      groups.push({ frame: f, x: lx - L.framePad, y: top - L.framePad, w: L.nodeW + 2 * L.framePad, h: bottom - top + 2 * L.framePad, collapsed: isCollapsed });
      row += 1; // a gap row between frames
      k = j;
    }
    height = Math.max(height, row * L.rowStep);
  });
  // Wrap into bands when the layout is much wider than tall.
  const width = Math.max(1, layerCount * L.layerStep);
  let bands = 1;
  if (width > L.maxAspect * height) bands = Math.max(1, Math.round(Math.sqrt(width / (1.6 * Math.max(height, 1)))));
  if (bands > 1) {
    const perBand = Math.ceil(layerCount / bands);
    const bandH = height + L.bandGap;
    const shift = (li: number): [number, number] => {
      const b = Math.floor(li / perBand);
      return [-b * perBand * L.layerStep, b * bandH];
    };
    for (let i = 0; i < n; i++) {
      const [dx, dy] = shift(layer[i]!);
      x[i]! += dx;
      y[i]! += dy;
    }
    for (const g of groups) {
      const [dx, dy] = shift(Math.round((g.x + L.framePad) / L.layerStep));
      g.x += dx;
      g.y += dy;
    }
    return { kind: 'layered', x, y, w, h, hidden, groups, lanes: [], width: perBand * L.layerStep, height: bands * bandH - L.bandGap };
  }
  return { kind: 'layered', x, y, w, h, hidden, groups, lanes: [], width, height: Math.max(1, height) };

}
