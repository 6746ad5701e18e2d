/**
 * Where an edge is drawn, written once for every consumer (canvas, hit testing, SVG export): from the
 * middle of its source's right side, through the layout's bend points if it has any (the layered
 * layout routes long edges around the layers they cross), to the middle of its target's left side.
 * Pure functions on a Layout; points are flat x, y arrays in layout coordinates.
 */
import type { Layout, LayoutInput, Rect } from './layoutTypes.ts';

/** An edge is drawn unless both ends sit hidden in the same collapsed frame. */
export function edgeShown(l: Layout, input: LayoutInput, e: number): boolean {
  const a = input.edgeFrom[e]!;
  const b = input.edgeTo[e]!;
  return !(l.hidden[a] && l.hidden[b] && input.frame[a] === input.frame[b]);
}

/** The polyline of layout edge e, written into `out` (cleared first) and returned. */
export function edgePath(l: Layout, input: LayoutInput, e: number, out: number[] = []): number[] {
  const a = input.edgeFrom[e]!;
  const b = input.edgeTo[e]!;
  out.length = 0;
  out.push(l.x[a]! + l.w[a]!, l.y[a]! + l.h[a]! / 2);
  const bends = l.edgeBends;
  if (bends) for (let k = 2 * bends.offset[e]!; k < 2 * bends.offset[e + 1]!; k++) out.push(bends.points[k]!);
  out.push(l.x[b]!, l.y[b]! + l.h[b]! / 2);
  return out;
}

/** The bounding box of a polyline. */
export function pathBounds(pts: readonly number[]): Rect {
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -Infinity;
  let y1 = -Infinity;
  for (let k = 0; k < pts.length; k += 2) {
    x0 = Math.min(x0, pts[k]!);
    x1 = Math.max(x1, pts[k]!);
    y0 = Math.min(y0, pts[k + 1]!);
    y1 = Math.max(y1, pts[k + 1]!);
  }
  return { x0, y0, x1, y1 };
}

export function intersects(a: Rect, b: Rect): boolean {
  return a.x1 >= b.x0 && a.x0 <= b.x1 && a.y1 >= b.y0 && a.y0 <= b.y1;
}

/** Length of a polyline measured as |dx| + |dy| per segment (what the canvas pays to stroke it, roughly). */
export function pathManhattanLength(pts: readonly number[]): number {
  let s = 0;
  for (let k = 2; k < pts.length; k += 2) s += Math.abs(pts[k]! - pts[k - 2]!) + Math.abs(pts[k + 1]! - pts[k - 1]!);
  return s;
}

/** Squared distance from a point to a polyline. */
export function distanceSqToPath(pts: readonly number[], px: number, py: number): number {
  let best = Infinity;
  for (let k = 2; k < pts.length; k += 2) {
    const ax = pts[k - 2]!;
    const ay = pts[k - 1]!;
    const dx = pts[k]! - ax;
    const dy = pts[k + 1]! - ay;
    const len2 = dx * dx + dy * dy;
    const u = len2 === 0 ? 0 : Math.max(0, Math.min(1, ((px - ax) * dx + (py - ay) * dy) / len2));
    const qx = ax + u * dx - px;
    const qy = ay + u * dy - py;
    best = Math.min(best, qx * qx + qy * qy);
  }
  return best;
}

/** The point halfway along a polyline (by Euclidean length). */
export function pathMidpoint(pts: readonly number[]): [number, number] {
  const seg: number[] = [];
  let total = 0;
  for (let k = 2; k < pts.length; k += 2) {
    const d = Math.hypot(pts[k]! - pts[k - 2]!, pts[k + 1]! - pts[k - 1]!);
    seg.push(d);
    total += d;
  }
  let left = total / 2;
  for (let s = 0; s < seg.length; s++) {
    if (left <= seg[s]! || s === seg.length - 1) {
      const u = seg[s]! === 0 ? 0 : Math.min(1, left / seg[s]!);
      const k = 2 * s;
      return [pts[k]! + u * (pts[k + 2]! - pts[k]!), pts[k + 1]! + u * (pts[k + 3]! - pts[k + 1]!)];
    }
    left -= seg[s]!;
  }
  return [pts[0]!, pts[1]!];
}
