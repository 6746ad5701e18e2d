/**
 * The one builder of hand-made v1 graphs for tests (`@pcp/graph-builder/testing`): tiny pages whose
 * figures can be derived on paper. Nodes start at 0 and computations last `ms` (all the emulator reads);
 * `span(start, end)` places the last node in time where a test is about recorded times (critical paths).
 *   new PageBuilder().resource('doc', 'http://a.com/', 5000).parse('p0', 2).span(100, 102).edge('doc', 'p0').build()
 */
import { SCHEMA_VERSION, type Edge, type Graph, type GraphNode, type ResourceNode } from '../format/types.ts';

export class PageBuilder {
  private nodes: GraphNode[] = [];
  private edges: Edge[] = [];
  private frames: Graph['frames'] = [{ id: 'main', url: 'http://a.com/', parent: null }];
  private rootId: string | undefined;

  frame(id: string, parent: string, url = `http://a.com/${id}`): this {
    this.frames.push({ id, url, parent });
    return this;
  }

  resource(
    id: string,
    url: string,
    size: number,
    o: { serverDelay?: number; serverDelayEstimated?: boolean; mimeType?: string; frame?: string; prio?: number; method?: string; browserPriority?: string; requestType?: string; documentOfFrame?: string; browserDelay?: ResourceNode['browserDelay'] } = {},
  ): this {
    const node: ResourceNode = {
      id,
      kind: 'resource',
      frame: o.frame ?? 'main',
      start: 0,
      end: 0,
      url,
      mimeType: o.mimeType ?? 'image/png',
      size,
      method: o.method ?? 'GET',
      status: 200,
      cached: false,
      priority: { mimeType: o.prio ?? 0, criticalPath: o.prio ?? 0 },
      onCriticalPath: false,
    };
    if (o.serverDelay !== undefined) node.serverDelay = o.serverDelay;
    if (o.serverDelayEstimated !== undefined) node.serverDelayEstimated = o.serverDelayEstimated;
    if (o.browserPriority !== undefined) node.browserPriority = o.browserPriority;
    if (o.requestType !== undefined) node.requestType = o.requestType;
    if (o.documentOfFrame !== undefined) node.documentOfFrame = o.documentOfFrame;
    if (o.browserDelay !== undefined) node.browserDelay = o.browserDelay;
    this.nodes.push(node);
    return this;
  }

  chunk(id: string, resource: string, offset: number, size: number, frame = 'main'): this {
    this.nodes.push({ id, kind: 'download_chunk', frame, start: 0, end: 0, resource, index: 0, offset, size });
    return this;
  }

  /** A parse chunk; `tags` [startTag, endTag] say where it is (head or body) to the resource scheduler. */
  parse(id: string, ms: number, frame = 'main', tags?: [string, string]): this {
    this.nodes.push({
      id, kind: 'parse_chunk', frame, start: 0, end: ms, docUrl: 'http://a.com/', startLine: 1, startColumn: 0, endLine: 1, endColumn: 0,
      ...(tags ? { startTag: tags[0], endTag: tags[1] } : {}),
    });
    return this;
  }

  script(id: string, ms: number, scriptKind: 'sync' | 'async' | 'inline' = 'sync', frame = 'main'): this {
    this.nodes.push({ id, kind: 'script_eval', frame, start: 0, end: ms, scriptUrl: 'http://a.com/s.js', scriptKind });
    return this;
  }

  timer(id: string, ms: number, delay: number, frame = 'main', timerId = id): this {
    this.nodes.push({ id, kind: 'timer', frame, start: 0, end: ms, timerId, timerDelay: delay });
    return this;
  }

  event(id: string, ms: number, frame = 'main'): this {
    this.nodes.push({ id, kind: 'event', frame, start: 0, end: ms, eventName: 'load', eventTarget: 'window' });
    return this;
  }

  marker(id: string, markerName: string): this {
    this.nodes.push({ id, kind: 'marker', frame: 'main', start: 0, end: 0, markerName });
    return this;
  }

  /** Sets the recorded times of the node added last. */
  span(start: number, end: number): this {
    const last = this.nodes.at(-1);
    if (!last) throw new Error('span() before any node');
    last.start = start;
    last.end = end;
    return this;
  }

  /** The graph's root: the main document's first download. */
  root(id: string): this {
    this.rootId = id;
    return this;
  }

  edge(from: string, to: string, rule: number | string = 'test'): this {
    this.edges.push({ from, to, rule });
    return this;
  }

  /** Markers 'dcl' and 'load' must have been added (they are created if absent, after everything else). */
  build(): Graph {
    for (const m of ['dcl', 'load']) if (!this.nodes.some((n) => n.id === m)) this.marker(m, m === 'dcl' ? 'domContentLoaded' : 'load');
    return {
      schemaVersion: SCHEMA_VERSION,
      page: { url: 'http://a.com/' },
      frames: this.frames,
      nodes: this.nodes,
      edges: this.edges,
      markers: { domContentLoaded: 'dcl', load: 'load' },
      ...(this.rootId !== undefined ? { root: this.rootId } : {}),
      provenance: { source: 'synthetic', tool: 'page-builder', toolVersion: '0' },
    };
  }
}
