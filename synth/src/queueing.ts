/**
 * How long each request of a graph waited in the browser for a connection: Chromium opens at most
 * six HTTP/1.1 connections per host and queues the other requests, and a recorded resource's span
 * (request issued to last byte) includes that wait. A site that held every response for its whole
 * span would add the wait again (the request reaches it only when a connection frees up), so the
 * synthesizer holds a response for its span less the wait. The wait is found by replaying the
 * recorded schedule on six connections per http host: a request takes the connection that frees up
 * first (requests made at once in the order given), and a connection is busy until its response's
 * recorded end. https hosts are served over
 * HTTP/2 (one connection, no queue): no wait. Pure.
 */
import type { ResourceNode } from '@pcp/graph-builder';

/** Chromium's limit of HTTP/1.1 connections per host (net::ClientSocketPoolManager, normal socket pool). */
export const CONNECTIONS_PER_HOST = 6;

/** ms each resource (by node id) waited for a connection in the recorded load; absent when none. */
export function connectionWaits(resources: readonly ResourceNode[], perHost = CONNECTIONS_PER_HOST): Map<string, number> {
  const byHost = new Map<string, ResourceNode[]>();
  for (const r of resources) {
    if (r.cached || !r.url.startsWith('http:')) continue;
    let host: string;
    try {
      host = new URL(r.url).host;
    } catch {
      continue;
    }
    (byHost.get(host) ?? byHost.set(host, []).get(host)!).push(r);
  }
  const waits = new Map<string, number>();
  for (const list of byHost.values()) {
    const freeAt: number[] = [];
    for (const r of [...list].sort((a, b) => a.start - b.start)) { // ties in the order given (the page's)
      if (freeAt.length < perHost) {
        freeAt.push(r.end);
        continue;
      }
      const k = freeAt.indexOf(Math.min(...freeAt));
      const sent = Math.max(r.start, freeAt[k]!);
      if (sent > r.start) waits.set(r.id, Math.min(sent, r.end) - r.start);
      freeAt[k] = Math.max(r.end, sent);
    }
  }
  return waits;
}
