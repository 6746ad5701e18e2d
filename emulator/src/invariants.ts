/**
 * Invariants every simulation must satisfy (run on every simulation in the tests, emulate:check, and the
 * thesis and Goel scripts through checked-simulate.ts):
 * - every byte of every downloaded response is delivered to the browser exactly once, in total and, when the
 *   result records its streams (`simulate(..., { recordStreams: true })`), per response stream (HTTP/2 or QUIC
 *   stream, HTTP/1 response): its [offset, length] ranges cover the response once, no byte missing or
 *   repeated (a copy that came on two subflows included), in order unless the transport is QUIC-lite;
 * - every downloaded response's phases (queued .. browser) are non-negative and sum to its span, whatever the
 *   transport (TCP, QUIC-lite, MPTCP); no negative node spans;
 * - load (and end) time >= the graph's critical path with zero network time (computations and timer
 *   delays only), since the network and the main thread can only add time;
 * - load time >= the bytes the load marker depends on over the bandwidth, end time >= all bytes over it
 *   (with a downlink trace: >= the time the trace's opportunities from 0 can carry those bytes; with a link
 *   schedule, its buckets and rates from 0).
 */
import type { Graph } from '@pcp/graph-builder';
import { resolveConfig, type EmulatorConfig } from './config.ts';
import { compileGraph, K_RESOURCE, K_TIMER, topoOrder, type PageModel } from './page-model.ts';
import type { SimResult, StreamDelivery } from './simulator.ts';
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

const boundsOf = new WeakMap<PageModel, LowerBounds & { maxPath: number; index: Map<string, number> }>();

/** lowerBounds with the node index, once per compiled graph (the scripts check thousands of simulations of each). */
function modelFacts(m: PageModel): LowerBounds & { maxPath: number; index: Map<string, number> } {
  let f = boundsOf.get(m);
  if (!f) {
    const lb = lowerBounds(m);
    let maxPath = 0;
    for (let i = 0; i < m.n; i++) maxPath = Math.max(maxPath, lb.pathTo[i]!);
    f = { ...lb, maxPath, index: new Map(m.ids.map((id, i) => [id, i])) };
    boundsOf.set(m, f);
  }
  return f;
}

/**
 * One response's delivered ranges ([offset, length] pairs, flat, in delivery order) against its size: the first
 * byte missing, repeated, out of order (when `ordered`) or past the end, else null.
 */
export function streamViolation(ranges: readonly number[], bytes: number, ordered: boolean): string | null {
  if (ranges.length === 2 && ranges[0] === 0 && ranges[1] === bytes) return null; // the usual case: once, in order
  const order = Array.from({ length: ranges.length / 2 }, (_, k) => 2 * k);
  if (!ordered) order.sort((a, b) => ranges[a]! - ranges[b]!);
  let next = 0;
  for (const k of order) {
    const off = ranges[k]!;
    const end = off + ranges[k + 1]!;
    if (!(end >= off)) return `a range of length ${ranges[k + 1]} at byte ${off}`;
    if (end > bytes) return `bytes ${off}..${end} delivered past the response's ${bytes}`;
    if (off < next) return `bytes ${off}..${Math.min(next, end)} delivered twice`;
    if (off > next) return ordered ? `bytes ${off}..${end} delivered before ${next}..${off} (out of order)` : `bytes ${next}..${off} never delivered`;
    next = end;
  }
  return next < bytes ? `bytes ${next}..${bytes} never delivered` : null;
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
  const lb = modelFacts(m);
  const index = lb.index;

  // Bytes: each downloaded (non-session-cache) response delivered exactly once, in all and per stream.
  let expected = 0;
  const keys = new Set<string>();
  /** Per node: 1 downloaded (a timing, not from the session cache), 2 its stream seen too. */
  const downloaded = new Uint8Array(m.n);
  for (const t of r.resources) {
    if (t.sessionCacheHit) continue;
    const i = index.get(t.id);
    if (i === undefined || m.kind[i] !== K_RESOURCE) {
      bad.push(`resource timing for unknown node ${t.id}`);
      continue;
    }
    const info = m.res[m.resOf[i]!]!;
    expected += info.bytes;
    downloaded[i] = 1;
    if (keys.has(info.cacheKey)) bad.push(`url downloaded twice despite the session cache: ${t.url}`);
    keys.add(info.cacheKey);
  }
  if (Math.abs(r.bytesDelivered - expected) > EPS) bad.push(`bytes delivered ${r.bytesDelivered} != bytes of downloaded responses ${expected}`);
  if (r.streams) streamViolations(m, index, downloaded, cfg.protocol !== 'quic-lite', r.streams, bad);

  for (const t of r.resources) {
    for (const f of ['queued', 'handshake', 'request', 'serverDelay', 'serverBuffer', 'transfer', 'browser'] as const) {
      if (!(t[f] >= -EPS)) bad.push(`resource ${t.id}: negative or missing ${f} (${t[f]})`);
    }
    const sum = t.queued + t.handshake + t.request + t.serverDelay + t.serverBuffer + t.transfer + t.browser;
    if (Math.abs(sum - (t.end - t.start)) > 1e-6 * Math.max(1, t.end)) bad.push(`resource ${t.id}: phases sum to ${sum}, span is ${t.end - t.start}`);
  }
  for (const nd of r.nodes) if (!(nd.end - nd.start >= -EPS) || nd.start < -EPS) bad.push(`node ${nd.id}: negative span ${nd.start}..${nd.end}`);

  const maxPath = lb.maxPath;
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

/**
 * Each downloaded response's stream against its size, no stream for a response that was not downloaded, and
 * none missing (`downloaded`: 1 per node with a timing; marked 2 here as its stream is met).
 */
function streamViolations(m: PageModel, index: Map<string, number>, downloaded: Uint8Array, ordered: boolean, streams: readonly StreamDelivery[], bad: string[]): void {
  for (const st of streams) {
    const i = index.get(st.id);
    if (i === undefined || downloaded[i] === 0) {
      let got = 0;
      for (let k = 1; k < st.ranges.length; k += 2) got += st.ranges[k]!;
      const of = i !== undefined && m.kind[i] === K_RESOURCE ? ` of ${m.res[m.resOf[i]!]!.bytes}` : '';
      bad.push(`stream ${st.id}: ${got}${of} bytes delivered, but the response never completed (no resource timing)`);
      continue;
    }
    downloaded[i] = 2;
    const v = streamViolation(st.ranges, m.res[m.resOf[i]!]!.bytes, ordered);
    if (v) bad.push(`stream ${st.id}: ${v}`);
  }
  for (let i = 0; i < m.n; i++) {
    if (downloaded[i] !== 1) continue;
    const bytes = m.res[m.resOf[i]!]!.bytes;
    if (bytes > 0) bad.push(`stream ${m.ids[i]}: none of its ${bytes} bytes delivered`);
  }
}
