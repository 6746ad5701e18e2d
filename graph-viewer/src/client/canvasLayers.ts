/**
 * The vector layers of the canvas, each drawn in layout coordinates (the caller has set the zoom
 * transform on the context): frame groups, edges (edgeGeometry's polylines, culled to the view),
 * node boxes batched by colour, a critical path too long for the SVG overlay, and the outlined
 * ancestors or descendants of the selection.
 */
import type { ZoomTransform } from 'd3-zoom';
import { edgePath, edgeShown, intersects, pathBounds, pathManhattanLength } from '../shared/edgeGeometry.ts';
import { COLLAPSED_FRAME_FILL, CRITICAL_COLOUR, FRAME_FILL, FRAME_STROKE, KIND_COLOUR } from '../shared/kinds.ts';
import type { Layout, LayoutInput, Rect } from '../shared/layoutTypes.ts';

/** What every layer needs: the context (zoom transform applied), the layout, the zoom and the view. */
export interface Paint {
  ctx: CanvasRenderingContext2D;
  l: Layout;
  input: LayoutInput;
  t: ZoomTransform;
  dpr: number;
  view: Rect;
}

type Kind = keyof typeof KIND_COLOUR;
const KINDS = Object.keys(KIND_COLOUR) as Kind[];
const KIND_NO = new Map(KINDS.map((k, j) => [k, j]));

/** Above this many edges (and half as many visible nodes), edges are left out while the user pans. */
const EDGE_BUDGET_WHILE_MOVING = 6000;
/** Canvas drawing is rasterised after the script returns, and long anti-aliased lines dominate that
 * cost: while moving, edges are left out when their total on-screen length exceeds this (px). */
const EDGE_PIXELS_WHILE_MOVING = 150_000;

export function inView(v: Rect, x: number, y: number, w: number, h: number): boolean {
  return x + w >= v.x0 && x <= v.x1 && y + h >= v.y0 && y <= v.y1;
}

/** Frames as grey groups, batched into one path per fill (a layered layout can have thousands). */
export function paintFrames(p: Paint): void {
  const { ctx, l, view } = p;
  const open = new Path2D();
  const shut = new Path2D();
  for (const g of l.groups) if (inView(view, g.x, g.y, g.w, g.h)) (g.collapsed ? shut : open).rect(g.x, g.y, g.w, g.h);
  ctx.lineWidth = 1 / p.t.k;
  ctx.fillStyle = FRAME_FILL;
  ctx.fill(open);
  ctx.fillStyle = COLLAPSED_FRAME_FILL;
  ctx.fill(shut);
  ctx.strokeStyle = FRAME_STROKE;
  ctx.stroke(open);
  ctx.stroke(shut);
}

/** Edges in view (both ends filtered out: skipped). While moving through a dense view they are left
 * out (0 is returned) and drawn again when the movement stops. Returns the number drawn. */
export function paintEdges(p: Paint, mask: Uint8Array | null, moving: boolean, visibleNodes: number): number {
  const { ctx, l, input, view } = p;
  const E = input.edgeFrom.length;
  if (moving && E > EDGE_BUDGET_WHILE_MOVING && visibleNodes > EDGE_BUDGET_WHILE_MOVING / 2) return 0;
  const pts: number[] = [];
  let count = 0;
  let pixels = 0;
  ctx.beginPath();
  for (let e = 0; e < E; e++) {
    if (!edgeShown(l, input, e)) continue;
    if (mask && !mask[input.edgeFrom[e]!] && !mask[input.edgeTo[e]!]) continue;
    edgePath(l, input, e, pts);
    if (!intersects(pathBounds(pts), view)) continue;
    ctx.moveTo(pts[0]!, pts[1]!);
    for (let k = 2; k < pts.length; k += 2) ctx.lineTo(pts[k]!, pts[k + 1]!);
    count++;
    pixels += pathManhattanLength(pts) * p.t.k;
  }
  if (moving && pixels > EDGE_PIXELS_WHILE_MOVING) return 0;
  ctx.strokeStyle = count > 3000 ? 'rgba(110,110,110,0.25)' : 'rgba(110,110,110,0.6)';
  ctx.lineWidth = 1 / p.t.k;
  ctx.stroke();
  return count;
}

/** Node boxes, one path per colour and faded state (a handful of fill calls); returns the count. */
export function paintBoxes(p: Paint, visible: readonly number[], mask: Uint8Array | null): number {
  const { ctx, l, input } = p;
  const minW = 1 / p.t.k;
  const buckets: number[][] = Array.from({ length: KINDS.length * 2 }, () => []);
  for (const i of visible) buckets[KIND_NO.get(input.kinds[i]!)! * 2 + (mask !== null && !mask[i] ? 1 : 0)]!.push(i);
  let drawn = 0;
  buckets.forEach((list, b) => {
    drawn += list.length;
    if (list.length === 0) return;
    ctx.globalAlpha = b % 2 === 1 ? 0.12 : 1;
    ctx.fillStyle = KIND_COLOUR[KINDS[b >> 1]!];
    ctx.beginPath();
    for (const i of list) ctx.rect(l.x[i]!, l.y[i]!, Math.max(minW, l.w[i]!), Math.max(minW, l.h[i]!));
    ctx.fill();
  });
  ctx.globalAlpha = 1;
  return drawn;
}

/** A long critical path, simplified on screen: a point within 2 px of the last one drawn adds nothing. */
export function paintCriticalPath(p: Paint, cp: readonly number[]): void {
  const { ctx, l } = p;
  const k = p.t.k;
  ctx.beginPath();
  let lx = NaN;
  let ly = NaN;
  for (let j = 0; j < cp.length; j++) {
    const i = cp[j]!;
    const cx = l.x[i]! + l.w[i]! / 2;
    const cy = l.y[i]! + l.h[i]! / 2;
    if (j > 0 && j < cp.length - 1 && Math.abs(cx - lx) * k + Math.abs(cy - ly) * k < 2) continue;
    if (j === 0) ctx.moveTo(cx, cy);
    else ctx.lineTo(cx, cy);
    lx = cx;
    ly = cy;
  }
  ctx.strokeStyle = CRITICAL_COLOUR;
  ctx.lineWidth = 2 / k;
  ctx.stroke();
}

/** Ancestors or descendants of the selection, outlined. */
export function paintRelated(p: Paint, related: ReadonlySet<number>): void {
  const { ctx, l } = p;
  ctx.beginPath();
  for (const i of related) if (!l.hidden[i]) ctx.rect(l.x[i]!, l.y[i]!, l.w[i]!, l.h[i]!);
  ctx.strokeStyle = '#00b7ff';
  ctx.lineWidth = 2 / p.t.k;
  ctx.stroke();
}
