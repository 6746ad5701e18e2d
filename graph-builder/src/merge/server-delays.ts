/**
 * Merging server processing delays (the `server_delays` Python package's records, thesis §3.4.1)
 * into a v1 graph: resource nodes get `serverDelay` (ms) and `serverDelayEstimated`.
 *
 * Records are matched to resource nodes by url and, for a url requested several times, by occurrence:
 * the i-th record of a url (in record order) goes to the i-th resource node of that url in request
 * order (node `start`). A record whose method differs from its node is still used, since the url is
 * what both sides agree on. A delay longer than the node's recorded exchange allows (Chrome traces: from the
 * request on the socket to the response at the renderer, `recordedWindow`) cannot be the server's: an estimate
 * drawn from a distribution (a TLS capture without keys) is the usual case, e.g. 229 ms for a script whose
 * whole exchange took 15. It is clamped to that window and marked estimated. Pure: the input graph is not
 * modified.
 */
import { recordedExchangeTimes } from '../format/exchange.ts';
import type { Graph, GraphNode, ResourceNode } from '../format/types.ts';

/** One record of `pcp delays --format json` (fields beyond these are ignored). */
export interface ServerDelayRecord {
  method: string;
  host: string;
  url: string;
  size: number;
  /** ms; null when neither measured nor estimable. */
  delayMs: number | null;
  mimeType: string;
  extType: string;
  tls: boolean;
  cached: boolean;
  estimated: boolean;
}

export interface MergeResult {
  graph: Graph;
  /** Resource nodes that received a delay. */
  matched: number;
  /** Records with no resource node left for them (their url does not occur, or occurs fewer times). */
  unmatched: ServerDelayRecord[];
  /** Delays longer than their node's recorded exchange, clamped to it. */
  clamped: number;
}

/**
 * The most a resource's server can have taken, ms: from its request on the socket to its response headers read
 * at the network service (`recordedExchangeTimes`: a subresource's `browserDelay.wait` where recorded, else to
 * the renderer's response; a document's from its navigation's request to the headers its commit followed).
 * Undefined when the node does not record its request side (legacy graphs).
 */
export function recordedWindow(graph: Pick<Graph, 'root' | 'navigation'>, n: ResourceNode): number | undefined {
  if (n.browserDelay?.request === undefined) return undefined;
  const { requestOnSocket, firstByte } = recordedExchangeTimes(graph, n);
  if (requestOnSocket === undefined || firstByte === undefined) return undefined;
  return Math.max(0, firstByte - requestOnSocket);
}

/** Urls compare without their fragment: the browser never sends it. */
function urlKey(url: string): string {
  const hash = url.indexOf('#');
  return hash < 0 ? url : url.slice(0, hash);
}

export function mergeServerDelays(graph: Graph, records: readonly ServerDelayRecord[]): MergeResult {
  const queues = new Map<string, ServerDelayRecord[]>();
  for (const r of records) {
    if (r.delayMs === null || !Number.isFinite(r.delayMs)) continue;
    const k = urlKey(r.url);
    const q = queues.get(k);
    if (q) q.push(r);
    else queues.set(k, [r]);
  }
  const resources = graph.nodes
    .map((n, i) => ({ n, i }))
    .filter((x): x is { n: ResourceNode; i: number } => x.n.kind === 'resource')
    .sort((a, b) => a.n.start - b.n.start || a.i - b.i);
  const updated = new Map<number, GraphNode>();
  let clamped = 0;
  for (const { n, i } of resources) {
    const r = queues.get(urlKey(n.url))?.shift();
    if (!r || r.delayMs === null) continue;
    const window = recordedWindow(graph, n);
    if (window !== undefined && r.delayMs > window) {
      clamped++;
      updated.set(i, { ...n, serverDelay: Math.round(window * 1000) / 1000, serverDelayEstimated: true });
    } else updated.set(i, { ...n, serverDelay: r.delayMs, serverDelayEstimated: r.estimated });
  }
  const unmatched = records.filter((r) => r.delayMs === null || !Number.isFinite(r.delayMs));
  for (const q of queues.values()) unmatched.push(...q);
  const nodes = graph.nodes.map((n, i) => updated.get(i) ?? n);
  return { graph: { ...graph, nodes }, matched: updated.size, unmatched, clamped };
}

/**
 * The records of a `pcp delays --format json` file: `{records: [...]}` or a bare array. Throws an
 * Error naming the first bad record, so a caller can report it on one line.
 */
export function parseServerDelays(json: unknown): ServerDelayRecord[] {
  const list = Array.isArray(json) ? json : (json as { records?: unknown } | null)?.records;
  if (!Array.isArray(list)) throw new Error('not a server delays file (expected {records: [...]} or an array)');
  return list.map((r: unknown, i) => {
    const o = r as Partial<ServerDelayRecord> | null;
    if (!o || typeof o.url !== 'string' || !(o.delayMs === null || typeof o.delayMs === 'number')) {
      throw new Error(`server delay record ${i} lacks a url or a numeric/null delayMs`);
    }
    return {
      method: String(o.method ?? 'GET'), host: String(o.host ?? ''), url: o.url, size: Number(o.size ?? 0),
      delayMs: o.delayMs ?? null, mimeType: String(o.mimeType ?? ''), extType: String(o.extType ?? 'other'),
      tls: Boolean(o.tls), cached: Boolean(o.cached), estimated: Boolean(o.estimated),
    };
  });
}
