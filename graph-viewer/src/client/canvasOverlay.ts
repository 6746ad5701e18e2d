/**
 * The SVG laid over the canvas and transformed with it: what must stay crisp and inspectable (tests
 * read it) — the critical path (boxes and a polyline, up to OVERLAY_MAX_CP nodes) and the selection.
 */
import type { ZoomTransform } from 'd3-zoom';
import { CRITICAL_COLOUR } from '../shared/kinds.ts';
import type { Layout } from '../shared/layoutTypes.ts';
import type { GraphModel } from './model.ts';

const SVGNS = 'http://www.w3.org/2000/svg';
/** Longest critical path drawn as SVG elements; longer ones are drawn on the canvas (canvasLayers.ts):
 * thousands of SVG elements re-rasterised on every pan frame would cost more than the whole canvas. */
export const OVERLAY_MAX_CP = 400;

function svgEl(tag: string, attrs: Record<string, string | number>): SVGElement {
  const e = document.createElementNS(SVGNS, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  return e;
}

export class CanvasOverlay {
  readonly svg: SVGSVGElement;
  private readonly g: SVGGElement;

  constructor(private readonly model: GraphModel) {
    this.svg = document.createElementNS(SVGNS, 'svg');
    this.svg.setAttribute('class', 'graph-overlay');
    this.g = document.createElementNS(SVGNS, 'g');
    this.svg.appendChild(this.g);
  }

  setSize(width: number, height: number): void {
    this.svg.setAttribute('width', String(width));
    this.svg.setAttribute('height', String(height));
  }

  /** Follows the canvas' zoom; an empty overlay is hidden (it would still be repainted every pan frame). */
  setTransform(t: ZoomTransform): void {
    const empty = this.g.querySelector('rect, polyline') === null;
    this.svg.style.display = empty ? 'none' : '';
    if (!empty) this.g.setAttribute('transform', `translate(${t.x},${t.y}) scale(${t.k})`);
  }

  render(l: Layout | null, selected: number, t: ZoomTransform): void {
    while (this.g.firstChild) this.g.removeChild(this.g.firstChild);
    if (!l) return;
    const cp = this.model.critical;
    const path = svgEl('g', { class: 'critical-path', 'data-length': cp.length });
    if (cp.length <= OVERLAY_MAX_CP) {
      if (cp.length > 1) {
        const pts = cp.map((i) => `${l.x[i]! + l.w[i]! / 2},${l.y[i]! + l.h[i]! / 2}`).join(' ');
        path.appendChild(svgEl('polyline', { points: pts, fill: 'none', stroke: CRITICAL_COLOUR, 'stroke-width': 2, 'stroke-opacity': 0.7, 'vector-effect': 'non-scaling-stroke' }));
      }
      for (const i of cp) {
        path.appendChild(svgEl('rect', { x: l.x[i]!, y: l.y[i]!, width: l.w[i]!, height: l.h[i]!, fill: 'none', stroke: CRITICAL_COLOUR, 'stroke-width': 2, 'vector-effect': 'non-scaling-stroke', class: 'cp-node', 'data-id': this.model.nodes[i]!.id }));
      }
    }
    this.g.appendChild(path);
    if (selected >= 0) {
      const pad = 2;
      const s = selected;
      this.g.appendChild(svgEl('rect', { x: l.x[s]! - pad, y: l.y[s]! - pad, width: l.w[s]! + 2 * pad, height: l.h[s]! + 2 * pad, fill: 'none', stroke: '#00b7ff', 'stroke-width': 3, 'vector-effect': 'non-scaling-stroke', class: 'selected-node', 'data-id': this.model.nodes[s]!.id }));
    }
    this.setTransform(t);
  }
}
