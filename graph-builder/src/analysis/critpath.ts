/**
 * Critical path (thesis §3.5.3.2): the longest path through the graph by total node duration.
 * Node weights follow Algorithm 1: a node's weight is its own duration plus the largest weight among
 * its children, i.e. the length of the longest path from the node to a leaf.
 */
import type { Graph, GraphNode } from '../format/types.ts';
import { buildDag, duration, type Dag } from './dag.ts';

/** Algorithm 1 over any per-node cost (durations for `cp`, unit resource costs for `depth`). */
export function nodeWeights(dag: Dag, cost: (n: GraphNode) => number = duration): Float64Array {
  const w = new Float64Array(dag.nodes.length);
  for (let k = dag.order.length - 1; k >= 0; k--) {
    const i = dag.order[k]!;
    let best = 0;
    for (const c of dag.children[i]!) if (w[c]! > best) best = w[c]!;
    w[i] = cost(dag.nodes[i]!) + best;
  }
  return w;
}

export interface CriticalPathStep {
  id: string;
  kind: GraphNode['kind'];
  /** ms */
  duration: number;
  /** Length of the rest of the path from this node, itself included (ms): its Algorithm 1 weight. */
  remaining: number;
}

export interface CriticalPathResult {
  nodes: string[];
  length: number;
  steps: CriticalPathStep[];
}

/**
 * Starts at the graph's root (the first download of the main document) when it has one, else at the
 * heaviest source, and follows the heaviest child; ties go to the child listed first.
 */
export function criticalPath(graph: Graph, dag: Dag = buildDag(graph)): CriticalPathResult {
  const w = nodeWeights(dag);
  let cur = graph.root !== undefined ? dag.index.get(graph.root) : undefined;
  if (cur === undefined || dag.parents[cur]!.length > 0) {
    let best = -1;
    for (let i = 0; i < dag.nodes.length; i++) {
      if (dag.parents[i]!.length === 0 && (best < 0 || w[i]! > w[best]!)) best = i;
    }
    cur = best >= 0 ? best : undefined;
  }
  const steps: CriticalPathStep[] = [];
  while (cur !== undefined) {
    const n = dag.nodes[cur]!;
    steps.push({ id: n.id, kind: n.kind, duration: duration(n), remaining: w[cur]! });
    let next: number | undefined;
    for (const c of dag.children[cur]!) if (next === undefined || w[c]! > w[next]!) next = c;
    cur = next;
  }
  return { nodes: steps.map((s) => s.id), length: steps[0]?.remaining ?? 0, steps };
}
