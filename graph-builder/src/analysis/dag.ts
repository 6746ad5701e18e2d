import type { Graph, GraphNode } from '../format/types.ts';

/** Adjacency of the enabled part of a graph (disabled nodes, and edges touching them, are left out). */
export interface Dag {
  nodes: GraphNode[];
  index: Map<string, number>;
  children: number[][];
  parents: number[][];
  /** Indices in topological order (parents before children). */
  order: number[];
}

export class CycleError extends Error {
  constructor(public readonly cycle: string[]) {
    super(`dependency cycle: ${cycle.join(' -> ')}`);
  }
}

export function buildDag(graph: Graph): Dag {
  const nodes = graph.nodes.filter((n) => !n.disabled);
  const index = new Map(nodes.map((n, i) => [n.id, i]));
  const children: number[][] = nodes.map(() => []);
  const parents: number[][] = nodes.map(() => []);
  for (const e of graph.edges) {
    const f = index.get(e.from);
    const t = index.get(e.to);
    if (f === undefined || t === undefined || f === t) continue;
    children[f]!.push(t);
    parents[t]!.push(f);
  }
  const indeg = parents.map((p) => p.length);
  const order: number[] = [];
  const ready = indeg.flatMap((d, i) => (d === 0 ? [i] : []));
  while (ready.length) {
    const i = ready.pop()!;
    order.push(i);
    for (const c of children[i]!) if (--indeg[c]! === 0) ready.push(c);
  }
  if (order.length !== nodes.length) throw new CycleError(findCycle(nodes, children, indeg));
  return { nodes, index, children, parents, order };
}

/** A cycle among the nodes Kahn's algorithm could not order, for the error message. */
function findCycle(nodes: GraphNode[], children: number[][], indeg: number[]): string[] {
  const start = indeg.findIndex((d) => d > 0);
  const seen = new Map<number, number>();
  const path: number[] = [];
  let cur = start;
  while (!seen.has(cur)) {
    seen.set(cur, path.length);
    path.push(cur);
    cur = children[cur]!.find((c) => indeg[c]! > 0)!;
  }
  return [...path.slice(seen.get(cur)!), cur].map((i) => nodes[i]!.id);
}

export const duration = (n: GraphNode): number => Math.max(0, n.end - n.start);
