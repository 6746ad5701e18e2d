/**
 * The graph drawn on a Canvas, zoomed and panned with d3-zoom, with level of detail: labels only
 * when rows are tall enough on screen and few nodes are visible, edges culled to the viewport and
 * skipped while panning a very dense view. Hit-testing uses a d3 quadtree over narrow nodes plus a
 * short list of wide ones (long downloads), so hover stays O(log n). An SVG overlay, transformed with
 * the canvas, carries what must stay crisp and inspectable: the critical path and the selection.
 */
import { quadtree, type Quadtree } from 'd3-quadtree';
import { select } from 'd3-selection';
import { zoom, zoomIdentity, type ZoomBehavior, type ZoomTransform } from 'd3-zoom';
import { CRITICAL_COLOUR, FRAME_FILL, FRAME_STROKE, KIND_COLOUR } from '../shared/kinds.ts';
import { scaleLinear } from 'd3-scale';
import type { Layout, TimeAxis } from '../shared/layoutTypes.ts';
import { timeToX } from '../shared/timeAxisLayout.ts';
import { nodeLabel } from '../shared/nodeText.ts';
import type { GraphModel } from './model.ts';

const SVGNS = 'http://www.w3.org/2000/svg';
const WIDE = 40;
/** Above this many visible edges, edges are left out while the user is panning/zooming. */
const EDGE_BUDGET_WHILE_MOVING = 6000;
/** Canvas drawing is rasterised after the script returns, and long anti-aliased lines dominate that
 * cost: while moving, edges are left out when their total on-screen length exceeds this (px). */
const EDGE_PIXELS_WHILE_MOVING = 150_000;
/** Longest critical path drawn as SVG elements; longer ones are drawn on the canvas. */
const OVERLAY_MAX_CP = 400;
/** Above this many visible nodes, boxes are rasterised into a pixel buffer (see blitNodes). */
const BITMAP_MIN_NODES = 3000;

export interface CanvasCallbacks {
  onSelect(i: number): void;
  onHover(i: number, clientX: number, clientY: number): void;
  /** An edge under the pointer (index into graph.edges) when no node is. */
  onHoverEdge(edge: number, clientX: number, clientY: number): void;
}

export interface Highlight {
  selected: number;
  related: Set<number> | null;
  mask: Uint8Array | null;
}

export class GraphCanvas {
  readonly canvas: HTMLCanvasElement;
  readonly overlay: SVGSVGElement;
  private readonly overlayG: SVGGElement;
  private readonly ctx: CanvasRenderingContext2D;
  private layout: Layout | null = null;
  private tree: Quadtree<number> | null = null;
  private wide: number[] = [];
  /** The first node of each collapsed frame stands for the frame's bar in hit-testing. */
  private collapsedRep = new Map<number, number>();
  private maxNarrowHalfW = WIDE / 2;
  private maxHalfH = 5;
  private transform: ZoomTransform = zoomIdentity;
  private readonly zoomer: ZoomBehavior<HTMLCanvasElement, unknown>;
  private frameRequested = 0;
  private moving = false;
  private movingTimer = 0;
  private hl: Highlight = { selected: -1, related: null, mask: null };
  /** Frames drawn, for the benchmark's fps measurement. */
  framesDrawn = 0;
  lastDrawMs = 0;
  /** Nodes drawn by the last full pass (the test compares it with the file). */
  renderedNodes = 0;

