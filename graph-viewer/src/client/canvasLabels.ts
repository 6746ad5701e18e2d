/**
 * Text on the canvas, in screen space and only where it is readable: frame names in the time layout's
 * group headers, node labels (inside a box wide enough, else to its right up to the next box of the
 * row; left out rather than drawn over others), and the time layout's lane names.
 */
import type { GraphNode } from '@pcp/graph-builder';
import { LAYERED } from '../shared/layeredSize.ts';
import { nodeLabel } from '../shared/nodeText.ts';
import { inView, type Paint } from './canvasLayers.ts';

const CHAR_W = 5.6;
/** Node labels only when fewer nodes than this are in view. */
const MAX_LABELLED = 2500;

function screenText(p: Paint, font: string, fill: string, draw: (ctx: CanvasRenderingContext2D) => void): void {
  const ctx = p.ctx;
  ctx.save();
  ctx.setTransform(p.dpr, 0, 0, p.dpr, 0, 0);
  ctx.font = font;
  ctx.fillStyle = fill;
  draw(ctx);
  ctx.restore();
}

/** Frame names in each time-layout group's header band, once it is tall enough to read. */
export function paintFrameNames(p: Paint): void {
  const { l, t, input } = p;
  if (l.kind !== 'time' || t.k * 14 < 9) return;
  screenText(p, '10px sans-serif', '#444', (ctx) => {
    for (const g of l.groups) {
      if (!inView(p.view, g.x, g.y, g.w, g.h)) continue;
      const f = input.frames[g.frame];
      ctx.fillText(`${g.collapsed ? '▸ ' : ''}${f?.url || f?.id || ''}`, Math.max(2, t.applyX(g.x) + 4), t.applyY(g.y) + 11, 600);
    }
  });
}

/** Node labels once a row is at least 9 px tall on screen and the view is not crowded. */
export function paintNodeLabels(p: Paint, visible: readonly number[], nodes: readonly GraphNode[]): void {
  const { l, t } = p;
  const k = t.k;
  if ((l.kind === 'time' ? 8 : 10) * k < 9 || visible.length >= MAX_LABELLED) return;
  const rows = new Map<number, number[]>();
  for (const i of visible) {
    const list = rows.get(l.y[i]!);
    if (list) list.push(i);
    else rows.set(l.y[i]!, [i]);
  }
  screenText(p, '10px sans-serif', '#222', (ctx) => {
    ctx.textBaseline = 'middle';
    for (const list of rows.values()) {
      list.sort((a, b) => l.x[a]! - l.x[b]!);
      list.forEach((i, j) => {
        const [sx, sy] = t.apply([l.x[i]!, l.y[i]! + l.h[i]! / 2]);
        const boxW = l.w[i]! * k;
        const next = list[j + 1];
        const limit = next === undefined ? Infinity : t.applyX(l.x[next]!) - 3;
        const text = nodeLabel(nodes[i]!);
        const inside = boxW - 6 >= Math.min(text.length * CHAR_W, 60);
        const x0 = inside ? sx + 3 : sx + Math.max(boxW, 2) + 3;
        // In the layered layout a label outside its box stops before the next layer.
        const room = inside ? boxW - 6 : Math.min(limit - x0, l.kind === 'layered' ? LAYERED.layerGap * k - 6 : Infinity);
        if (room < 3 * CHAR_W) return;
        const fit = Math.floor(room / CHAR_W);
        ctx.fillStyle = inside ? '#fff' : '#222';
        ctx.fillText(text.length > fit ? `${text.slice(0, Math.max(1, fit - 1))}…` : text, x0, sy);
      });
    }
  });
}

/** Lane names at the left edge (time layout). */
export function paintLaneLabels(p: Paint): void {
  const { l, t, view } = p;
  if (l.kind !== 'time' || t.k * 8 < 5) return;
  screenText(p, '9px sans-serif', '#666', (ctx) => {
    for (const lane of l.lanes) {
      if (lane.y + lane.h < view.y0 || lane.y > view.y1) continue;
      ctx.fillText(lane.label, 4, t.applyY(lane.y) + 8);
    }
  });
}
