/**
 * A graph as rows of the corpus tables `pages`, `nodes`, `edges`, `resources` (the Parquet tables of a
 * release and the input of `pcp corpus stats`). Pure. Column names are snake_case so SQL needs no quoting;
 * times are ms since navigation start, as in the graph.
 *
 * Critical-path composition follows WProf and the thesis' chapter 4: the time the path (the builder's
 * `criticalPath`) spends in each activity kind, network (resources and download chunks) against
 * computation (parsing, script, style, timers, events).
 */
import { criticalPath, mimeClass, NODE_KINDS, type Graph, type GraphNode, type NodeKind } from '@pcp/graph-builder';

export const NETWORK_KINDS: readonly NodeKind[] = ['resource', 'download_chunk'];
export const COMPUTATION_KINDS: readonly NodeKind[] = ['parse_chunk', 'script_eval', 'css_eval', 'timer', 'event'];

export type CpKindColumns = { [K in NodeKind as `cp_${K}_ms`]: number };

export interface PageRow extends CpKindColumns {
  page_id: string;
  url: string;
  source: string;
  browser_version: string | null;
  nodes: number;
  edges: number;
  resources: number;
  frames: number;
  origins: number;
  bytes: number;
  load_ms: number | null;
  dcl_ms: number | null;
  cp_length_ms: number;
  cp_nodes: number;
  cp_network_ms: number;
  cp_computation_ms: number;
  cp_resources: number;
  cp_resource_share: number | null;
}

export interface NodeRow {
  page_id: string;
  node_id: string;
  kind: NodeKind;
  frame: string;
  start_ms: number;
  end_ms: number;
  duration_ms: number;
  phase: string | null;
  disabled: boolean;
  on_critical_path: boolean;
  /** What the node is about: a resource's or script's url, an event's target.name, a marker's name... */
  label: string;
}

export interface EdgeRow {
  page_id: string;
  from_node: string;
  to_node: string;
  rule: string;
}

export interface ResourceRow {
  page_id: string;
  node_id: string;
  url: string;
  origin: string;
  mime_type: string;
  mime_class: string;
  size: number;
  method: string;
  status: number;
  cached: boolean;
  start_ms: number;
  end_ms: number;
  response_start_ms: number | null;
  server_delay_ms: number | null;
  server_delay_estimated: boolean | null;
  priority_mime_type: number;
  priority_critical_path: number;
  request_type: string | null;
  browser_priority: string | null;
  on_critical_path: boolean;
}

export interface PageTables {
  page: PageRow;
  nodes: NodeRow[];
  edges: EdgeRow[];
  resources: ResourceRow[];
}

export const TABLE_NAMES = ['pages', 'nodes', 'edges', 'resources'] as const;
export type TableName = (typeof TABLE_NAMES)[number];

function originOf(url: string): string {
  try {
    const o = new URL(url).origin;
    return o === 'null' ? url.split(':', 1)[0]! : o;
  } catch {
    return '';
  }
}

function labelOf(n: GraphNode): string {
  switch (n.kind) {
    case 'resource': return n.url;
    case 'download_chunk': return `${n.resource}#${n.index}`;
    case 'parse_chunk': return `${n.docUrl}:${n.startLine}`;
    case 'script_eval': return n.scriptUrl;
    case 'css_eval': return n.styleUrl;
    case 'timer': return `timer ${n.timerId}`;
    case 'event': return `${n.eventTarget}.${n.eventName}`;
    case 'marker': return n.markerName;
  }
}

const duration = (n: GraphNode): number => Math.max(0, n.end - n.start);

export function pageTables(pageId: string, graph: Graph): PageTables {
  const cp = criticalPath(graph);
  const onPath = new Set(cp.nodes);
  const byId = new Map(graph.nodes.map((n) => [n.id, n]));
  const cpKind = Object.fromEntries(NODE_KINDS.map((k) => [`cp_${k}_ms`, 0])) as CpKindColumns;
  for (const step of cp.steps) cpKind[`cp_${step.kind}_ms`] += step.duration;
  // A resource is on the path when its node or one of its download chunks is.
  const cpResources = new Set<string>();
  for (const id of cp.nodes) {
    const n = byId.get(id);
    if (n?.kind === 'resource') cpResources.add(n.id);
    else if (n?.kind === 'download_chunk') cpResources.add(n.resource);
  }
  const nodes: NodeRow[] = [];
  const resources: ResourceRow[] = [];
  const origins = new Set<string>();
  let bytes = 0;
  for (const n of graph.nodes) {
    nodes.push({
      page_id: pageId, node_id: n.id, kind: n.kind, frame: n.frame, start_ms: n.start, end_ms: n.end, duration_ms: duration(n),
      phase: n.phase ?? null, disabled: n.disabled === true, on_critical_path: onPath.has(n.id), label: labelOf(n),
    });
    if (n.kind !== 'resource') continue;
    const origin = originOf(n.url);
    if (origin) origins.add(origin);
    bytes += n.size;
    resources.push({
      page_id: pageId, node_id: n.id, url: n.url, origin, mime_type: n.mimeType, mime_class: mimeClass(n.mimeType), size: n.size,
      method: n.method, status: n.status, cached: n.cached, start_ms: n.start, end_ms: n.end, response_start_ms: n.responseStart ?? null,
      server_delay_ms: n.serverDelay ?? null, server_delay_estimated: n.serverDelay === undefined ? null : n.serverDelayEstimated === true,
      priority_mime_type: n.priority.mimeType, priority_critical_path: n.priority.criticalPath,
      request_type: n.requestType ?? null, browser_priority: n.browserPriority ?? null, on_critical_path: cpResources.has(n.id),
    });
  }
  const markerStart = (id: string | undefined): number | null => (id !== undefined ? (byId.get(id)?.start ?? null) : null);
  const sum = (kinds: readonly NodeKind[]): number => kinds.reduce((s, k) => s + cpKind[`cp_${k}_ms`], 0);
  const page: PageRow = {
    page_id: pageId, url: graph.page.url, source: graph.provenance.source, browser_version: graph.provenance.browserVersion ?? null,
    nodes: graph.nodes.length, edges: graph.edges.length, resources: resources.length, frames: graph.frames.length, origins: origins.size, bytes,
    load_ms: markerStart(graph.markers.load), dcl_ms: markerStart(graph.markers.domContentLoaded),
    cp_length_ms: cp.length, cp_nodes: cp.nodes.length, cp_network_ms: sum(NETWORK_KINDS), cp_computation_ms: sum(COMPUTATION_KINDS),
    cp_resources: cpResources.size, cp_resource_share: resources.length ? cpResources.size / resources.length : null,
    ...cpKind,
  };
  const edges = graph.edges.map((e) => ({ page_id: pageId, from_node: e.from, to_node: e.to, rule: String(e.rule) }));
  return { page, nodes, edges, resources };
}
