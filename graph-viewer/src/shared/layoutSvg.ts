/**
 * Renders a layout (or the part of it inside a viewport) as a standalone SVG document string. Used for
 * "export current view" in the browser and for whole-graph PDFs of graphs too large for Graphviz.
 * All text goes through xmlEscape.
 */
import type { GraphNode } from '@pcp/graph-builder';
import { edgePath, edgeShown, intersects, pathBounds } from './edgeGeometry.ts';
import { xmlEscape } from './escape.ts';
import { COLLAPSED_FRAME_FILL, CRITICAL_COLOUR, FRAME_FILL, FRAME_STROKE, KIND_COLOUR } from './kinds.ts';
import type { Layout, LayoutInput } from './layoutTypes.ts';
import { nodeLabel } from './nodeText.ts';

export interface SvgOptions {
  /** Layout-space rectangle to export; the whole layout when omitted. */
  viewport?: { x0: number; y0: number; x1: number; y1: number };
  /** Output width in px (height keeps the aspect ratio). */
  width?: number;
  critical?: ReadonlySet<number>;
  /** Nodes to draw faded (filtered out). */
  faded?: ReadonlySet<number> | null;
  title?: string;
  frameLabels?: string[];
}

export function layoutToSvg(layout: Layout, input: LayoutInput, nodes: readonly GraphNode[], opt: SvgOptions = {}): string {
  const pad = 10;
  const vp = opt.viewport ?? { x0: -pad, y0: -pad, x1: layout.width + pad, y1: layout.height + pad };
  const vw = Math.max(1, vp.x1 - vp.x0);
  const vh = Math.max(1, vp.y1 - vp.y0);
  const outW = opt.width ?? Math.min(4000, Math.max(800, vw));
  const outH = (outW * vh) / vw;
  const inView = (x: number, y: number, w: number, h: number): boolean => x + w >= vp.x0 && x <= vp.x1 && y + h >= vp.y0 && y <= vp.y1;
  const out: string[] = [];
  out.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${outW.toFixed(0)}" height="${outH.toFixed(0)}" viewBox="${vp.x0} ${vp.y0} ${vw} ${vh}" font-family="sans-serif">`);
  if (opt.title) out.push(`<title>${xmlEscape(opt.title)}</title>`);
  out.push(`<rect x="${vp.x0}" y="${vp.y0}" width="${vw}" height="${vh}" fill="#fff"/>`);
  out.push('<g class="frames">');
  for (const g of layout.groups) {
    if (!inView(g.x, g.y, g.w, g.h)) continue;
    out.push(`<rect x="${g.x}" y="${g.y}" width="${g.w}" height="${g.h}" fill="${g.collapsed ? COLLAPSED_FRAME_FILL : FRAME_FILL}" stroke="${FRAME_STROKE}" stroke-width="0.5"/>`);
    const label = opt.frameLabels?.[g.frame];
    if (label && layout.kind === 'time') out.push(`<text x="${g.x + 4}" y="${g.y + 10}" font-size="9" fill="#555">${xmlEscape(label)}</text>`);
  }
  out.push('</g><g class="edges" stroke="#888" stroke-width="0.4" fill="none">');
  const n = input.kinds.length;
  const pts: number[] = [];
  for (let e = 0; e < input.edgeFrom.length; e++) {
    if (!edgeShown(layout, input, e)) continue;
    edgePath(layout, input, e, pts);
    if (!intersects(pathBounds(pts), vp)) continue;
    const crit = opt.critical?.has(input.edgeFrom[e]!) && opt.critical.has(input.edgeTo[e]!);
    const style = crit ? ` stroke="${CRITICAL_COLOUR}" stroke-width="1.5"` : '';
    if (pts.length === 4) out.push(`<line x1="${pts[0]!.toFixed(1)}" y1="${pts[1]!.toFixed(1)}" x2="${pts[2]!.toFixed(1)}" y2="${pts[3]!.toFixed(1)}"${style}/>`);
    else out.push(`<polyline points="${pts.map((v) => v.toFixed(1)).join(' ')}"${style}/>`);
  }
  out.push('</g><g class="nodes">');
  for (let i = 0; i < n; i++) {
    if (layout.hidden[i]) continue;
    const x = layout.x[i]!;
    const y = layout.y[i]!;
    const w = layout.w[i]!;
    const h = layout.h[i]!;
    if (!inView(x, y, w, h)) continue;
    const node = nodes[i]!;
    const crit = opt.critical?.has(i);
    const faded = opt.faded?.has(i);
    out.push(
      `<rect data-id="${xmlEscape(node.id)}" x="${x.toFixed(1)}" y="${y.toFixed(1)}" width="${w.toFixed(1)}" height="${h}" fill="${KIND_COLOUR[node.kind]}"${faded ? ' opacity="0.15"' : ''}${crit ? ` stroke="${CRITICAL_COLOUR}" stroke-width="1.2"` : ''}><title>${xmlEscape(`${node.id} ${nodeLabel(node)}`)}</title></rect>`,
    );
    if (layout.kind === 'layered') out.push(`<text x="${x + 1}" y="${y + h + 3}" font-size="3.5" fill="#333">${xmlEscape(nodeLabel(node))}</text>`);
  }
  out.push('</g></svg>');
  return out.join('\n');
}
