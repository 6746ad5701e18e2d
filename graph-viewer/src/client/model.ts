/**
 * Everything the views derive once from a graph: the compact layout input, adjacency for
 * ancestor/descendant queries, the critical path as indices, and the values filters offer.
 */
import type { Edge, Graph, GraphNode, NodeKind } from '@pcp/graph-builder';
import { hostOf } from '../shared/escape.ts';
import { toLayoutInput, type LayoutInput } from '../shared/layoutTypes.ts';
import { nodeLabel, nodeUrl } from '../shared/nodeText.ts';

export interface Filters {
  text: string;
  kinds: Set<NodeKind>;
  host: string;
  mime: string;
  critical: 'all' | 'on' | 'off';
}

export class GraphModel {
  readonly input: LayoutInput;
  readonly index: Map<string, number>;
  readonly nodes: readonly GraphNode[];
  /** Per node: incoming / outgoing edges (indices into graph.edges). */
  readonly inEdges: number[][];
  readonly outEdges: number[][];
  readonly critical: number[];
  readonly criticalSet: Set<number>;
  readonly hosts: string[];
  readonly mimes: string[];
  /** Resource index of a download chunk (for its host/MIME), else itself. */
  private readonly owner: Int32Array;
  private readonly searchText: string[];

  constructor(readonly graph: Graph) {
    const { input, index } = toLayoutInput(graph);
    this.input = input;
    this.index = index;
    this.nodes = graph.nodes;
    const n = graph.nodes.length;
    this.inEdges = Array.from({ length: n }, () => []);
    this.outEdges = Array.from({ length: n }, () => []);
    graph.edges.forEach((e, k) => {
      const a = index.get(e.from);
      const b = index.get(e.to);
      if (a === undefined || b === undefined) return;
      this.outEdges[a]!.push(k);
      this.inEdges[b]!.push(k);
    });
    this.critical = (graph.criticalPath?.nodes ?? []).map((id) => index.get(id)).filter((i): i is number => i !== undefined);
    this.criticalSet = new Set(this.critical);
    this.owner = new Int32Array(n);
    const hosts = new Set<string>();
    const mimes = new Set<string>();
    graph.nodes.forEach((node, i) => {
      this.owner[i] = node.kind === 'download_chunk' ? (index.get(node.resource) ?? i) : i;
      if (node.kind === 'resource') {
        hosts.add(hostOf(node.url));
        mimes.add(node.mimeType);
      }
    });
    this.hosts = [...hosts].filter(Boolean).sort();
    this.mimes = [...mimes].filter(Boolean).sort();
    this.searchText = graph.nodes.map((node) => `${node.id} ${nodeLabel(node)} ${nodeUrl(node)}`.toLowerCase());
  }

  edge(k: number): Edge {
    return this.graph.edges[k]!;
  }

  /** All nodes reachable backwards (ancestors) or forwards (descendants) from i, i excluded. */
  reach(i: number, dir: 'ancestors' | 'descendants'): Set<number> {
    const out = new Set<number>();
    const stack = [i];
    while (stack.length) {
      const v = stack.pop()!;
      const list = dir === 'ancestors' ? this.inEdges[v]! : this.outEdges[v]!;
      for (const k of list) {
        const e = this.graph.edges[k]!;
        const u = this.index.get(dir === 'ancestors' ? e.from : e.to)!;
        if (!out.has(u) && u !== i) {
          out.add(u);
          stack.push(u);
        }
      }
    }
    return out;
  }

  /** Mask of nodes matching the filters, or null when nothing filters. */
  match(f: Filters): Uint8Array | null {
    const text = f.text.trim().toLowerCase();
    const allKinds = f.kinds.size === 0;
    if (!text && allKinds && !f.host && !f.mime && f.critical === 'all') return null;
    const n = this.nodes.length;
    const mask = new Uint8Array(n);
    for (let i = 0; i < n; i++) {
      const node = this.nodes[i]!;
      if (!allKinds && !f.kinds.has(node.kind)) continue;
      if (text && !this.searchText[i]!.includes(text)) continue;
      if (f.critical === 'on' && !this.criticalSet.has(i)) continue;
      if (f.critical === 'off' && this.criticalSet.has(i)) continue;
      if (f.host || f.mime) {
        const r = this.nodes[this.owner[i]!]!;
        if (r.kind !== 'resource') continue;
        if (f.host && hostOf(r.url) !== f.host) continue;
        if (f.mime && r.mimeType !== f.mime) continue;
      }
      mask[i] = 1;
    }
    return mask;
  }
}
