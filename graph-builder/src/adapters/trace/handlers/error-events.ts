import type { Slice, UncaughtException } from '../load.ts';
import { threadOf, type TraceEvent } from '../trace-events.ts';

/**
 * The window error events that uncaught exceptions fired. Chromium dispatches ErrorEvent synchronously
 * inside the script that threw, with no EventDispatch slice; the protocol reports the exception after the
 * handlers ran. The dispatch therefore ends at the report (clamped to the script's slice) and starts
 * where the inspector turned the exception's stack into frames (toFramesVector, recorded while the
 * Runtime domain is enabled), or at the report when that is missing.
 */
export function errorDispatches(stackWork: TraceEvent[], slices: Slice[], exceptions: UncaughtException[], ms: (ts: number) => number): Slice[] {
  if (exceptions.length === 0) return [];
  const out: Slice[] = [];
  for (const ex of exceptions) {
    const at = ms(ex.ts);
    // The script slice that threw: same url, enclosing the report (or just ended: clock mapping is
    // good to a fraction of a millisecond).
    let best: Slice | undefined;
    for (const sl of slices) {
      if ((sl.kind !== 'script' && sl.kind !== 'function' && sl.kind !== 'timer') || sl.start > at) continue;
      if (sl.url !== undefined && ex.url !== '' && sl.url !== ex.url && sl.kind === 'script') continue;
      if (sl.end < at - 1) continue;
      if (!best || sl.start > best.start) best = sl;
    }
    if (!best) continue;
    const end = Math.min(at, best.end);
    let start = end;
    for (const e of stackWork) {
      if (threadOf(e) !== best.thread) continue;
      const t = ms(e.ts);
      if (t >= best.start && t <= end && (start === end || t > start)) start = t;
    }
    out.push({ index: 0, kind: 'event', name: 'ErrorEvent', eventType: 'error', windowTarget: true, start, end, thread: best.thread, ...(best.frame ? { frame: best.frame } : {}) });
  }
  return out;
}
