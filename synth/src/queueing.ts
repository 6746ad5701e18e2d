/**
 * How long each request of a graph waited in the browser for a connection: Chromium opens at most
 * six HTTP/1.1 connections per host and queues the other requests, and a recorded resource's span
 * (request issued to last byte) includes that wait. A site that held every response for its whole
 * span would add the wait again (the request reaches it only when a connection frees up), so the
 * synthesizer holds a response for its span less the wait. The wait is found by replaying the
 * recorded schedule (each http request from its start, a connection busy until its response's
 * recorded end) through Chromium's two queues:
 * - the network service's ResourceScheduler starts a request of High priority or more at once; a
 *   delayable one (below High: net::LOW and less) only while its host has fewer than six requests in
 *   flight (every priority counted, those waiting for a socket too) and the page fewer than ten
 *   delayable ones in flight over all hosts; held ones start highest priority first, first come
 *   first served within one priority;
 * - the socket pool (net's ClientSocketPool) gives a freed connection of the host to the started
 *   request of the highest priority, the earliest of them on a tie.
 * Requests made at once go in the order given. https hosts are served over HTTP/2 (one connection,
 * no queue): no wait. `replay-priority.ts` gives each request the priority the replayed page's will
 * have. Pure.
 */
import type { ResourceNode } from '@pcp/graph-builder';

/** Chromium's limit of HTTP/1.1 connections per host (net::ClientSocketPoolManager, normal socket pool). */
export const CONNECTIONS_PER_HOST = 6;
/** The ResourceScheduler's limit of delayable requests in flight per page, all hosts (kDefaultMaxNumDelayableRequestsPerClient). */
export const DELAYABLE_IN_FLIGHT = 10;

/** Chromium's request priorities by the trace's names (`browserPriority`), in net::RequestPriority's order: higher goes first. */
export const PRIORITY = { VeryLow: 0, Low: 1, Medium: 2, High: 3, VeryHigh: 4 } as const;

/** A request's priority on PRIORITY's scale. */
export type PriorityOf = (r: ResourceNode) => number;

interface Queued {
  r: ResourceNode;
  host: string;
  priority: number;
  /** Arrival order (by start, ties in the order given). */
  order: number;
}

/** ms each resource (by node id) waited for a connection in the recorded load; absent when none. */
export function connectionWaits(resources: readonly ResourceNode[], priorityOf: PriorityOf = () => PRIORITY.High, perHost = CONNECTIONS_PER_HOST, delayableLimit = DELAYABLE_IN_FLIGHT): Map<string, number> {
  const arrivals: Queued[] = [];
  for (const r of resources) {
    if (r.cached || !r.url.startsWith('http:')) continue;
    let host: string;
    try {
      host = new URL(r.url).host;
    } catch {
      continue;
    }
    arrivals.push({ r, host, priority: priorityOf(r), order: 0 });
  }
  arrivals.sort((a, b) => a.r.start - b.r.start); // stable: ties in the order given (the page's)
  arrivals.forEach((q, i) => (q.order = i));
  const waits = new Map<string, number>();
  for (const [q, on] of schedule(arrivals, perHost, delayableLimit)) {
    if (on > q.r.start) waits.set(q.r.id, Math.min(on, q.r.end) - q.r.start);
  }
  return waits;
}

const delayable = (q: Queued): boolean => q.priority < PRIORITY.High;
/** The first to go of `list`: the highest priority, then the earliest. */
const firstToGo = (list: readonly Queued[]): number => list.reduce((best, q, i) => (q.priority > list[best]!.priority || (q.priority === list[best]!.priority && q.order < list[best]!.order) ? i : best), 0);

/** When each request (by start) went on a connection, through the scheduler and the hosts' socket pools. */
function schedule(arrivals: readonly Queued[], perHost: number, delayableLimit: number): [Queued, number][] {
  const sent: [Queued, number][] = [];
  const held: Queued[] = []; // ResourceScheduler
  const pools = new Map<string, { waiting: Queued[]; busy: number[] }>(); // busy: when each open connection frees up
  const inFlight: { q: Queued; until: number }[] = []; // started by the scheduler, until their response ends
  const pool = (host: string) => pools.get(host) ?? pools.set(host, { waiting: [], busy: [] }).get(host)!;
  let next = 0;
  let now = -Infinity;
  while (next < arrivals.length || held.length || [...pools.values()].some((p) => p.waiting.length)) {
    // The next moment something can change: a request comes or a response ends.
    const ends = inFlight.filter((f) => f.until >= now).map((f) => f.until); // >=: a response that ended as it began frees its connection now
    now = Math.max(now, Math.min(arrivals[next]?.r.start ?? Infinity, ...ends));
    for (let i = inFlight.length - 1; i >= 0; i--) if (inFlight[i]!.until <= now) inFlight.splice(i, 1);
    for (const p of pools.values()) p.busy = p.busy.filter((t) => t > now);
    while (next < arrivals.length && arrivals[next]!.r.start <= now) held.push(arrivals[next++]!);
    // The scheduler starts what it may, highest priority first (a delayable one over the page's limit stops it).
    let started = true;
    while (started) {
      started = false;
      for (const q of [...held].sort((a, b) => b.priority - a.priority || a.order - b.order)) {
        if (delayable(q)) {
          if (inFlight.filter((f) => delayable(f.q)).length >= delayableLimit) break;
          if (inFlight.filter((f) => f.q.host === q.host).length >= perHost) continue;
        }
        held.splice(held.indexOf(q), 1);
        inFlight.push({ q, until: Infinity }); // until its response ends, set when it gets a connection
        pool(q.host).waiting.push(q);
        started = true;
        break;
      }
    }
    // Each host's free connections go to its started requests, highest priority first.
    for (const p of pools.values()) {
      while (p.busy.length < perHost && p.waiting.length) {
        const q = p.waiting.splice(firstToGo(p.waiting), 1)[0]!;
        const until = Math.max(q.r.end, now);
        p.busy.push(until);
        inFlight.find((f) => f.q === q)!.until = until;
        sent.push([q, now]);
      }
    }
  }
  return sent;
}
