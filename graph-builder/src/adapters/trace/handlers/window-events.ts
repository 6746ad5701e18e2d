import type { Slice, WindowListener } from '../load.ts';

/**
 * An event dispatched at the document that bubbles to the window (DOMContentLoaded) is one EventDispatch
 * slice running the document's listeners, then the window's. Where the window's handlers are known, the
 * slice is cut at the first of them: the document's part keeps the slice, the window's becomes a slice
 * of its own (thesis Figure 3.9: Document DOMContentLoaded -> Window DOMContentLoaded).
 * Window capture listeners run first and are left with the document's part.
 */
export function windowParts(slices: Slice[], listeners: WindowListener[]): Slice[] {
  const bubbling = listeners.filter((l) => !l.useCapture);
  if (bubbling.length === 0) return [];
  const key = (frame: string, type: string, scriptId: string, line: number, column: number) => `${frame}|${type}|${scriptId}|${line}|${column}`;
  const windowHandlers = new Set(bubbling.map((l) => key(l.frame, l.type, l.scriptId, l.line, l.column)));
  const types = new Set(bubbling.map((l) => l.type));
  const out: Slice[] = [];
  for (const sl of slices) {
    if (sl.kind !== 'event' || !types.has(sl.eventType ?? '') || sl.windowTarget) continue;
    let cut = Infinity;
    let frame: string | undefined;
    for (const f of slices) {
      if (f.kind !== 'function' || f.thread !== sl.thread || f.start < sl.start || f.end > sl.end || f.start >= cut) continue;
      if (windowHandlers.has(key(f.frame ?? '', sl.eventType!, f.scriptId ?? '', f.line ?? -1, f.column ?? -1))) {
        cut = f.start;
        frame = f.frame;
      }
    }
    if (!Number.isFinite(cut)) continue;
    out.push({ index: 0, kind: 'event', name: sl.name, eventType: sl.eventType!, windowTarget: true, start: cut, end: sl.end, thread: sl.thread, ...(frame ? { frame } : {}) });
    sl.end = cut;
  }
  return out;
}
