/** Test helper: small v1 graphs written by hand, node by node. */
import type { Edge, Graph, GraphNode } from '@pcp/graph-builder';

type Omit2<T, K extends keyof never> = T extends unknown ? Omit<T, K> : never;
export type NodeSpec = Omit2<GraphNode, 'frame' | 'start' | 'end'> & { frame?: string; start?: number; end?: number };

const PRIO = { mimeType: 1, criticalPath: 1 };

/** A resource node's fields beyond id, URL and MIME type. */
export function res(id: string, url: string, mimeType: string, size: number, more: Partial<Extract<GraphNode, { kind: 'resource' }>> = {}): NodeSpec {
  return { id, kind: 'resource', url, mimeType, size, method: 'GET', status: 200, cached: false, priority: PRIO, onCriticalPath: false, ...more };
}

/** A graph of `nodes` (frame 'main' unless said, times 0 unless said) and [from, to, rule] edges. */
export function graphOf(pageUrl: string, nodes: NodeSpec[], edges: [string, string, number | string][], frames: Graph['frames'] = [{ id: 'main', url: pageUrl, parent: null }]): Graph {
  const all = [...nodes, { id: 'dcl', kind: 'marker', markerName: 'domContentLoaded' } as NodeSpec, { id: 'load', kind: 'marker', markerName: 'load' } as NodeSpec];
  return {
    schemaVersion: 1,
    page: { url: pageUrl },
    frames,
    nodes: all.map((n) => ({ frame: 'main', start: 0, end: 0, ...n }) as GraphNode),
    edges: edges.map(([from, to, rule]): Edge => ({ from, to, rule })),
    markers: { domContentLoaded: 'dcl', load: 'load' },
    root: nodes[0]?.id,
    provenance: { source: 'synthetic', tool: 'test', toolVersion: '0' },
  };
}
