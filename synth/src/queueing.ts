/**
 * How long each request of a graph waited in the browser for a connection: Chromium opens at most
 * six HTTP/1.1 connections per host and queues the other requests, and a recorded resource's span
 * (request issued to last byte) includes that wait. A site that held every response for its whole
 * span would add the wait again (the request reaches it only when a connection frees up), so the
 * synthesizer holds a response for its span less the wait. The wait is found by replaying the
 * recorded schedule on six connections per http host, a connection busy until its response's
 * recorded end, in Chromium's order: when a connection frees up it goes to the waiting request of the
 * highest priority, the earliest of them on a tie (requests made at once in the order given). The
 * socket pool (net's ClientSocketPool) keeps its waiting requests in priority order, first in first
 * out within one priority, and the network service's ResourceScheduler holds a delayable request
 * (below net::MEDIUM) while its host has six requests in flight, queued ones counted, and starts the
 * held ones highest priority first: one queue per host in priority order either way
 * (`replay-priority.ts` gives each request the priority the replayed page's will have). https hosts
 * are served over HTTP/2 (one connection, no queue): no wait. Pure.
 */
import type { ResourceNode } from '@pcp/graph-builder';

/** Chromium's limit of HTTP/1.1 connections per host (net::ClientSocketPoolManager, normal socket pool). */
export const CONNECTIONS_PER_HOST = 6;

/** A request's priority: higher goes first (net::RequestPriority's order). */
export type PriorityOf = (r: ResourceNode) => number;

/** ms each resource (by node id) waited for a connection in the recorded load; absent when none. */
export function connectionWaits(resources: readonly ResourceNode[], priorityOf: PriorityOf = () => 0, perHost = CONNECTIONS_PER_HOST): Map<string, number> {
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
    for (const [r, sent] of hostQueue([...list].sort((a, b) => a.start - b.start), priorityOf, perHost)) { // ties in the order given (the page's)
      if (sent > r.start) waits.set(r.id, Math.min(sent, r.end) - r.start);
    }
  }
  return waits;
}

/** When each of one host's requests (by start) went on a connection, connections taken in priority order. */
function hostQueue(byStart: readonly ResourceNode[], priorityOf: PriorityOf, perHost: number): [ResourceNode, number][] {
  const sent: [ResourceNode, number][] = [];
  const freeAt: number[] = [];
  const waiting: ResourceNode[] = [];
  let next = 0;
  while (next < byStart.length || waiting.length) {
    const k = freeAt.length < perHost ? freeAt.length : freeAt.indexOf(Math.min(...freeAt));
    // A connection is free at `at`: when one frees up, or when the next request comes if none waits.
    let at = freeAt[k] ?? -Infinity;
    if (!waiting.length) at = Math.max(at, byStart[next]!.start);
    while (next < byStart.length && byStart[next]!.start <= at) waiting.push(byStart[next++]!);
    const i = firstToGo(waiting, priorityOf);
    const r = waiting.splice(i, 1)[0]!;
    const on = Math.max(at, r.start);
    sent.push([r, on]);
    freeAt[k] = Math.max(r.end, on);
  }
  return sent;
}

/** The index of the waiting request that takes a free connection: the highest priority, then the earliest (the list is in arrival order). */
function firstToGo(waiting: readonly ResourceNode[], priorityOf: PriorityOf): number {
  let best = 0;
  for (let i = 1; i < waiting.length; i++) if (priorityOf(waiting[i]!) > priorityOf(waiting[best]!)) best = i;
  return best;
}
