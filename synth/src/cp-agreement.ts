/**
 * The critical paths of two graphs compared: the round trip's headline figure (the Jaccard of the
 * resource URLs on both paths, Algorithm 1 on each graph's own durations) and two secondary figures
 * that say how much of its gap is durations rather than structure (synth/README.md, session 11):
 * - structural: the rebuilt graph's edges with the source's durations for the nodes both graphs have
 *   (by content key), its own for the rest: what the builder answers for, the replay's timing aside;
 * - near-critical at a tolerance X: a resource on one path only agrees when its branch on the other side
 *   (the longest path through it there) is within X of that side's path length.
 * Pure.
 */
import { buildDag, criticalPath, jaccard, nodeWeights, type Graph, type GraphNode } from '@pcp/graph-builder';
import { stripFragment } from './graph-index.ts';
import type { KeyedEdge } from './compare.ts';

/**
 * The graph as recorded: the nodes normalisation disabled (post-load timers, graph-builder's normalise.ts)
 * enabled again, so that Algorithm 1 runs on the whole load on both sides. `criticalPath` leaves disabled
 * nodes out, and with them every node only they lead to; the legacy graphs disable nothing (their paths run
 * through post-load timers), and the trace builder's own critical path is on this scope too (`analysisScope`
 * 'recorded'). www.aliexpress.com: the load handler's timer 0, disabled in the rebuilt graph, leads to the
 * criteo frame and its 4.6 s ad, the source's path.
 */
export function asRecorded(g: Graph): Graph {
  return g.nodes.some((n) => n.disabled) ? { ...g, nodes: g.nodes.map((n) => (n.disabled ? { ...n, disabled: false } : n)) } : g;
}

/**
 * A comparison's two graphs as recorded (`asRecorded`), the rebuilt one with its upgrades aligned: made once
 * a comparison (compare.ts' matchGraphs) for the critical-path figures, their misses (cp-misses.ts) and the
 * duration gaps (duration-gaps.ts).
 */
export interface RecordedGraphs {
  source: Graph;
  built: Graph;
}

export const recordedGraphs = (source: Graph, built: Graph): RecordedGraphs => ({ source: asRecorded(source), built: asRecorded(built) });

/** A node's duration (Algorithm 1's cost). */
export const span = (n: GraphNode): number => Math.max(0, n.end - n.start);

/** The resource URLs on the graph's critical path, in path order. */
export function cpUrls(g: Graph): string[] {
  const byId = new Map(g.nodes.map((n) => [n.id, n]));
  return criticalPath(g).nodes.flatMap((id) => {
    const n = byId.get(id);
    return n?.kind === 'resource' ? [stripFragment(n.url)] : [];
  });
}

export interface PathLengths {
  /** The longest path from a source node to the node, itself excluded. */
  before(id: string): number;
  /** The longest path from the node to a leaf, itself included (its Algorithm 1 weight). */
  after(id: string): number;
}

/** Algorithm 1's lengths through each node of `g`. */
export function pathLengths(g: Graph): PathLengths {
  const dag = buildDag(g);
  const w = nodeWeights(dag);
  const to = new Float64Array(dag.nodes.length);
  for (const i of dag.order) for (const c of dag.children[i]!) to[c] = Math.max(to[c]!, to[i]! + span(dag.nodes[i]!));
  const at = (id: string, a: Float64Array): number => {
    const i = dag.index.get(id);
    return i === undefined ? 0 : a[i]!;
  };
  return { before: (id) => at(id, to), after: (id) => at(id, w) };
}

/**
 * `built` with the durations of `source`: the nodes of a content key both graphs have last, together,
 * what the source's nodes of that key last (shared in proportion to their own spans, or all on the first
 * when they last nothing); the others keep theirs. Starts are kept (Algorithm 1 reads only durations).
 */
export function withDurationsOf(built: Graph, builtKeys: Map<string, string>, source: Graph, sourceKeys: Map<string, string>): Graph {
  const total = (g: Graph, keys: Map<string, string>): Map<string, number> => {
    const out = new Map<string, number>();
    for (const n of g.nodes) {
      const k = keys.get(n.id);
      if (k !== undefined) out.set(k, (out.get(k) ?? 0) + span(n));
    }
    return out;
  };
  const want = total(source, sourceKeys);
  const have = total(built, builtKeys);
  const firstOf = new Map<string, string>();
  for (const n of built.nodes) {
    const k = builtKeys.get(n.id);
    if (k !== undefined && !firstOf.has(k)) firstOf.set(k, n.id);
  }
  const nodes = built.nodes.map((n): GraphNode => {
    const k = builtKeys.get(n.id);
    const w = k === undefined ? undefined : want.get(k);
    if (k === undefined || w === undefined) return n;
    const h = have.get(k)!;
    const d = h > 0 ? (span(n) * w) / h : firstOf.get(k) === n.id ? w : 0;
    return { ...n, end: n.start + d };
  });
  return { ...built, nodes };
}

