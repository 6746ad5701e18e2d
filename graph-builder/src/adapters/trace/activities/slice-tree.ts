/** Walks over the sorted slices of a trace (by start, longer first; see handlers/slices.ts). */
import type { Slice } from '../load.ts';

/** The first slice on the same thread that starts inside `sl` and passes `pred`. */
export function firstInside(slices: Slice[], sl: Slice, pred: (s: Slice) => boolean): Slice | undefined {
  for (let i = sl.index + 1; i < slices.length && slices[i]!.start <= sl.end; i++) {
    const s = slices[i]!;
    if (s.thread === sl.thread && pred(s)) return s;
  }
  return undefined;
}

/** The first page-code call inside a slice (an event's handler): page code ran. */
export function handlerOf(slices: Slice[], sl: Slice): Slice | undefined {
  return firstInside(slices, sl, (s) => s.kind === 'function' && s.end <= sl.end + 1e-6);
}

/** The frame of the first slice inside `sl` that names one. */
export function frameOfDescendant(slices: Slice[], sl: Slice): string | undefined {
  return firstInside(slices, sl, (s) => s.frame !== undefined && s.frame !== '')?.frame;
}

/**
 * The event dispatch right before (dir -1) or after (dir 1) `sl` at the same level, within 1 ms. The one
 * before may have begun long before (slices are in start order): a window load's handler runs as long as
 * it runs (www.snapdeal.com: the iframeLogin frame's, 54 ms, and the iframe element's load right after it
 * was taken for a window load when the search stopped 50 ms back).
 */
export function siblingEvent(slices: Slice[], sl: Slice, dir: 1 | -1): Slice | undefined {
  for (let i = sl.index + dir; i >= 0 && i < slices.length; i += dir) {
    const x = slices[i]!;
    if (dir === 1 && x.start > sl.end + 1) return undefined;
    if (dir === -1 && x.start < sl.start - 10_000) return undefined;
    if (x.thread !== sl.thread || x.parent !== sl.parent || x.kind !== 'event') continue;
    if (dir === 1) return x.start >= sl.end - 1e-6 ? x : undefined;
    return x.end <= sl.start + 1e-6 && x.end >= sl.start - 1 ? x : undefined;
  }
  return undefined;
}

/**
 * The script evaluation that ended right before `sl` (within 1 ms) at the same level of the same thread:
 * a script element's load is dispatched as soon as its script has run, in the same task.
 */
export function scriptRunBefore(slices: Slice[], sl: Slice): Slice | undefined {
  for (let i = sl.index - 1; i >= 0; i--) {
    const x = slices[i]!;
    if (x.start < sl.start - 10_000) return undefined;
    if (x.thread === sl.thread && x.parent === sl.parent && x.kind === 'script' && x.end <= sl.start + 1e-6 && x.end >= sl.start - 1) return x;
  }
  return undefined;
}
