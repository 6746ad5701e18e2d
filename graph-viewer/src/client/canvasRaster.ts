/**
 * The overview of a big graph: frames and node boxes rasterised by hand into a device-pixel buffer
 * (typed-array fills, no anti-aliasing) and blitted in one drawImage, because thousands of
 * anti-aliased sub-pixel rectangles cost far more for the canvas to rasterise than to script.
 */
import type { ZoomTransform } from 'd3-zoom';
import { COLLAPSED_FRAME_FILL, FRAME_FILL, FRAME_STROKE, KIND_COLOUR } from '../shared/kinds.ts';
import type { Layout, LayoutInput, Rect } from '../shared/layoutTypes.ts';

type Kind = keyof typeof KIND_COLOUR;
const KINDS = Object.keys(KIND_COLOUR) as Kind[];

/** A #rrggbb colour as the uint32 whose little-endian bytes are its RGBA. */
export function packColour(hex: string, alpha = 255): number {
  const v = parseInt(hex.slice(1), 16);
  return ((alpha << 24) | ((v & 0xff) << 16) | (v & 0xff00) | ((v >> 16) & 0xff)) >>> 0;
}

/** `hex` at opacity `a` over the opaque colour `over`, as an opaque #rrggbb. */
export function blendOver(hex: string, over: string, a: number): string {
  const p = parseInt(hex.slice(1), 16);
  const q = parseInt(over.slice(1), 16);
  const ch = (sh: number): number => Math.round(((p >> sh) & 0xff) * a + ((q >> sh) & 0xff) * (1 - a));
  return `#${((ch(16) << 16) | (ch(8) << 8) | ch(0)).toString(16).padStart(6, '0')}`;
}

const SOLID = new Map(KINDS.map((k) => [k, packColour(KIND_COLOUR[k])]));
// Faded boxes sit on a frame's grey: blended with it (12 %, as the vector path's alpha) so the buffer stays opaque.
const FADED = new Map(KINDS.map((k) => [k, packColour(blendOver(KIND_COLOUR[k], FRAME_FILL, 0.12))]));
const BORDER = packColour(FRAME_STROKE);
const FILLS = [packColour(FRAME_FILL), packColour(COLLAPSED_FRAME_FILL)];

export class BoxRaster {
  private pixels: { img: ImageData; buf: Uint32Array; layer: HTMLCanvasElement } | null = null;

  /** Draws the visible frames and boxes over what is on `canvas`; returns the number of boxes. */
  draw(canvas: HTMLCanvasElement, ctx: CanvasRenderingContext2D, l: Layout, input: LayoutInput, visible: readonly number[], mask: Uint8Array | null, t: ZoomTransform, dpr: number, view: Rect): number {
    const W = canvas.width;
    const H = canvas.height;
    if (!this.pixels || this.pixels.img.width !== W || this.pixels.img.height !== H) {
      const img = new ImageData(W, H);
      const layer = document.createElement('canvas');
      layer.width = W;
      layer.height = H;
      this.pixels = { img, buf: new Uint32Array(img.data.buffer), layer };
    }
    const { img, buf, layer } = this.pixels;
    buf.fill(0);
    const sx = t.k * dpr;
    const ox = t.x * dpr;
    const oy = t.y * dpr;
    const box = (x: number, y: number, w: number, h: number, c: number): void => {
      const x0 = Math.max(0, Math.floor(x * sx + ox));
      const x1 = Math.min(W, Math.max(Math.floor(x * sx + ox) + 1, Math.round((x + w) * sx + ox)));
      const y0 = Math.max(0, Math.floor(y * sx + oy));
      const y1 = Math.min(H, Math.max(Math.floor(y * sx + oy) + 1, Math.round((y + h) * sx + oy)));
      for (let yy = y0; yy < y1; yy++) buf.fill(c, yy * W + x0, yy * W + x1);
    };
    // Frames: a 1 px border of the stroke colour around the fill.
    for (const g of l.groups) {
      if (g.x + g.w < view.x0 || g.x > view.x1 || g.y + g.h < view.y0 || g.y > view.y1) continue;
      box(g.x, g.y, g.w, g.h, BORDER);
      const b = 1 / sx;
      box(g.x + b, g.y + b, g.w - 2 * b, g.h - 2 * b, FILLS[g.collapsed ? 1 : 0]!);
    }
    // Faded boxes first so matching ones are painted over them.
    for (const pass of [1, 0]) {
      for (const i of visible) {
        const isFaded = mask !== null && !mask[i] ? 1 : 0;
        if (isFaded !== pass) continue;
        box(l.x[i]!, l.y[i]!, l.w[i]!, l.h[i]!, (isFaded ? FADED : SOLID).get(input.kinds[i]!)!);
      }
    }
    layer.getContext('2d')!.putImageData(img, 0, 0);
    ctx.save();
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.drawImage(layer, 0, 0);
    ctx.restore();
    return visible.length;
  }
}