  constructor(
    private readonly host: HTMLElement,
    private readonly model: GraphModel,
    private readonly cb: CanvasCallbacks,
  ) {
    this.canvas = document.createElement('canvas');
    this.canvas.className = 'graph-canvas';
    this.overlay = document.createElementNS(SVGNS, 'svg');
    this.overlay.setAttribute('class', 'graph-overlay');
    this.overlayG = document.createElementNS(SVGNS, 'g');
    this.overlay.appendChild(this.overlayG);
    host.append(this.canvas, this.overlay);
    this.ctx = this.canvas.getContext('2d', { alpha: false })!;
    this.zoomer = zoom<HTMLCanvasElement, unknown>()
      .scaleExtent([1e-3, 40])
      .on('zoom', (ev: { transform: ZoomTransform }) => {
        this.transform = ev.transform;
        this.moving = true;
        clearTimeout(this.movingTimer);
        this.movingTimer = window.setTimeout(() => {
          this.moving = false;
          this.requestDraw();
        }, 150);
        this.applyOverlayTransform();
        this.requestDraw();
      });
    select(this.canvas).call(this.zoomer).on('dblclick.zoom', null);
    this.canvas.addEventListener('click', (ev) => {
      const i = this.hit(ev.clientX, ev.clientY);
      this.cb.onSelect(i);
    });
    this.canvas.addEventListener('mousemove', (ev) => {
      const i = this.hit(ev.clientX, ev.clientY);
      if (i >= 0) return this.cb.onHover(i, ev.clientX, ev.clientY);
      const e = this.hitEdge(ev.clientX, ev.clientY);
      if (e >= 0) this.cb.onHoverEdge(e, ev.clientX, ev.clientY);
      else this.cb.onHover(-1, ev.clientX, ev.clientY);
    });
    this.canvas.addEventListener('mouseleave', () => this.cb.onHover(-1, 0, 0));
    new ResizeObserver(() => this.resize()).observe(host);
    this.resize();
  }

  private resize(): void {
    const r = this.host.getBoundingClientRect();
    const dpr = window.devicePixelRatio || 1;
    this.canvas.width = Math.max(1, Math.round(r.width * dpr));
    this.canvas.height = Math.max(1, Math.round(r.height * dpr));
    this.canvas.style.width = `${r.width}px`;
    this.canvas.style.height = `${r.height}px`;
    this.overlay.setAttribute('width', String(r.width));
    this.overlay.setAttribute('height', String(r.height));
    this.requestDraw();
  }

  setLayout(layout: Layout, fit: boolean): void {
    this.layout = layout;
    const narrow: number[] = [];
    this.wide = [];
    this.maxNarrowHalfW = 0;
    this.maxHalfH = 0;
    this.collapsedRep.clear();
    for (let i = 0; i < layout.x.length; i++) {
      if (layout.hidden[i] && !this.collapsedRep.has(this.model.input.frame[i]!)) this.collapsedRep.set(this.model.input.frame[i]!, i);
      if (layout.w[i]! > WIDE) this.wide.push(i);
      else {
        narrow.push(i);
        this.maxNarrowHalfW = Math.max(this.maxNarrowHalfW, layout.w[i]! / 2);
      }
      this.maxHalfH = Math.max(this.maxHalfH, layout.h[i]! / 2);
    }
    this.tree = quadtree<number>()
      .x((i) => layout.x[i]! + layout.w[i]! / 2)
      .y((i) => layout.y[i]! + layout.h[i]! / 2)
      .addAll(narrow);
    this.renderOverlay();
    if (fit) this.fit();
    else this.requestDraw();
  }

  fit(): void {
    const l = this.layout;
    if (!l) return;
    const r = this.host.getBoundingClientRect();
    const pad = 20;
    const k = Math.min((r.width - 2 * pad) / Math.max(1, l.width + 20), (r.height - 2 * pad) / Math.max(1, l.height + 20));
    const t = zoomIdentity.translate(pad + 10 * k, pad + 10 * k).scale(k);
    select(this.canvas).call(this.zoomer.transform, t);
    this.transform = t;
    this.applyOverlayTransform();
    this.requestDraw();
  }

  /** Pans (in screen px) as a user drag would; the benchmark drives this. */
  panBy(dx: number, dy: number): void {
    select(this.canvas).call(this.zoomer.translateBy, dx / this.transform.k, dy / this.transform.k);
  }