/** Per URL, the longest path through any of its resource nodes. */
function throughByUrl(g: Graph): Map<string, number> {
  const len = pathLengths(g);
  const out = new Map<string, number>();
  for (const n of g.nodes) {
    if (n.kind !== 'resource') continue;
    const u = stripFragment(n.url);
    out.set(u, Math.max(out.get(u) ?? 0, len.before(n.id) + len.after(n.id)));
  }
  return out;
}

/**
 * The Jaccard of the two paths' resource URLs where a URL on one path only still agrees when its
 * branch on the other side is within `tolerance` (a share, 0.05 = 5%) of that side's path length:
 * (shared + near) / union. At tolerance 0 only an exact tie counts beside the shared ones.
 */
export function nearCriticalJaccard(source: Graph, built: Graph, tolerance: number): number {
  const a = new Set(cpUrls(source));
  const b = new Set(cpUrls(built));
  const union = new Set([...a, ...b]);
  if (!union.size) return 1;
  type Side = { through: Map<string, number>; length: number };
  let sides: [Side, Side] | undefined;
  const side = (g: Graph): Side => ({ through: throughByUrl(g), length: criticalPath(g).length });
  const near = (u: string, other: Side): boolean => (other.through.get(u) ?? -1) >= other.length * (1 - tolerance);
  let agree = 0;
  for (const u of union) {
    if (a.has(u) && b.has(u)) agree++;
    else {
      sides ??= [side(source), side(built)];
      if (near(u, a.has(u) ? sides[1] : sides[0])) agree++;
    }
  }
  return agree / union.size;
}

/** Tolerances the round trip prints the near-critical figure at. */
export const NEAR_TOLERANCES = [0.02, 0.05, 0.1] as const;

export interface CriticalPathFigures {
  /** The headline: Jaccard of the resource URLs on the two critical paths. */
  jaccard: number;
  /** Secondary: the same with the rebuilt graph's edges and the source's durations (`withDurationsOf`). */
  structural: number;
  /** Secondary: `nearCriticalJaccard` at each of `NEAR_TOLERANCES` (keys `2%`, `5%`, `10%`). */
  near: Record<string, number>;
  /**
   * The edges of the source's critical path (between nodes of different content keys, a computation's
   * parts as one) that the rebuilt graph does not have: where the structure breaks the source's path.
   */
  sourcePathEdgesMissing: KeyedEdge[];
}

/**
 * The keyed edges along the source's critical path that `builtEdges` (keys `from -> to`) lacks, with the
 * source's rules; `endLacking` when an end is none of `builtKeys` (a node the rebuilt graph does not have).
 */
export function pathEdgesMissing(source: Graph, sourceKeys: Map<string, string>, sourceEdges: Map<string, KeyedEdge>, builtEdges: Map<string, KeyedEdge>,
  builtKeys: Set<string>): KeyedEdge[] {
  const keys = criticalPath(source).nodes.flatMap((id) => {
    const k = sourceKeys.get(id);
    return k === undefined ? [] : [k];
  });
  const out: KeyedEdge[] = [];
  for (let i = 1; i < keys.length; i++) {
    const k = `${keys[i - 1]} -> ${keys[i]}`;
    const e = sourceEdges.get(k);
    if (keys[i - 1] !== keys[i] && e && !builtEdges.has(k)) out.push(builtKeys.has(e.from) && builtKeys.has(e.to) ? e : { ...e, endLacking: true });
  }
  return out;
}

/** The three figures for a source graph and a rebuilt one as recorded, given both graphs' content keys and keyed edges (compare.ts). */
export function criticalPathFigures({ source, built }: RecordedGraphs, sourceKeys: Map<string, string>, builtKeys: Map<string, string>,
  edges: { source: Map<string, KeyedEdge>; built: Map<string, KeyedEdge> }): CriticalPathFigures {
  const s = cpUrls(source);
  return {
    jaccard: jaccard(s, cpUrls(built)),
    structural: jaccard(s, cpUrls(withDurationsOf(built, builtKeys, source, sourceKeys))),
    near: Object.fromEntries(NEAR_TOLERANCES.map((t) => [`${Math.round(t * 100)}%`, nearCriticalJaccard(source, built, t)])),
    sourcePathEdgesMissing: pathEdgesMissing(source, sourceKeys, edges.source, edges.built, new Set(builtKeys.values())),
  };
}
