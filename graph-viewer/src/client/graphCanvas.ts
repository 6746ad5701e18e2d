/**
 * The graph drawn on a Canvas, zoomed and panned with d3-zoom: this class owns the canvas, the zoom,
 * pointer events and the order of drawing. Level of detail: labels only where they fit
 * (canvasLabels.ts), edges culled to the viewport and skipped while panning a very dense view
 * (canvasLayers.ts), boxes rasterised into a pixel buffer beyond BITMAP_MIN_NODES visible nodes
 * (canvasRaster.ts). Hit testing is pure (shared/hitTest.ts); the critical path and the selection sit
 * in an SVG overlay transformed with the canvas (canvasOverlay.ts).
 */
import { select } from 'd3-selection';
import { zoom, zoomIdentity, type ZoomBehavior, type ZoomTransform } from 'd3-zoom';
import { edgePath, pathMidpoint } from '../shared/edgeGeometry.ts';
import { edgeAt, NodeHitIndex } from '../shared/hitTest.ts';
import type { Layout, Rect } from '../shared/layoutTypes.ts';
import { drawTimeAxis } from './canvasAxis.ts';
import { paintFrameNames, paintLaneLabels, paintNodeLabels } from './canvasLabels.ts';
import { inView, paintBoxes, paintCriticalPath, paintEdges, paintFrames, paintRelated, type Paint } from './canvasLayers.ts';
import { CanvasOverlay, OVERLAY_MAX_CP } from './canvasOverlay.ts';
import { BoxRaster } from './canvasRaster.ts';
import type { GraphModel } from './model.ts';

/** Above this many visible nodes, boxes are rasterised into a pixel buffer (see canvasRaster.ts). */
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
  private readonly overlay: CanvasOverlay;
  private readonly ctx: CanvasRenderingContext2D;
  private readonly raster = new BoxRaster();
  private layout: Layout | null = null;
  private hits: NodeHitIndex | null = null;
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
    this.overlay = new CanvasOverlay(model);
    host.append(this.canvas, this.overlay.svg);
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
        this.overlay.setTransform(this.transform);
        this.requestDraw();
      });
    select(this.canvas).call(this.zoomer).on('dblclick.zoom', null);
    this.canvas.addEventListener('click', (ev) => this.cb.onSelect(this.hit(ev.clientX, ev.clientY)));
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
    this.overlay.setSize(r.width, r.height);
    this.requestDraw();
  }

  setLayout(layout: Layout, fit: boolean): void {
    this.layout = layout;
    this.hits = new NodeHitIndex(layout, this.model.input);
    this.overlay.render(layout, this.hl.selected, this.transform);
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
    this.overlay.setTransform(t);
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
    this.overlay.render(this.layout, hl.selected, this.transform);
    this.requestDraw();
  }

  /** Client position of a layout point. */
  private toClient(x: number, y: number): [number, number] {
    const r = this.canvas.getBoundingClientRect();
    const [sx, sy] = this.transform.apply([x, y]);
    return [r.left + sx, r.top + sy];
  }

  /** Layout position of a client point. */
  private toLayout(clientX: number, clientY: number): [number, number] {
    const r = this.canvas.getBoundingClientRect();
    return this.transform.invert([clientX - r.left, clientY - r.top]);
  }

  /** Screen (client) position of a node's centre. */
  screenPos(i: number): [number, number] {
    const l = this.layout!;
    return this.toClient(l.x[i]! + Math.min(l.w[i]!, 6) / 2, l.y[i]! + l.h[i]! / 2);
  }

  /** Screen (client) position of the point halfway along a graph edge's drawn polyline. */
  edgeScreenPos(k: number): [number, number] | null {
    const e = this.model.input.edgeSource.indexOf(k);
    if (!this.layout || e < 0) return null;
    const [mx, my] = pathMidpoint(edgePath(this.layout, this.model.input, e));
    return this.toClient(mx, my);
  }

  /** Current viewport in layout coordinates. */
  viewport(): Rect {
    const r = this.host.getBoundingClientRect();
    const [x0, y0] = this.transform.invert([0, 0]);
    const [x1, y1] = this.transform.invert([r.width, r.height]);
    return { x0, y0, x1, y1 };
  }

  /** The node under a client point (smallest box containing it, with a 3 px tolerance), or -1. */
  hit(clientX: number, clientY: number): number {
    if (!this.hits) return -1;
    const [x, y] = this.toLayout(clientX, clientY);
    return this.hits.nodeAt(x, y, 3 / this.transform.k);
  }

  /** The edge (graph.edges index) drawn within 4 px of a client point, or -1. */
  hitEdge(clientX: number, clientY: number): number {
    if (!this.layout) return -1;
    const [x, y] = this.toLayout(clientX, clientY);
    const e = edgeAt(this.layout, this.model.input, x, y, 4 / this.transform.k);
    return e < 0 ? -1 : this.model.input.edgeSource[e]!;
  }

  requestDraw(): void {
    if (this.frameRequested) return;
    this.frameRequested = requestAnimationFrame(() => {
      this.frameRequested = 0;
      this.draw();
    });
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
    ctx.setTransform(dpr * t.k, 0, 0, dpr * t.k, dpr * t.x, dpr * t.y);
    const p: Paint = { ctx, l, input: this.model.input, t, dpr, view: this.viewport() };
    const visible: number[] = [];
    for (let i = 0; i < l.x.length; i++) if (!l.hidden[i] && inView(p.view, l.x[i]!, l.y[i]!, l.w[i]!, l.h[i]!)) visible.push(i);
    const { mask, related } = this.hl;

    // Up close, vector paths; the overview of a big graph is rasterised, with the edges over it.
    let edges: number;
    let boxes: number;
    if (visible.length > BITMAP_MIN_NODES) {
      boxes = this.raster.draw(this.canvas, ctx, l, this.model.input, visible, mask, t, dpr, p.view);
      edges = paintEdges(p, mask, this.moving, visible.length);
    } else {
      paintFrames(p);
      paintFrameNames(p);
      edges = paintEdges(p, mask, this.moving, visible.length);
      boxes = paintBoxes(p, visible, mask);
    }
    if (this.model.critical.length > OVERLAY_MAX_CP) paintCriticalPath(p, this.model.critical);
    if (related && related.size) paintRelated(p, related);
    paintNodeLabels(p, visible, this.model.nodes);
    paintLaneLabels(p);
    if (l.axis) drawTimeAxis(ctx, l.axis, t, this.host.getBoundingClientRect().width, dpr);

    // Every visible node counts as rendered, including those merged into an occupied pixel.
    this.renderedNodes = visible.length;
    this.framesDrawn++;
    this.lastDrawMs = performance.now() - t0;
    this.canvas.dataset.renderedNodes = String(visible.length);
    this.canvas.dataset.renderedEdges = String(edges);
    this.canvas.dataset.drawnRects = String(boxes);
  }
}