  /** Centres a node and makes its row readable. */
  focus(i: number): void {
    const l = this.layout;
    if (!l || i < 0) return;
    const r = this.host.getBoundingClientRect();
    // Rows readable (12 px), but a long activity still fits in 60 % of the width.
    const k = Math.min(Math.max(this.transform.k, 12 / Math.max(1, l.h[i]!)), (0.6 * r.width) / Math.max(1, l.w[i]!));
    const t = zoomIdentity.translate(r.width / 2 - k * (l.x[i]! + l.w[i]! / 2), r.height / 2 - k * (l.y[i]! + l.h[i]! / 2)).scale(k);
    select(this.canvas).call(this.zoomer.transform, t);
  }

  setHighlight(hl: Highlight): void {
    this.hl = hl;
    this.renderOverlay();
    this.requestDraw();
  }

  /** Screen (client) position of a node's centre. */
  screenPos(i: number): [number, number] {
    const l = this.layout!;
    const r = this.canvas.getBoundingClientRect();
    const [sx, sy] = this.transform.apply([l.x[i]! + Math.min(l.w[i]!, 6) / 2, l.y[i]! + l.h[i]! / 2]);
    return [r.left + sx, r.top + sy];
  }

  /** Screen (client) position of the middle of a graph edge's drawn segment. */
  edgeScreenPos(k: number): [number, number] | null {
    const l = this.layout;
    const input = this.model.input;
    const e = input.edgeSource.indexOf(k);
    if (!l || e < 0) return null;
    const a = input.edgeFrom[e]!;
    const b = input.edgeTo[e]!;
    const mx = (l.x[a]! + l.w[a]! + l.x[b]!) / 2;
    const my = (l.y[a]! + l.h[a]! / 2 + l.y[b]! + l.h[b]! / 2) / 2;
    const r = this.canvas.getBoundingClientRect();
    const [sx, sy] = this.transform.apply([mx, my]);
    return [r.left + sx, r.top + sy];
  }

  /** Current viewport in layout coordinates. */
  viewport(): { x0: number; y0: number; x1: number; y1: number } {
    const r = this.host.getBoundingClientRect();
    const [x0, y0] = this.transform.invert([0, 0]);
    const [x1, y1] = this.transform.invert([r.width, r.height]);
    return { x0, y0, x1, y1 };
  }

