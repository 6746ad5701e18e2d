/** meta.json's summaries of what was recorded: counts from the DevTools log, timers from the saved trace. */
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import type { BundleMeta, DevtoolsLogEntry, TimerSummary } from './bundle.ts';
import { str, type Params } from './protocol-values.ts';


/** Requests, failures, cache answers and the main document's response, into meta. Pure but for meta. */
export function summariseLog(meta: BundleMeta, log: DevtoolsLogEntry[], mainFrameId: string): void {
  const failed = new Set<string>();
  for (const e of log) {
    const p = e.params;
    if (e.method === 'Network.requestWillBeSent') meta.counts.requests++;
    else if (e.method === 'Network.loadingFailed') failed.add(`${e.sessionId ?? ''}:${str(p.requestId)}`);
    else if (e.method === 'Network.requestServedFromCache') meta.counts.servedFromCache++;
    else if (e.method === 'Network.responseReceived' && !e.sessionId && p.type === 'Document' && p.frameId === mainFrameId && !meta.mainDocument) {
      const r = p.response as Params;
      meta.mainDocument = { status: Number(r.status ?? 0), mimeType: str(r.mimeType), url: str(r.url) };
    }
  }
  meta.counts.failedRequests = failed.size;
}

/** A single-shot timer this late (ms) when the capture ended was held up, not merely queued. */
export const OVERDUE_MS = 100;

type TimerEvent = { name?: string; ts?: number; args?: { data?: Params } };

/**
 * Timers installed, fired, removed, and those still pending at the end (single-shot fired ones are done).
 * With `endedAt` (the capture's end, trace clock in s): the single-shot timers due more than OVERDUE_MS
 * before it that had not fired by then. Pure.
 */
export function timerSummary(events: readonly TimerEvent[], endedAt?: number): TimerSummary {
  const timers: TimerSummary = { installed: 0, fired: 0, removed: 0, pendingAtEnd: [] };
  type Timer = { timerId: string; timeout: number; frame?: string; single: boolean; due?: number; firedAt?: number; removed?: boolean };
  const pending = new Map<string, Timer>();
  const singles: Timer[] = [];
  // Events in time order (a trace file's order is not): a timer's fire follows its install.
  for (const e of [...events].sort((a, b) => (a.ts ?? 0) - (b.ts ?? 0))) {
    const d = e.args?.data;
    if (!d || d.timerId === undefined) continue;
    const key = `${str(d.frame)}:${String(d.timerId)}`;
    if (e.name === 'TimerInstall') {
      timers.installed++;
      const timeout = Number(d.timeout ?? 0);
      const t: Timer = { timerId: String(d.timerId), timeout, frame: str(d.frame) || undefined, single: Boolean(d.singleShot), ...(e.ts !== undefined ? { due: e.ts / 1e6 + timeout / 1000 } : {}) };
      pending.set(key, t);
      if (t.single) singles.push(t);
    } else if (e.name === 'TimerFire') {
      timers.fired++;
      const t = pending.get(key);
      if (t?.single) {
        if (e.ts !== undefined) t.firedAt = e.ts / 1e6;
        pending.delete(key);
      }
    } else if (e.name === 'TimerRemove') {
      timers.removed++;
      const t = pending.get(key);
      if (t) t.removed = true;
      pending.delete(key);
    }
  }
  timers.pendingAtEnd = [...pending.values()].map(({ timerId, timeout, frame }) => ({ timerId, timeout, frame }));
  if (endedAt !== undefined) {
    const overdue = singles.flatMap(({ timerId, timeout, frame, due, firedAt, removed }) => {
      const lateMs = due === undefined ? 0 : (endedAt - due) * 1000;
      return lateMs > OVERDUE_MS && !removed && (firedAt === undefined || firedAt > endedAt) ? [{ timerId, timeout, frame, lateMs: Math.round(lateMs) }] : [];
    });
    if (overdue.length) timers.overdueAtEnd = overdue;
  }
  return timers;
}

/** Event count, size and timers left pending, read back from the saved trace. */
export function summariseTrace(meta: BundleMeta, file: string, warnings: string[]): void {
  try {
    const raw = readFileSync(file);
    meta.counts.traceBytes = raw.length;
    const trace = JSON.parse(gunzipSync(raw).toString('utf8')) as { traceEvents?: TimerEvent[] };
    const events = trace.traceEvents ?? [];
    meta.counts.traceEvents = events.length;
    meta.timers = timerSummary(events, meta.timings?.endedMonotonic);
    for (const t of meta.timers.overdueAtEnd ?? []) {
      warnings.push(`timer ${t.timerId} (${t.timeout} ms) was due ${t.lateMs} ms before the capture ended on quiet and had not run: the renderer was behind (a loaded machine); what it did may be missing`);
    }
  } catch (e) {
    warnings.push(`saved trace could not be read back: ${(e as Error).message}`);
  }
}
