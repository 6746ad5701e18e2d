/**
 * The parser's own work over time (thesis §3.5.1: a parse chunk is parsing work). A ParseHTML slice's
 * self time is its span minus the activity slices nested in it (a script the parser ran, an event it
 * dispatched); the parser's waits (for a blocking script's download, for a style sheet) lie between
 * ParseHTML slices and are no work at all. The clock returned reads, for an instant t, the milliseconds
 * of parse work done on the document from its first slice up to t.
 */
import type { Slice } from '../load.ts';

/** Milliseconds of parse work before instant `t`, from a document's parse slices. */
export type ParseWorkClock = (t: number) => number;

/** Work intervals [start, end) of the parser, sorted and disjoint. */
export function parseWorkIntervals(parses: Slice[], slices: Slice[], isComputation: (s: Slice) => boolean): [number, number][] {
  const own = new Set(parses.map((p) => p.index));
  const nested = new Map<number, [number, number][]>();
  for (const s of slices) {
    if (!isComputation(s)) continue;
    // The parse slice the computation ran in: its nearest enclosing parse or computation slice.
    let up = s.parent === undefined ? undefined : slices[s.parent];
    while (up && up.kind !== 'parse' && !isComputation(up)) up = up.parent === undefined ? undefined : slices[up.parent];
    if (!up || !own.has(up.index)) continue;
    (nested.get(up.index) ?? nested.set(up.index, []).get(up.index)!).push([s.start, s.end]);
  }
  const out: [number, number][] = [];
  for (const p of parses) {
    let from = p.start;
    for (const [a, b] of (nested.get(p.index) ?? []).sort((x, y) => x[0] - y[0])) {
      if (a > from) out.push([from, Math.min(a, p.end)]);
      from = Math.max(from, b);
    }
    if (p.end > from) out.push([from, p.end]);
  }
  out.sort((x, y) => x[0] - y[0]);
  // Parse slices of one document may nest (document.write inside a script inside a parse): merge.
  const merged: [number, number][] = [];
  for (const iv of out) {
    const last = merged[merged.length - 1];
    if (last && iv[0] <= last[1]) last[1] = Math.max(last[1], iv[1]);
    else merged.push([iv[0], iv[1]]);
  }
  return merged;
}

export function parseWorkClock(parses: Slice[], slices: Slice[], isComputation: (s: Slice) => boolean): ParseWorkClock {
  const ivs = parseWorkIntervals(parses, slices, isComputation);
  const before: number[] = [];
  let acc = 0;
  for (const [a, b] of ivs) {
    before.push(acc);
    acc += b - a;
  }
  return (t) => {
    // The last interval starting at or before t.
    let lo = 0;
    let hi = ivs.length - 1;
    let k = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (ivs[mid]![0] <= t) {
        k = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    if (k < 0) return 0;
    const [a, b] = ivs[k]!;
    return before[k]! + Math.min(t, b) - a;
  };
}
