/**
 * A fluent builder of small v1 graphs for tests across packages: nodes get sensible defaults so a test
 * states only what it is about.  g = tinyGraph().resource('r0', 0, 100).parse('p0', 100, 110).edge('r0', 'p0', 3).build()
 */
import type { Edge, EdgeRule, Graph, GraphNode, ResourceNode } from '../format/types.ts';
import { SCHEMA_VERSION } from '../format/types.ts';

export class TinyGraph {
  private readonly nodes: GraphNode[] = [];
  private readonly edges: Edge[] = [];
  private root?: string;

  resource(id: string, start: number, end: number, more: Partial<ResourceNode> = {}): this {
    this.nodes.push({
      id,
      kind: 'resource',
      frame: '0',
      start,
      end,
      url: `http://a.test/${id}`,
      mimeType: 'image/png',
      size: 1000,
      method: 'GET',
      status: 200,
      cached: false,
      priority: { mimeType: 0, criticalPath: 0 },
      onCriticalPath: false,
      ...more,
    });
    this.root ??= id;
    return this;
  }

  parse(id: string, start: number, end: number): this {
    this.nodes.push({ id, kind: 'parse_chunk', frame: '0', start, end, docUrl: 'http://a.test/', startLine: 1, startColumn: 1, endLine: 1, endColumn: 1 });
    return this;
  }

  script(id: string, start: number, end: number, scriptUrl = 'http://a.test/a.js'): this {
    this.nodes.push({ id, kind: 'script_eval', frame: '0', start, end, scriptUrl, scriptKind: 'sync' });
    return this;
  }

  marker(id: string, name: string, at: number): this {
    this.nodes.push({ id, kind: 'marker', frame: '0', start: at, end: at, markerName: name });
    return this;
  }

  edge(from: string, to: string, rule: EdgeRule = 'test'): this {
    this.edges.push({ from, to, rule });
    return this;
  }

  build(): Graph {
    const ids = this.nodes.map((n) => n.id);
    return {
      schemaVersion: SCHEMA_VERSION,
      page: { url: 'http://a.test/' },
      frames: [{ id: '0', url: 'http://a.test/', parent: null }],
      nodes: this.nodes,
      edges: this.edges,
      markers: { domContentLoaded: ids.find((i) => i.startsWith('dcl')) ?? ids[0]!, load: ids.find((i) => i.startsWith('load')) ?? ids[ids.length - 1]! },
      ...(this.root ? { root: this.root } : {}),
      provenance: { source: 'synthetic', tool: 'tiny-graph', toolVersion: '0' },
    };
  }
}

export const tinyGraph = () => new TinyGraph();
