/** Nesting of intervals (slices, task runs) on a thread, and the innermost one enclosing an instant. */
import { lastAtOrBefore } from '../../sorted.ts';

export interface Interval {
  index: number;
  start: number;
  end: number;
  thread: string;
  parent?: number;
}

/**
 * Sets each interval's `parent` (innermost enclosing one on its thread) and returns a lookup of the
 * innermost interval enclosing an instant on a thread. `list` is sorted by start, longer first.
 */
export function nestSlices<T extends Interval>(slices: T[]): (thread: string, time: number) => number | undefined {
  const byThread = new Map<string, T[]>();
  for (const sl of slices) (byThread.get(sl.thread) ?? byThread.set(sl.thread, []).get(sl.thread)!).push(sl);
  for (const list of byThread.values()) {
    const stack: T[] = [];
    for (const sl of list) {
      while (stack.length && stack[stack.length - 1]!.end < sl.end) stack.pop();
      const top = stack[stack.length - 1];
      if (top) sl.parent = top.index;
      stack.push(sl);
    }
  }
  return (thread, time) => {
    const list = byThread.get(thread);
    if (!list) return undefined;
    // Last slice starting at or before `time`, then walk out to one that still encloses it.
    const found = lastAtOrBefore(list, time);
    for (let sl = found >= 0 ? list[found] : undefined; sl; sl = sl.parent !== undefined ? slices[sl.parent] : undefined) {
      if (sl.end >= time) return sl.index;
    }
    return undefined;
  };
}
