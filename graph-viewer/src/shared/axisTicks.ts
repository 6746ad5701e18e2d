/**
 * Ticks of the time layout's axis for the part of the layout in view: the linear part and the
 * compressed tail are ticked separately, each spaced for its own on-screen width (about one tick per
 * 90 px; a part narrower than 40 px gets none).
 */
import { scaleLinear } from 'd3-scale';
import type { TimeAxis } from './layoutTypes.ts';
import { timeToX } from './timeAxisLayout.ts';

export interface AxisTick {
  /** Layout x of the tick. */
  x: number;
  label: string;
}

/** Time (ms) at a layout x: the inverse of timeToX. */
export function xToTime(a: TimeAxis, x: number): number {
  const xb = (a.breakT - a.origin) * a.pxPerMs;
  return x <= xb ? a.origin + x / a.pxPerMs : a.breakT + (x - xb) / a.tailPxPerMs;
}

export function tickLabel(ms: number): string {
  return ms >= 1000 ? `${+(ms / 1000).toFixed(2)} s` : `${+ms.toFixed(1)} ms`;
}

/** Ticks between layout x0 and x1 at zoom scale k (screen px per layout unit). */
export function timeAxisTicks(a: TimeAxis, x0: number, x1: number, k: number): AxisTick[] {
  const xb = (a.breakT - a.origin) * a.pxPerMs;
  const parts: [number, number][] = [[Math.max(0, x0), Math.min(xb, x1)], [Math.max(xb, x0), x1]];
  const out: AxisTick[] = [];
  for (const [p0, p1] of parts) {
    if (p1 <= p0) continue;
    const screenW = (p1 - p0) * k;
    if (screenW < 40) continue;
    for (const t of scaleLinear().domain([xToTime(a, p0), xToTime(a, p1)]).ticks(Math.max(1, Math.floor(screenW / 90)))) {
      out.push({ x: timeToX(a, t), label: tickLabel(t) });
    }
  }
  return out;
}
