/**
 * The compact, index-based graph the layouts work on (cheap to post to a Web Worker) and the
 * geometry they return. Node i of the input is node i of the layout.
 */
import type { Graph, NodeKind } from '@pcp/graph-builder';

export interface LayoutInput {
  kinds: NodeKind[];
  /** Index into `frames` per node. */
  frame: Int32Array;
  start: Float64Array;
  end: Float64Array;
  /** Edge i goes from node edgeFrom[i] to node edgeTo[i]. */
  edgeFrom: Int32Array;
  edgeTo: Int32Array;
  /** Index in graph.edges of layout edge i (edges naming unknown nodes are left out). */
  edgeSource: Int32Array;
  /** Frames in display order (the frame tree, depth first, main frame first). */
  frames: { id: string; url: string; depth: number }[];
}

/** A frame drawn as a grey group (in the layered layout a frame gives one group per layer run). */
export interface FrameGroup {
  frame: number;
  x: number;
  y: number;
  w: number;
  h: number;
  collapsed: boolean;
}

export interface LaneLabel {
  label: string;
  y: number;
  h: number;
}

export interface Layout {
  kind: 'time' | 'layered';
  x: Float64Array;
  y: Float64Array;
  w: Float64Array;
  h: Float64Array;
  /** 1 when the node sits in a collapsed frame: it is not drawn and its box is the frame's. */
  hidden: Uint8Array;
  groups: FrameGroup[];
  lanes: LaneLabel[];
  width: number;
  height: number;
  /** Bend points of routed edges (layered layout); edges without them are straight. */
  edgeBends?: EdgeBends;
  /** Layout scale for the time axis: px per ms (time layout only). */
  pxPerMs?: number;
  axis?: TimeAxis;
}

/** Bend points of layout edge e: points[2 * offset[e] .. 2 * offset[e + 1]) as x, y pairs, in order
 * from the source to the target (offset has one entry per layout edge, plus one). */
export interface EdgeBends {
  offset: Int32Array;
  points: Float64Array;
}

/** A rectangle in layout coordinates (a viewport, a bounding box). */
export interface Rect {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** The time layout's x axis: linear up to breakT, then a compressed tail. */
export interface TimeAxis {
  origin: number;
  breakT: number;
  pxPerMs: number;
  tailPxPerMs: number;
}

/** Orders frames as a tree walk (parents before children, siblings by first activity). */
export function frameOrder(graph: Graph): { id: string; url: string; depth: number }[] {
  const first = new Map<string, number>();
  for (const n of graph.nodes) first.set(n.frame, Math.min(first.get(n.frame) ?? Infinity, n.start));
  const known = new Set(graph.frames.map((f) => f.id));
  const children = new Map<string | null, { id: string; url: string }[]>();
  for (const f of graph.frames) {
    const p = f.parent !== null && known.has(f.parent) ? f.parent : null;
    const list = children.get(p) ?? [];
    list.push({ id: f.id, url: f.url });
    children.set(p, list);
  }
  // Nodes may name frames the frame list lacks; give them a group of their own rather than lose them.
  for (const id of first.keys()) {
    if (!known.has(id)) {
      const list = children.get(null) ?? [];
      list.push({ id, url: '' });
      children.set(null, list);
      known.add(id);
    }
  }
  const out: { id: string; url: string; depth: number }[] = [];
  const seen = new Set<string>();
  const walk = (parent: string | null, depth: number): void => {
    const list = (children.get(parent) ?? []).slice().sort((a, b) => (first.get(a.id) ?? Infinity) - (first.get(b.id) ?? Infinity));
    for (const f of list) {
      if (seen.has(f.id)) continue;
      seen.add(f.id);
      out.push({ ...f, depth });
      walk(f.id, depth + 1);
    }
  };
  walk(null, 0);
  return out;
}

/** Builds the compact layout input of a graph; `index` maps node ids to positions. */
export function toLayoutInput(graph: Graph): { input: LayoutInput; index: Map<string, number> } {
  const frames = frameOrder(graph);
  const frameIndex = new Map(frames.map((f, i) => [f.id, i]));
  const n = graph.nodes.length;
  const index = new Map<string, number>();
  const input: LayoutInput = {
    kinds: new Array<NodeKind>(n),
    frame: new Int32Array(n),
    start: new Float64Array(n),
    end: new Float64Array(n),
    edgeFrom: new Int32Array(0),
    edgeTo: new Int32Array(0),
    edgeSource: new Int32Array(0),
    frames,
  };
  graph.nodes.forEach((node, i) => {
    index.set(node.id, i);
    input.kinds[i] = node.kind;
    input.frame[i] = frameIndex.get(node.frame) ?? 0;
    input.start[i] = node.start;
    input.end[i] = Math.max(node.start, node.end);
  });
  const from: number[] = [];
  const to: number[] = [];
  const source: number[] = [];
  graph.edges.forEach((e, k) => {
    const a = index.get(e.from);
    const b = index.get(e.to);
    if (a === undefined || b === undefined || a === b) return;
    from.push(a);
    to.push(b);
    source.push(k);
  });
  input.edgeSource = Int32Array.from(source);
  input.edgeFrom = Int32Array.from(from);
  input.edgeTo = Int32Array.from(to);
  return { input, index };
}
