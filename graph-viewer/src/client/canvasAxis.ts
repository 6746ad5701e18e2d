/** The time layout's axis drawn along the top of the canvas, in screen space, with the tail break marked. */
import type { ZoomTransform } from 'd3-zoom';
import { timeAxisTicks } from '../shared/axisTicks.ts';
import type { TimeAxis } from '../shared/layoutTypes.ts';
import { timeToX } from '../shared/timeAxisLayout.ts';

export function drawTimeAxis(ctx: CanvasRenderingContext2D, a: TimeAxis, t: ZoomTransform, width: number, dpr: number): void {
  ctx.save();
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.fillStyle = 'rgba(255,255,255,0.85)';
  ctx.fillRect(0, 0, width, 14);
  ctx.font = '9px sans-serif';
  ctx.fillStyle = '#555';
  ctx.strokeStyle = '#999';
  ctx.lineWidth = 1;
  ctx.beginPath();
  for (const tick of timeAxisTicks(a, t.invertX(0), t.invertX(width), t.k)) {
    const sx = t.applyX(tick.x);
    ctx.moveTo(sx, 10);
    ctx.lineTo(sx, 14);
    ctx.fillText(tick.label, sx + 2, 9);
  }
  ctx.stroke();
  const sb = t.applyX(timeToX(a, a.breakT));
  if (a.tailPxPerMs < a.pxPerMs && sb > 0 && sb < width) {
    ctx.fillStyle = '#a00';
    ctx.fillText('⫽ compressed', sb + 2, 9);
  }
  ctx.restore();
}
