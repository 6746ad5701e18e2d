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

/** Timers installed, fired, removed, and those still pending at the end (single-shot fired ones are done). Pure. */
export function timerSummary(events: readonly { name?: string; args?: { data?: Params } }[]): TimerSummary {
  const timers: TimerSummary = { installed: 0, fired: 0, removed: 0, pendingAtEnd: [] };
  const pending = new Map<string, { timerId: string; timeout: number; frame?: string; single: boolean }>();
  for (const e of events) {
    const d = e.args?.data;
    if (!d || d.timerId === undefined) continue;
    const key = `${str(d.frame)}:${String(d.timerId)}`;
    if (e.name === 'TimerInstall') {
      timers.installed++;
      pending.set(key, { timerId: String(d.timerId), timeout: Number(d.timeout ?? 0), frame: str(d.frame) || undefined, single: Boolean(d.singleShot) });
    } else if (e.name === 'TimerFire') {
      timers.fired++;
      if (pending.get(key)?.single) pending.delete(key);
    } else if (e.name === 'TimerRemove') {
      timers.removed++;
      pending.delete(key);
    }
  }
  timers.pendingAtEnd = [...pending.values()].map(({ timerId, timeout, frame }) => ({ timerId, timeout, frame }));
  return timers;
}

/** Event count, size and timers left pending, read back from the saved trace. */
export function summariseTrace(meta: BundleMeta, file: string, warnings: string[]): void {
  try {
    const raw = readFileSync(file);
    meta.counts.traceBytes = raw.length;
    const trace = JSON.parse(gunzipSync(raw).toString('utf8')) as { traceEvents?: { name?: string; args?: { data?: Params } }[] };
    const events = trace.traceEvents ?? [];
    meta.counts.traceEvents = events.length;
    meta.timers = timerSummary(events);
  } catch (e) {
    warnings.push(`saved trace could not be read back: ${(e as Error).message}`);
  }
}