  /** The node under a client point (smallest box containing it, with a 3 px tolerance), or -1. */
  hit(clientX: number, clientY: number): number {
    const l = this.layout;
    if (!l || !this.tree) return -1;
    const r = this.canvas.getBoundingClientRect();
    const [lx, ly] = this.transform.invert([clientX - r.left, clientY - r.top]);
    const tol = 3 / this.transform.k;
    let best = -1;
    let bestArea = Infinity;
    const consider = (i: number): void => {
      if (l.hidden[i] && !this.isCollapsedRep(i)) return;
      if (lx < l.x[i]! - tol || lx > l.x[i]! + l.w[i]! + tol || ly < l.y[i]! - tol || ly > l.y[i]! + l.h[i]! + tol) return;
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
      return x0 > lx + rx || x1 < lx - rx || y0 > ly + ry || y1 < ly - ry;
    });
    for (const i of this.wide) consider(i);
    return best;
  }

  /** The edge (graph.edges index) whose drawn segment passes within 4 px of a client point, or -1.
   * A linear scan: cheap next to a frame's drawing, and only run on pointer moves. */
  hitEdge(clientX: number, clientY: number): number {
    const l = this.layout;
    if (!l) return -1;
    const input = this.model.input;
    const r = this.canvas.getBoundingClientRect();
    const [px, py] = this.transform.invert([clientX - r.left, clientY - r.top]);
    const tol = 4 / this.transform.k;
    let best = -1;
    let bestD = tol * tol;
    for (let e = 0; e < input.edgeFrom.length; e++) {
      const a = input.edgeFrom[e]!;
      const b = input.edgeTo[e]!;
      if (l.hidden[a] && l.hidden[b]) continue;
      const ax = l.x[a]! + l.w[a]!;
      const ay = l.y[a]! + l.h[a]! / 2;
      const bx = l.x[b]!;
      const by = l.y[b]! + l.h[b]! / 2;
      if (px < Math.min(ax, bx) - tol || px > Math.max(ax, bx) + tol || py < Math.min(ay, by) - tol || py > Math.max(ay, by) + tol) continue;
      const dx = bx - ax;
      const dy = by - ay;
      const len2 = dx * dx + dy * dy;
      const u = len2 === 0 ? 0 : Math.max(0, Math.min(1, ((px - ax) * dx + (py - ay) * dy) / len2));
      const qx = ax + u * dx - px;
      const qy = ay + u * dy - py;
      const d = qx * qx + qy * qy;
      if (d <= bestD) {
        bestD = d;
        best = input.edgeSource[e]!;
      }
    }
    return best;
  }

  /** Nodes in collapsed frames are hit as the frame's bar: report the first of them. */
  private isCollapsedRep(i: number): boolean {
    return this.collapsedRep.get(this.model.input.frame[i]!) === i;
  }

  requestDraw(): void {
    if (this.frameRequested) return;
    this.frameRequested = requestAnimationFrame(() => {
      this.frameRequested = 0;
      this.draw();
    });
  }

  private applyOverlayTransform(): void {
    // An empty overlay would still be repainted on every pan frame: hide it instead.
    const empty = this.overlayG.querySelector('rect, polyline') === null;
    this.overlay.style.display = empty ? 'none' : '';
    if (empty) return;
    const t = this.transform;
    this.overlayG.setAttribute('transform', `translate(${t.x},${t.y}) scale(${t.k})`);
  }

  /** Critical path and selection as SVG: few elements, always crisp, inspectable by tests. */
  private renderOverlay(): void {
    const l = this.layout;
    while (this.overlayG.firstChild) this.overlayG.removeChild(this.overlayG.firstChild);
    if (!l) return;
    const mk = (tag: string, attrs: Record<string, string | number>): SVGElement => {
      const e = document.createElementNS(SVGNS, tag);
      for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
      return e;
    };
    const cp = this.model.critical;
    const g = mk('g', { class: 'critical-path', 'data-length': cp.length });
    // Thousands of SVG elements re-rasterised on every pan frame would cost more than the whole canvas:
    // past OVERLAY_MAX_CP the canvas draws the path itself (see draw()).
    if (cp.length > OVERLAY_MAX_CP) {
      this.overlayG.appendChild(g);
    } else if (cp.length > 1) {
      const pts = cp.map((i) => `${l.x[i]! + l.w[i]! / 2},${l.y[i]! + l.h[i]! / 2}`).join(' ');
      g.appendChild(mk('polyline', { points: pts, fill: 'none', stroke: CRITICAL_COLOUR, 'stroke-width': 2, 'stroke-opacity': 0.7, 'vector-effect': 'non-scaling-stroke' }));
    }
    if (cp.length <= OVERLAY_MAX_CP) for (const i of cp) {
      const r = mk('rect', { x: l.x[i]!, y: l.y[i]!, width: l.w[i]!, height: l.h[i]!, fill: 'none', stroke: CRITICAL_COLOUR, 'stroke-width': 2, 'vector-effect': 'non-scaling-stroke', class: 'cp-node' });
      r.setAttribute('data-id', this.model.nodes[i]!.id);
      g.appendChild(r);
    }
    if (!g.parentNode) this.overlayG.appendChild(g);
    const s = this.hl.selected;
    this.overlay.style.display = '';
    if (s >= 0) {
      const pad = 2;
      const r = mk('rect', { x: l.x[s]! - pad, y: l.y[s]! - pad, width: l.w[s]! + 2 * pad, height: l.h[s]! + 2 * pad, fill: 'none', stroke: '#00b7ff', 'stroke-width': 3, 'vector-effect': 'non-scaling-stroke', class: 'selected-node' });
      r.setAttribute('data-id', this.model.nodes[s]!.id);
      this.overlayG.appendChild(r);
    }
    this.applyOverlayTransform();
  }

  private pixels: { img: ImageData; buf: Uint32Array; layer: HTMLCanvasElement } | null = null;

  /** Rasterises node boxes into a device-pixel buffer and draws it over what is already on the canvas. */
  private blitNodes(
    visible: number[],
    l: Layout,
    kinds: string[],
    kindNo: Map<string, number>,
    mask: Uint8Array | null,
    dpr: number,
    vis: (x: number, y: number, w: number, h: number) => boolean,
  ): number {
    const W = this.canvas.width;
    const H = this.canvas.height;
    if (!this.pixels || this.pixels.img.width !== W || this.pixels.img.height !== H) {
      const img = new ImageData(W, H);
      const layer = document.createElement('canvas');
      layer.width = W;
      layer.height = H;
      this.pixels = { img, buf: new Uint32Array(img.data.buffer), layer };
    }
    const { img, buf, layer } = this.pixels;
    buf.fill(0);
    // RGBA bytes in memory = ABGR as a little-endian uint32.
    const colour = (hex: string, alpha: number): number => {
      const v = parseInt(hex.slice(1), 16);
      return ((alpha << 24) | ((v & 0xff) << 16) | (v & 0xff00) | ((v >> 16) & 0xff)) >>> 0;
    };
    const solid = kinds.map((kk) => colour(KIND_COLOUR[kk as keyof typeof KIND_COLOUR], 255));
    // Faded boxes sit on a frame's grey: blend them with it (12 %, as the vector path's alpha) so the
    // buffer stays opaque there.
    const blend = (hex: string, over: string, a: number): string => {
      const p = parseInt(hex.slice(1), 16);
      const q = parseInt(over.slice(1), 16);
      const ch = (sh: number): number => Math.round(((p >> sh) & 0xff) * a + ((q >> sh) & 0xff) * (1 - a));
      return `#${((ch(16) << 16) | (ch(8) << 8) | ch(0)).toString(16).padStart(6, '0')}`;
    };
    const faded = kinds.map((kk) => colour(blend(KIND_COLOUR[kk as keyof typeof KIND_COLOUR], FRAME_FILL, 0.12), 255));
    const t = this.transform;
    const sx = t.k * dpr;
    const ox = t.x * dpr;
    const oy = t.y * dpr;
    const input = this.model.input;
    const box = (x: number, y: number, w: number, h: number, c: number): void => {
      const x0 = Math.max(0, Math.floor(x * sx + ox));
      const x1 = Math.min(W, Math.max(Math.floor(x * sx + ox) + 1, Math.round((x + w) * sx + ox)));
      const y0 = Math.max(0, Math.floor(y * sx + oy));
      const y1 = Math.min(H, Math.max(Math.floor(y * sx + oy) + 1, Math.round((y + h) * sx + oy)));
      for (let yy = y0; yy < y1; yy++) buf.fill(c, yy * W + x0, yy * W + x1);
    };
    // Frames: a 1 px border of the stroke colour around the fill.
    const border = colour(FRAME_STROKE, 255);
    const fills = [colour(FRAME_FILL, 255), colour('#cfcfcf', 255)];
    for (const g of l.groups) {
      if (!vis(g.x, g.y, g.w, g.h)) continue;
      box(g.x, g.y, g.w, g.h, border);
      const b = 1 / sx;
      box(g.x + b, g.y + b, g.w - 2 * b, g.h - 2 * b, fills[g.collapsed ? 1 : 0]!);
    }
    // Faded boxes first so matching ones are painted over them.
    for (const pass of [1, 0]) {
      for (const i of visible) {
        const isFaded = mask !== null && !mask[i] ? 1 : 0;
        if (isFaded !== pass) continue;
        box(l.x[i]!, l.y[i]!, l.w[i]!, l.h[i]!, (isFaded ? faded : solid)[kindNo.get(input.kinds[i]!)!]!);
      }
    }
    layer.getContext('2d')!.putImageData(img, 0, 0);
    const ctx = this.ctx;
    ctx.save();
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.drawImage(layer, 0, 0);
    ctx.restore();
    return visible.length;
  }

  /** Time ticks along the top of the time layout (screen space), with the tail break marked. */
  private drawAxis(a: TimeAxis, dpr: number): void {
    const ctx = this.ctx;
    const t = this.transform;
    const r = this.host.getBoundingClientRect();
    ctx.save();
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.fillStyle = 'rgba(255,255,255,0.85)';
    ctx.fillRect(0, 0, r.width, 14);
    ctx.font = '9px sans-serif';
    ctx.fillStyle = '#555';
    ctx.strokeStyle = '#999';
    ctx.lineWidth = 1;
    const x0 = t.invertX(0);
    const x1 = t.invertX(r.width);
    const tAt = (x: number): number => {
      const xb = (a.breakT - a.origin) * a.pxPerMs;
      return x <= xb ? a.origin + x / a.pxPerMs : a.breakT + (x - xb) / a.tailPxPerMs;
    };
    // Ticks for the linear part and the compressed tail separately, each spaced for its screen width.
    const xb = (a.breakT - a.origin) * a.pxPerMs;
    const parts: [number, number][] = [[Math.max(0, x0), Math.min(xb, x1)], [Math.max(xb, x0), x1]];
    ctx.beginPath();
    for (const [p0, p1] of parts) {
      if (p1 <= p0) continue;
      const screenW = (p1 - p0) * t.k;
      if (screenW < 40) continue;
      for (const tick of scaleLinear().domain([tAt(p0), tAt(p1)]).ticks(Math.max(1, Math.floor(screenW / 90)))) {
        const sx = t.applyX(timeToX(a, tick));
        ctx.moveTo(sx, 10);
        ctx.lineTo(sx, 14);
        ctx.fillText(tick >= 1000 ? `${+(tick / 1000).toFixed(2)} s` : `${+tick.toFixed(1)} ms`, sx + 2, 9);
      }
    }
    ctx.stroke();
    const sb = t.applyX(timeToX(a, a.breakT));
    if (a.tailPxPerMs < a.pxPerMs && sb > 0 && sb < r.width) {
      ctx.fillStyle = '#a00';
      ctx.fillText('⫽ compressed', sb + 2, 9);
    }
    ctx.restore();
  }

  private draw(): void {
    const t0 = performance.now();
    const l = this.layout;
    const ctx = this.ctx;
    const dpr = window.devicePixelRatio || 1;
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.fillStyle = '#ffffff';
    ctx.fillRect(0, 0, this.canvas.width, this.canvas.height);
    if (!l) return;
    const t = this.transform;
    const k = t.k;
    ctx.setTransform(dpr * k, 0, 0, dpr * k, dpr * t.x, dpr * t.y);
    const { x0, y0, x1, y1 } = this.viewport();
    const px = 1 / k; // one screen pixel in layout units
    const vis = (x: number, y: number, w: number, h: number): boolean => x + w >= x0 && x <= x1 && y + h >= y0 && y <= y1;
    const input = this.model.input;

    // Nodes visible in this viewport.
    const n = l.x.length;
    const visible: number[] = [];
    for (let i = 0; i < n; i++) {
      if (l.hidden[i]) continue;
      if (vis(l.x[i]!, l.y[i]!, l.w[i]!, l.h[i]!)) visible.push(i);
    }

    // Overview of a big graph: frames and boxes are rasterised by hand (see blitNodes).
    const bitmap = visible.length > BITMAP_MIN_NODES;

    // Frames: grey groups, labelled when there is room.
    // Batched into one path per fill (the layered layout has a group per layer run: thousands).
    ctx.lineWidth = px;
    if (!bitmap) {
      const open = new Path2D();
      const shut = new Path2D();
      for (const g of l.groups) {
        if (!vis(g.x, g.y, g.w, g.h)) continue;
        (g.collapsed ? shut : open).rect(g.x, g.y, g.w, g.h);
      }
      ctx.fillStyle = FRAME_FILL;
      ctx.fill(open);
      ctx.fillStyle = '#cfcfcf';
      ctx.fill(shut);
      ctx.strokeStyle = FRAME_STROKE;
      ctx.stroke(open);
      ctx.stroke(shut);
    }
    // Frame names (time layout: in each group's header band, once it is tall enough to read).
    if (l.kind === 'time' && k * 14 >= 9) {
      ctx.save();
      ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
      ctx.font = '10px sans-serif';
      ctx.fillStyle = '#444';
      for (const g of l.groups) {
        if (!vis(g.x, g.y, g.w, g.h)) continue;
        const f = input.frames[g.frame];
        ctx.fillText(`${g.collapsed ? '▸ ' : ''}${f?.url || f?.id || ''}`, Math.max(2, t.applyX(g.x) + 4), t.applyY(g.y) + 11, 600);
      }
      ctx.restore();
    }

    const mask = this.hl.mask;
    let edgeCount = 0;
    let edgePixels = 0;
    const drawEdges = (): void => {
      // Edges, culled by their bounding box; left out while moving through a very dense view.
      const E = input.edgeFrom.length;
      if (!(this.moving && E > EDGE_BUDGET_WHILE_MOVING && visible.length > EDGE_BUDGET_WHILE_MOVING / 2)) {
        ctx.beginPath();
        for (let e = 0; e < E; e++) {
          const a = input.edgeFrom[e]!;
          const b = input.edgeTo[e]!;
          if (l.hidden[a] && l.hidden[b] && input.frame[a] === input.frame[b]) continue;
          if (mask && !mask[a] && !mask[b]) continue;
          const ax = l.x[a]! + l.w[a]!;
          const ay = l.y[a]! + l.h[a]! / 2;
          const bx = l.x[b]!;
          const by = l.y[b]! + l.h[b]! / 2;
          if (Math.max(ax, bx) < x0 || Math.min(ax, bx) > x1 || Math.max(ay, by) < y0 || Math.min(ay, by) > y1) continue;
          ctx.moveTo(ax, ay);
          ctx.lineTo(bx, by);
          edgeCount++;
          edgePixels += (Math.abs(bx - ax) + Math.abs(by - ay)) * k;
        }
        if (this.moving && edgePixels > EDGE_PIXELS_WHILE_MOVING) {
          edgeCount = 0; // drawn again when the movement stops
        } else {
          ctx.strokeStyle = edgeCount > 3000 ? 'rgba(110,110,110,0.25)' : 'rgba(110,110,110,0.6)';
          ctx.lineWidth = px;
          ctx.stroke();
        }
      }


    };
    if (!bitmap) drawEdges();

    // Nodes. Up close: one vector path per colour (and per faded state), a handful of fill calls.
    // Overview of a big graph (thousands of boxes a pixel or two high): the boxes are rasterised by
    // hand into a pixel buffer (typed-array fills, no anti-aliasing) and blitted in one drawImage,
    // because thousands of anti-aliased sub-pixel rectangles cost far more to rasterise than to script.
    const minW = px;
    const kinds = Object.keys(KIND_COLOUR) as (keyof typeof KIND_COLOUR)[];
    const kindNo = new Map(kinds.map((kk, j) => [kk, j]));
    let drawnRects = 0;
    if (bitmap) {
      drawnRects = this.blitNodes(visible, l, kinds, kindNo, mask, dpr, vis);
      drawEdges(); // over the blitted frames and boxes
    } else {
      const buckets: number[][] = Array.from({ length: kinds.length * 2 }, () => []);
      for (const i of visible) buckets[kindNo.get(input.kinds[i]!)! * 2 + (mask !== null && !mask[i] ? 1 : 0)]!.push(i);
      buckets.forEach((list, b) => {
        drawnRects += list.length;
        if (list.length === 0) return;
        ctx.globalAlpha = b % 2 === 1 ? 0.12 : 1;
        ctx.fillStyle = KIND_COLOUR[kinds[b >> 1]!];
        ctx.beginPath();
        for (const i of list) ctx.rect(l.x[i]!, l.y[i]!, Math.max(minW, l.w[i]!), Math.max(minW, l.h[i]!));
        ctx.fill();
      });
    }
    ctx.globalAlpha = 1;

    const cp = this.model.critical;
    if (cp.length > OVERLAY_MAX_CP) {
      // Simplified on screen: a point closer than 2 px to the last one drawn adds nothing visible.
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
      ctx.lineWidth = 2 * px;
      ctx.stroke();
    }
    // Ancestors/descendants of the selection: outlined.
    if (this.hl.related && this.hl.related.size) {
      ctx.beginPath();
      for (const i of this.hl.related) if (!l.hidden[i]) ctx.rect(l.x[i]!, l.y[i]!, l.w[i]!, l.h[i]!);
      ctx.strokeStyle = '#00b7ff';
      ctx.lineWidth = 2 * px;
      ctx.stroke();
    }

    // Level of detail: labels once a row is at least 9 px tall on screen and the view is not crowded.
    const rowPx = (l.kind === 'time' ? 8 : 10) * k;
    if (rowPx >= 9 && visible.length < 2500) {
      ctx.save();
      ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
      ctx.font = '10px sans-serif';
      ctx.textBaseline = 'middle';
      // A label goes inside a box wide enough for it, else to its right up to the next box of the
      // same row; labels that do not fit even shortened are left out rather than drawn over others.
      const rows = new Map<number, number[]>();
      for (const i of visible) {
        const list = rows.get(l.y[i]!);
        if (list) list.push(i);
        else rows.set(l.y[i]!, [i]);
      }
      const charW = 5.6;
      for (const list of rows.values()) {
        list.sort((a, b) => l.x[a]! - l.x[b]!);
        list.forEach((i, j) => {
          const [sx, sy] = t.apply([l.x[i]!, l.y[i]! + l.h[i]! / 2]);
          const boxW = l.w[i]! * k;
          const next = list[j + 1];
          const limit = next === undefined ? Infinity : t.applyX(l.x[next]!) - 3;
          const text = nodeLabel(this.model.nodes[i]!);
          const inside = boxW - 6 >= Math.min(text.length * charW, 60);
          const x0 = inside ? sx + 3 : sx + Math.max(boxW, 2) + 3;
          const room = (inside ? boxW - 6 : limit - x0);
          if (room < 3 * charW) return;
          const fit = Math.floor(room / charW);
          ctx.fillStyle = inside ? '#fff' : '#222';
          ctx.fillText(text.length > fit ? `${text.slice(0, Math.max(1, fit - 1))}…` : text, x0, sy);
        });
      }
      ctx.restore();
    }
    // Lane labels in the time layout.
    if (l.kind === 'time' && k * 8 >= 5) {
      ctx.save();
      ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
      ctx.font = '9px sans-serif';
      ctx.fillStyle = '#666';
      for (const lane of l.lanes) {
        if (lane.y + lane.h < y0 || lane.y > y1) continue;
        ctx.fillText(lane.label, 4, t.applyY(lane.y) + 8);
      }
      ctx.restore();
    }
    if (l.axis) this.drawAxis(l.axis, dpr);
    // Every visible node counts as rendered, including those merged into an occupied pixel.
    this.renderedNodes = visible.length;
    this.framesDrawn++;
    this.lastDrawMs = performance.now() - t0;
    this.canvas.dataset.renderedNodes = String(visible.length);
    this.canvas.dataset.renderedEdges = String(edgeCount);
    this.canvas.dataset.drawnRects = String(drawnRects);
  }
}
