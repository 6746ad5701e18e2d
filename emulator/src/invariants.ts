/**
 * Invariants every simulation must satisfy (run on every simulation in the tests):
 * - every byte of every downloaded response is delivered to the browser exactly once;
 * - no negative durations, in resource timings or node spans;
 * - load (and end) time >= the graph's critical path with zero network time (computations and timer
 *   delays only), since the network and the main thread can only add time;
 * - load time >= the bytes the load marker depends on over the bandwidth, end time >= all bytes over it
 *   (with a downlink trace: >= the time the trace's opportunities from 0 can carry those bytes; with a link
 *   schedule, its buckets and rates from 0).
 */
import type { Graph } from '@pcp/graph-builder';
import { resolveConfig, type EmulatorConfig } from './config.ts';
import { compileGraph, K_RESOURCE, K_TIMER, topoOrder, type PageModel } from './page-model.ts';
import type { SimResult } from './simulator.ts';
import { TraceServer } from './network/link-trace.ts';
import { scheduleMinTime } from './network/link-schedule.ts';

const EPS = 1e-6;

export interface LowerBounds {
  /** Longest path ending at each node with zero network time, ms. */
  pathTo: Float64Array;
  /** Unique response bytes among the load marker's ancestors (session cache counts a url once). */
  loadBytes: number;
  totalBytes: number;
}

export function lowerBounds(m: PageModel): LowerBounds {
  const order = topoOrder(m.n, m.children, m.parents);
  const pathTo = new Float64Array(m.n);
  for (const i of order) {
    let best = 0;
    const ps = m.parents[i]!;
    for (let j = 0; j < ps.length; j++) best = Math.max(best, pathTo[ps[j]!]!);
    const wait = m.kind[i] === K_TIMER && m.timerDelay[i]! > 0 ? m.timerDelay[i]! : 0;
    pathTo[i] = best + wait + m.duration[i]!;
  }
  const keys = new Map<string, number>();
  for (let i = 0; i < m.n; i++) if (m.kind[i] === K_RESOURCE) keys.set(m.res[m.resOf[i]!]!.cacheKey, m.res[m.resOf[i]!]!.bytes);
  let totalBytes = 0;
  for (const b of keys.values()) totalBytes += b;
  let loadBytes = 0;
  if (m.load >= 0) {
    const seen = new Uint8Array(m.n);
    const stack = [m.load];
    seen[m.load] = 1;
    const loadKeys = new Set<string>();
    while (stack.length) {
      const i = stack.pop()!;
      if (m.kind[i] === K_RESOURCE) {
        const info = m.res[m.resOf[i]!]!;
        if (!loadKeys.has(info.cacheKey)) {
          loadKeys.add(info.cacheKey);
          loadBytes += info.bytes;
        }
      }
      for (const p of m.parents[i]!) if (!seen[p]) {
        seen[p] = 1;
        stack.push(p);
      }
    }
  }
  return { pathTo, loadBytes, totalBytes };
}

/** Returns the violated invariants, empty when the result is consistent. */
export function checkInvariants(graph: Graph, config: EmulatorConfig, r: SimResult): string[] {
  const cfg = resolveConfig(config);
  const m = compileGraph(graph);
  const bad: string[] = [];
  const index = new Map(m.ids.map((id, i) => [id, i]));

  // Bytes: each downloaded (non-session-cache) response delivered exactly once.
  let expected = 0;
  for (const t of r.resources) {
    if (t.sessionCacheHit) continue;
    const i = index.get(t.id);
    if (i === undefined) bad.push(`resource timing for unknown node ${t.id}`);
    else expected += m.res[m.resOf[i]!]!.bytes;
  }
  if (Math.abs(r.bytesDelivered - expected) > EPS) bad.push(`bytes delivered ${r.bytesDelivered} != bytes of downloaded responses ${expected}`);
  const keys = new Set<string>();
  for (const t of r.resources) {
    if (t.sessionCacheHit) continue;
    const i = index.get(t.id)!;
    const key = m.res[m.resOf[i]!]!.cacheKey;
    if (keys.has(key)) bad.push(`url downloaded twice despite the session cache: ${t.url}`);
    keys.add(key);
  }

  for (const t of r.resources) {
    for (const f of ['queued', 'handshake', 'request', 'serverDelay', 'serverBuffer', 'transfer', 'browser'] as const) {
      if (!(t[f] >= -EPS)) bad.push(`resource ${t.id}: negative or missing ${f} (${t[f]})`);
    }
    const sum = t.queued + t.handshake + t.request + t.serverDelay + t.serverBuffer + t.transfer + t.browser;
    if (Math.abs(sum - (t.end - t.start)) > 1e-6 * Math.max(1, t.end)) bad.push(`resource ${t.id}: phases sum to ${sum}, span is ${t.end - t.start}`);
  }
  for (const nd of r.nodes) if (!(nd.end - nd.start >= -EPS) || nd.start < -EPS) bad.push(`node ${nd.id}: negative span ${nd.start}..${nd.end}`);

  const lb = lowerBounds(m);
  let maxPath = 0;
  for (let i = 0; i < m.n; i++) maxPath = Math.max(maxPath, lb.pathTo[i]!);
  if (m.load >= 0 && r.loadTime + EPS < lb.pathTo[m.load]!) bad.push(`loadTime ${r.loadTime} < zero-network critical path ${lb.pathTo[m.load]}`);
  if (r.endTime + EPS < maxPath && !r.warnings) bad.push(`endTime ${r.endTime} < zero-network critical path ${maxPath}`);
  const trace = cfg.downlinkTrace;
  const schedule = cfg.linkSchedule;
  const bw2 = cfg.path2?.bandwidthBps ?? 0;
  // A traced first path: the trace's delivery opportunities bound it; with a second path as well, or a traced
  // second path, no simple bound is taken (the two capacities do not add in closed form): that check is skipped.
  const minTime = (bytes: number): number =>
    bytes <= 0 || cfg.path2?.downlinkTrace
      ? 0
      : trace || schedule
        ? bw2 > 0 ? 0 : trace ? new TraceServer(trace).serve(0, bytes) : scheduleMinTime(schedule!, bytes)
        : (bytes * 8000) / (cfg.bandwidthBps + bw2);
  if (r.multipath && Math.abs(r.multipath.bytesArrived - r.bytesDelivered) > EPS) bad.push(`bytes arrived on subflows ${r.multipath.bytesArrived} != bytes delivered ${r.bytesDelivered}`);
  if (m.load >= 0 && r.loadTime + EPS < minTime(lb.loadBytes)) bad.push(`loadTime ${r.loadTime} < load-critical bytes over bandwidth ${minTime(lb.loadBytes)}`);
  if (r.endTime + EPS < minTime(r.bytesDelivered)) bad.push(`endTime ${r.endTime} < bytes over bandwidth ${minTime(r.bytesDelivered)}`);
  if (r.domContentLoadedTime > r.endTime + EPS || r.loadTime > r.endTime + EPS) bad.push('a completion time lies after the end of the graph');
  return bad;
}
