/**
 * Resource priorities (thesis §3.5.3). Priority 1 is the most important, as in the original builder.
 *
 * - criticalPath: Algorithm 2 — walk forward from the root with a max-heap keyed by Algorithm 1 weights
 *   (node durations); each resource popped gets the next priority.
 * - depth: the same walk with node-depth weights (every resource costs 1, other nodes 0), the variant the
 *   thesis mentions.
 * - mimeType: HTML > CSS > JavaScript > images > other (§3.5.3.1); within a class, earlier requests first.
 */
import type { Graph, GraphNode, ResourceNode } from '../format/types.ts';
import { nodeWeights, criticalPath } from './critpath.ts';
import { buildDag, type Dag } from './dag.ts';
import { BinaryHeap } from './heap.ts';

export type MimeClass = 'html' | 'css' | 'javascript' | 'image' | 'other';

export function mimeClass(mimeType: string): MimeClass {
  const m = mimeType.toLowerCase();
  if (m.includes('html')) return 'html';
  if (m.includes('css')) return 'css';
  if (m.includes('javascript') || m.includes('ecmascript') || m === 'text/js' || m.endsWith('/x-js')) return 'javascript';
  if (m.startsWith('image/')) return 'image';
  return 'other';
}

const CLASS_RANK: Record<MimeClass, number> = { html: 0, css: 1, javascript: 2, image: 3, other: 4 };

/**
 * Algorithm 2: resources in the order a max-heap walk from the sources pops them. Resources the walk
 * cannot reach (no path from a source, which a well-formed graph does not have) follow by weight.
 */
export function heapWalkOrder(dag: Dag, weights: ArrayLike<number>, start: number[]): number[] {
  // Heaviest first, ties by the lower index (graph order) for determinism.
  const heap = new BinaryHeap<number>((i, j) => weights[i]! > weights[j]! || (weights[i] === weights[j] && i < j));
  const visited = new Uint8Array(dag.nodes.length);
  for (const s of start) {
    visited[s] = 1;
    heap.push(s);
  }
  const order: number[] = [];
  while (heap.size) {
    const i = heap.pop()!;
    if (dag.nodes[i]!.kind === 'resource') order.push(i);
    for (const c of dag.children[i]!) {
      if (!visited[c]) {
        visited[c] = 1;
        heap.push(c);
      }
    }
  }
  return order;
}

function sources(graph: Graph, dag: Dag): number[] {
  const root = graph.root !== undefined ? dag.index.get(graph.root) : undefined;
  const all = dag.nodes.flatMap((_, i) => (dag.parents[i]!.length === 0 ? [i] : []));
  return root !== undefined && dag.parents[root]!.length === 0 ? [root, ...all.filter((i) => i !== root)] : all;
}

/** 1-based priorities of resources from an order of resource indices. */
function ranks(order: number[]): Map<number, number> {
  return new Map(order.map((i, k) => [i, k + 1]));
}

export interface PriorityResult {
  criticalPath: Map<string, number>;
  depth: Map<string, number>;
  mimeType: Map<string, number>;
  onCriticalPath: Set<string>;
}

export function computePriorities(graph: Graph, dag: Dag = buildDag(graph)): PriorityResult {
  const src = sources(graph, dag);
  const cpOrder = heapWalkOrder(dag, nodeWeights(dag), src);
  const depthOrder = heapWalkOrder(dag, nodeWeights(dag, (n) => (n.kind === 'resource' ? 1 : 0)), src);
  const resources = dag.nodes.flatMap((n, i) => (n.kind === 'resource' ? [i] : []));
  const mimeOrder = [...resources].sort((a, b) => {
    const ra = CLASS_RANK[mimeClass((dag.nodes[a] as ResourceNode).mimeType)];
    const rb = CLASS_RANK[mimeClass((dag.nodes[b] as ResourceNode).mimeType)];
    return ra - rb || dag.nodes[a]!.start - dag.nodes[b]!.start || a - b;
  });
  const toIds = (m: Map<number, number>) => new Map([...m].map(([i, p]) => [dag.nodes[i]!.id, p]));
  // Unreached resources (possible only in malformed graphs) go last, by weight order of appearance.
  const complete = (order: number[]) => [...order, ...resources.filter((i) => !order.includes(i))];
  return {
    criticalPath: toIds(ranks(complete(cpOrder))),
    depth: toIds(ranks(complete(depthOrder))),
    mimeType: toIds(ranks(mimeOrder)),
    onCriticalPath: new Set(criticalPath(graph, dag).nodes),
  };
}

/**
 * Writes priorities, onCriticalPath and the critical path into the graph (in place) and returns it.
 * Disabled resources keep priority 0 (they are not part of the load).
 */
export function assignPriorities(graph: Graph): Graph {
  const dag = buildDag(graph);
  const p = computePriorities(graph, dag);
  const cp = criticalPath(graph, dag);
  for (const n of graph.nodes as GraphNode[]) {
    if (n.kind !== 'resource') continue;
    n.priority = {
      ...n.priority,
      mimeType: p.mimeType.get(n.id) ?? 0,
      criticalPath: p.criticalPath.get(n.id) ?? 0,
      depth: p.depth.get(n.id) ?? 0,
    };
    n.onCriticalPath = p.onCriticalPath.has(n.id);
  }
  graph.criticalPath = { nodes: cp.nodes, length: cp.length };
  return graph;
}
