/**
 * Shared state of one rule-engine run: the v1 nodes and edges being produced, and the lookups the rule
 * families need (which node stands for a model activity, which part of a split computation was running
 * at a given time).
 */
import type { Activities, ComputationActivity, DocumentActivity, ResourceActivity } from '../model/types.ts';
import type { Edge, EdgeRule, GraphNode, ParseChunkNode } from '../format/types.ts';

export interface DocChunks {
  doc: DocumentActivity;
  /** Parse chunk nodes in order, and for each token the index of the chunk holding it. */
  chunks: ParseChunkNode[];
  chunkOfToken: Int32Array;
  downloadChunks: string[];
}

export class RuleContext {
  readonly nodes: GraphNode[] = [];
  readonly edges: Edge[] = [];
  readonly warnings: string[];
  private readonly edgeKeys = new Set<string>();
  readonly nodeById = new Map<string, GraphNode>();
  readonly resources = new Map<string, ResourceActivity>();
  readonly computations = new Map<string, ComputationActivity>();
  readonly docChunks = new Map<string, DocChunks>();
  /** Kept computations: id -> the ids of their parts in time order (one id when not split). */
  markers = { domContentLoaded: '', load: '' };
  readonly parts = new Map<string, { ids: string[]; bounds: number[] }>();

  constructor(
    readonly acts: Activities,
    warnings: string[],
  ) {
    this.warnings = warnings;
    for (const r of acts.resources) this.resources.set(r.id, r);
    for (const c of acts.computations) this.computations.set(c.id, c);
  }

  addNode(n: GraphNode): void {
    this.nodes.push(n);
    this.nodeById.set(n.id, n);
  }

  edge(from: string | undefined, to: string | undefined, rule: EdgeRule): void {
    if (from === undefined || to === undefined || from === to) return;
    const key = `${from}\u0000${to}`;
    if (this.edgeKeys.has(key)) return;
    this.edgeKeys.add(key);
    this.edges.push({ from, to, rule });
  }

  /** The node that was running computation `id` at time `at` (its first part for at = -Infinity). */
  compNodeAt(id: string, at: number): string | undefined {
    const p = this.parts.get(id);
    if (!p) return undefined;
    let k = 0;
    while (k < p.bounds.length && p.bounds[k]! < at) k++;
    return p.ids[k];
  }
  private readonly claims = new Map<string, number>();
  /**
   * Like compNodeAt, for a child issued at `at`: children sharing one instant take the successive
   * zero-length parts cut for them, in the order they claim (the order the cuts were made in).
   */
  claimNodeAt(id: string, at: number): string | undefined {
    const p = this.parts.get(id);
    if (!p) return undefined;
    let k = 0;
    while (k < p.bounds.length && p.bounds[k]! < at) k++;
    if (k < p.bounds.length && p.bounds[k] === at) {
      const key = `${id}\u0000${at}`;
      const n = this.claims.get(key) ?? 0;
      this.claims.set(key, n + 1);
      let same = 0;
      while (k + same < p.bounds.length && p.bounds[k + same] === at) same++;
      k += Math.min(n, same - 1);
    }
    return p.ids[k];
  }
  compFirst(id: string): string | undefined {
    return this.parts.get(id)?.ids[0];
  }
  compLast(id: string): string | undefined {
    const p = this.parts.get(id);
    return p?.ids[p.ids.length - 1];
  }

  /** The parse chunk holding token `token` of document `doc`. */
  chunkOfToken(doc: string, token: number): string | undefined {
    const d = this.docChunks.get(doc);
    if (!d) return undefined;
    return d.chunks[d.chunkOfToken[token] ?? -1]?.id;
  }
}
