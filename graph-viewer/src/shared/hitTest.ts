/**
 * What lies under a point of the layout, in layout coordinates (the canvas converts pointer positions).
 * Nodes: a d3 quadtree over the centres of narrow boxes plus a short list of wide ones (long
 * downloads), so a hover stays O(log n); the smallest box containing the point wins. Nodes hidden in a
 * collapsed frame are hit as the frame's bar, reported as the frame's first node. Edges: a linear scan
 * over edgeGeometry's polylines, cheap next to drawing a frame and only run on pointer moves.
 */
import { quadtree, type Quadtree } from 'd3-quadtree';
import { distanceSqToPath, edgePath, edgeShown, pathBounds } from './edgeGeometry.ts';
import type { Layout, LayoutInput } from './layoutTypes.ts';

/** Boxes wider than this (layout units) are kept out of the quadtree and checked one by one. */
const WIDE = 40;

export class NodeHitIndex {
  private readonly tree: Quadtree<number>;
  private readonly wide: number[] = [];
  /** The first node of each collapsed frame stands for the frame's bar. */
  private readonly collapsedRep = new Map<number, number>();
  private maxNarrowHalfW = 0;
  private maxHalfH = 0;

  constructor(
    private readonly l: Layout,
    private readonly input: LayoutInput,
  ) {
    const narrow: number[] = [];
    for (let i = 0; i < l.x.length; i++) {
      if (l.hidden[i] && !this.collapsedRep.has(input.frame[i]!)) this.collapsedRep.set(input.frame[i]!, i);
      if (l.w[i]! > WIDE) this.wide.push(i);
      else {
        narrow.push(i);
        this.maxNarrowHalfW = Math.max(this.maxNarrowHalfW, l.w[i]! / 2);
      }
      this.maxHalfH = Math.max(this.maxHalfH, l.h[i]! / 2);
    }
    this.tree = quadtree<number>()
      .x((i) => l.x[i]! + l.w[i]! / 2)
      .y((i) => l.y[i]! + l.h[i]! / 2)
      .addAll(narrow);
  }

  /** The node whose box (grown by `tol`) contains the point, the smallest if several do; -1 if none. */
  nodeAt(px: number, py: number, tol: number): number {
    const l = this.l;
    let best = -1;
    let bestArea = Infinity;
    const consider = (i: number): void => {
      if (l.hidden[i] && this.collapsedRep.get(this.input.frame[i]!) !== i) return;
      if (px < l.x[i]! - tol || px > l.x[i]! + l.w[i]! + tol || py < l.y[i]! - tol || py > l.y[i]! + l.h[i]! + tol) return;
      const area = l.w[i]! * l.h[i]!;
      if (area < bestArea) {
        best = i;
        bestArea = area;
      }
    };
    const rx = this.maxNarrowHalfW + tol;
    const ry = this.maxHalfH + tol;
    this.tree.visit((node, x0, y0, x1, y1) => {
      if (!node.length) {
        for (let q: typeof node | undefined = node; q; q = (q as { next?: typeof node }).next) consider((q as { data: number }).data);
      }
      return x0 > px + rx || x1 < px - rx || y0 > py + ry || y1 < py - ry;
    });
    for (const i of this.wide) consider(i);
    return best;
  }
}

/** The layout edge whose drawn polyline passes within `tol` of the point (the nearest), or -1. */
export function edgeAt(l: Layout, input: LayoutInput, px: number, py: number, tol: number): number {
  let best = -1;
  let bestD = tol * tol;
  const pts: number[] = [];
  for (let e = 0; e < input.edgeFrom.length; e++) {
    if (!edgeShown(l, input, e)) continue;
    edgePath(l, input, e, pts);
    const { x0, y0, x1, y1 } = pathBounds(pts);
    if (px < x0 - tol || px > x1 + tol || py < y0 - tol || py > y1 + tol) continue;
    const d = distanceSqToPath(pts, px, py);
    if (d <= bestD) {
      bestD = d;
      best = e;
    }
  }
  return best;
}
