/**
 * Time-axis dependency layout: x is the recorded start time, and every frame gets a grey group with one
 * lane per kind of activity (resources, download chunks, parse chunks, computations, timers, events,
 * markers). Inside a lane, overlapping activities are packed into rows by interval partitioning with a
 * min-heap of row end positions, so the layout costs O(n log n) and works at any graph size.
 */
import { BinaryHeap } from '@pcp/graph-builder/heap';
import { LANE_OF_KIND, LANES, type Lane } from './kinds.ts';
import type { FrameGroup, LaneLabel, Layout, LayoutInput, TimeAxis } from './layoutTypes.ts';

/** Layout x of a time (ms), following the axis' linear part and its compressed tail. */
export function timeToX(a: TimeAxis, t: number): number {
  return t <= a.breakT ? (t - a.origin) * a.pxPerMs : (a.breakT - a.origin) * a.pxPerMs + (t - a.breakT) * a.tailPxPerMs;
}

export const TIME_LAYOUT = {
  rowH: 8,
  rowGap: 2,
  laneGap: 6,
  framePad: 6,
  frameHeader: 14,
  frameGap: 10,
  /** Short activities still get a clickable box. */
  minW: 2,
  /** Horizontal breathing room between activities sharing a row. */
  hGap: 0.5,
} as const;

const LANE_LABEL: Record<Lane, string> = {
  resource: 'resources',
  download: 'download chunks',
  parse: 'parse chunks',
  compute: 'script / CSS',
  timer: 'timers',
  event: 'events',
  marker: 'markers',
};

export function timeAxisLayout(input: LayoutInput, collapsed: ReadonlySet<number> = new Set()): Layout {
  const P = TIME_LAYOUT;
  const n = input.kinds.length;
  const x = new Float64Array(n);
  const y = new Float64Array(n);
  const w = new Float64Array(n);
  const h = new Float64Array(n);
  const hidden = new Uint8Array(n);
  let t0 = Infinity;
  let t1 = -Infinity;
  for (let i = 0; i < n; i++) {
    t0 = Math.min(t0, input.start[i]!);
    t1 = Math.max(t1, input.end[i]!);
  }
  if (!Number.isFinite(t0)) t0 = t1 = 0;
  // Times are ms since navigation start. x is linear in the recorded start up to `breakT` (where 95 % of
  // activities have ended) and compressed after it, so a long post-load tail (late timers, beacons)
  // does not squeeze the page load into a sliver; the scale aims at a few thousand px of width.
  const origin = Math.min(0, t0);
  const ends = Array.from(input.end).sort((a, b) => a - b);
  const breakT = Math.max(origin + 1, ends[Math.floor(0.95 * (n - 1))] ?? t1);
  const targetWidth = Math.max(2000, 60 * Math.sqrt(n));
  const pxPerMs = Math.min(4, Math.max(0.005, targetWidth / (breakT - origin)));
  const tailPxPerMs = Math.min(pxPerMs, (0.25 * targetWidth) / Math.max(1, t1 - breakT));
  const axis: TimeAxis = { origin, breakT, pxPerMs, tailPxPerMs };
  for (let i = 0; i < n; i++) {
    x[i] = timeToX(axis, input.start[i]!);
    w[i] = Math.max(P.minW, timeToX(axis, input.end[i]!) - x[i]!);
  }
  const width = timeToX(axis, t1) + P.minW;

  // Bucket nodes by frame and lane, each bucket sorted by start.
  const buckets: number[][][] = input.frames.map(() => LANES.map(() => []));
  const laneIndex = new Map(LANES.map((l, i) => [l, i]));
  for (let i = 0; i < n; i++) {
    const f = input.frame[i]!;
    buckets[f]?.[laneIndex.get(LANE_OF_KIND[input.kinds[i]!])!]!.push(i);
  }

  const groups: FrameGroup[] = [];
  const lanes: LaneLabel[] = [];
  let cursor = 0;
  input.frames.forEach((frame, f) => {
    const lanesOfFrame = buckets[f]!;
    const count = lanesOfFrame.reduce((s, b) => s + b.length, 0);
    if (count === 0) return;
    const top = cursor;
    const indent = frame.depth * 12;
    if (collapsed.has(f)) {
      // One summary bar spanning the frame's activity; its nodes borrow the bar as their box.
      let s = Infinity;
      let e = -Infinity;
      for (const b of lanesOfFrame) for (const i of b) {
        s = Math.min(s, x[i]!);
        e = Math.max(e, x[i]! + w[i]!);
      }
      const barY = top + P.frameHeader;
      for (const b of lanesOfFrame) for (const i of b) {
        x[i] = s;
        y[i] = barY;
        w[i] = e - s;
        h[i] = P.rowH;
        hidden[i] = 1;
      }
      const gh = P.frameHeader + P.rowH + P.framePad;
      groups.push({ frame: f, x: s - P.framePad, y: top, w: e - s + 2 * P.framePad, h: gh, collapsed: true });
      cursor += gh + P.frameGap;
      return;
    }
    let laneY = top + P.frameHeader;
    lanesOfFrame.forEach((bucket, li) => {
      if (bucket.length === 0) return;
      bucket.sort((a, b) => x[a]! - x[b]! || a - b);
      // Rows by the time they free up, earliest first.
      const heap = new BinaryHeap<{ end: number; row: number }>((a, b) => a.end < b.end);
      let rowCount = 0;
      for (const i of bucket) {
        const free = heap.peek();
        const row = free && free.end <= x[i]! ? heap.pop()!.row : rowCount++;
        heap.push({ end: x[i]! + w[i]! + P.hGap, row });
        y[i] = laneY + row * (P.rowH + P.rowGap);
        h[i] = P.rowH;
      }
      const laneH = rowCount * (P.rowH + P.rowGap) - P.rowGap;
      lanes.push({ label: `${LANE_LABEL[LANES[li]!]}`, y: laneY, h: laneH });
      laneY += laneH + P.laneGap;
    });
    const gh = laneY - P.laneGap + P.framePad - top;
    groups.push({ frame: f, x: -P.framePad - indent, y: top, w: width + 2 * P.framePad + indent, h: gh, collapsed: false });
    cursor += gh + P.frameGap;
  });

  return { kind: 'time', x, y, w, h, hidden, groups, lanes, width, height: Math.max(cursor - P.frameGap, 1), pxPerMs, axis };
}
