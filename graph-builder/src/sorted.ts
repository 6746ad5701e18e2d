/** Index of the last item whose `start` is at or before `t` in a list sorted by start; -1 when none. */
export function lastAtOrBefore(list: ReadonlyArray<{ start: number }>, t: number): number {
  let lo = 0;
  let hi = list.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (list[mid]!.start <= t) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}
