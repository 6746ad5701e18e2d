/** The one-line facts the graph list shows for each graph. */
import type { Graph } from '@pcp/graph-builder';

export interface GraphSummary {
  url: string;
  nodes: number;
  edges: number;
  resources: number;
  /** Sum of resource body sizes, bytes. */
  bytes: number;
  /** The main frame's load event time, ms (null when the graph has no such marker). */
  loadTime: number | null;
  domContentLoadedTime: number | null;
  criticalPathLength: number | null;
  criticalPathNodes: number | null;
}

export function markerTime(graph: Graph, id: string | undefined): number | null {
  if (!id) return null;
  const node = graph.nodes.find((n) => n.id === id);
  return node ? node.start : null;
}

export function summarise(graph: Graph): GraphSummary {
  let resources = 0;
  let bytes = 0;
  for (const n of graph.nodes) {
    if (n.kind === 'resource') {
      resources++;
      bytes += n.size;
    }
  }
  return {
    url: graph.page.url,
    nodes: graph.nodes.length,
    edges: graph.edges.length,
    resources,
    bytes,
    loadTime: markerTime(graph, graph.markers.load),
    domContentLoadedTime: markerTime(graph, graph.markers.domContentLoaded),
    criticalPathLength: graph.criticalPath ? graph.criticalPath.length : null,
    criticalPathNodes: graph.criticalPath ? graph.criticalPath.nodes.length : null,
  };
}
