/**
 * The protocol a graph's page was recorded over, as the emulator names protocols: the main document's
 * response protocol as Chromium reported it (graph `protocol`: http/1.1, h2, h3). Undefined when the graph does
 * not say (legacy graphs, traces of Chromium before ~110). A page whose subresources came over other protocols
 * (a third-party host on h2 beside an HTTP/1.1 site) is emulated with one protocol all the same.
 */
import type { Graph } from '@pcp/graph-builder';
import type { Protocol } from './config.ts';

const BY_ALPN: Record<string, Protocol> = { 'http/1.0': 'h1.0', 'http/1.1': 'h1', h2: 'h2', h3: 'quic-lite' };

export function recordedProtocol(graph: Pick<Graph, 'nodes' | 'root'>): Protocol | undefined {
  const doc = graph.nodes.find((x) => x.id === graph.root);
  const alpn = doc?.kind === 'resource' ? doc.protocol?.toLowerCase() : undefined;
  if (alpn === undefined) return undefined;
  return BY_ALPN[alpn] ?? (alpn.startsWith('h3') ? 'quic-lite' : undefined);
}
