/**
 * Waterfalls (SVG, d3): the recorded one of a graph (resources split into queued / request / server
 * delay / download, then main-thread computations packed into rows, DOMContentLoaded and load lines,
 * critical-path items marked) and the emulator's simulated one, drawn with the same row order so
 * they can be read side by side. Names and URLs are set with d3 .text() only.
 */
import { select } from 'd3-selection';
import { scaleLinear } from 'd3-scale';
import type { GraphNode } from '@pcp/graph-builder';
import { isComputation, KIND_COLOUR, CRITICAL_COLOUR } from '../shared/kinds.ts';
import { markerTime } from '../shared/summary.ts';
import { shortUrl } from '../shared/escape.ts';
import type { SimulationResult } from './api.ts';
import type { GraphModel } from './model.ts';

export interface Segment {
  from: number;
  to: number;
  phase: string;
  fill: string;
}

export interface Row {
  /** Node index for selection, -1 for shared rows. */
  node: number;
  label: string;
  title: string;
  segments: Segment[];
  critical: boolean;
}

export interface WaterfallData {
  title: string;
  rows: Row[];
  lines: { t: number; label: string; colour: string }[];
  tMax: number;
}

export const PHASE_COLOUR: Record<string, string> = {
  queued: '#d9d9d9',
  handshake: '#f2c14e',
  request: '#9ecae1',
  serverDelay: '#8856a7',
  serverBuffer: '#c994c7',
  download: '#1f5fd1',
  transfer: '#1f5fd1',
};

/** Recorded resource phases. `queued` runs from the moment the resource became discoverable (its
 * latest parent's end) to the request; the request-to-first-byte wait ends with the server delay
 * when the graph has one; the download runs to the end. */
export function recordedWaterfall(model: GraphModel): WaterfallData {
  const g = model.graph;
  const nodes = model.nodes;
  const firstChunk = new Map<string, number>();
  for (const n of nodes) if (n.kind === 'download_chunk') firstChunk.set(n.resource, Math.min(firstChunk.get(n.resource) ?? Infinity, n.start));
  const resources: number[] = [];
  const comps: number[] = [];
  nodes.forEach((n, i) => {
    if (n.kind === 'resource') resources.push(i);
    else if (isComputation(n.kind)) comps.push(i);
  });
  resources.sort((a, b) => nodes[a]!.start - nodes[b]!.start || a - b);
  const rows: Row[] = [];
  let tMax = 0;
  for (const i of resources) {
    const r = nodes[i] as Extract<GraphNode, { kind: 'resource' }>;
    let discovered = r.start;
    let latestParent = -Infinity;
    for (const k of model.inEdges[i]!) latestParent = Math.max(latestParent, nodes[model.index.get(model.edge(k).from)!]!.end);
    if (latestParent > -Infinity && latestParent <= r.start) discovered = latestParent;
    const first = Math.min(r.end, Math.max(r.start, r.responseStart ?? firstChunk.get(r.id) ?? r.start));
    const sd = Math.min(r.serverDelay ?? 0, first - r.start);
    const segments: Segment[] = [];
    if (discovered < r.start) segments.push({ from: discovered, to: r.start, phase: 'queued', fill: PHASE_COLOUR.queued! });
    if (first - sd > r.start) segments.push({ from: r.start, to: first - sd, phase: 'request', fill: PHASE_COLOUR.request! });
    if (sd > 0) segments.push({ from: first - sd, to: first, phase: 'serverDelay', fill: PHASE_COLOUR.serverDelay! });
    segments.push({ from: first, to: Math.max(first, r.end), phase: 'download', fill: PHASE_COLOUR.download! });
    tMax = Math.max(tMax, r.end);
    rows.push({ node: i, label: shortUrl(r.url, 36), title: r.url, segments, critical: model.criticalSet.has(i) });
  }
  // Main-thread computations, packed greedily into as few rows as overlap allows.
  comps.sort((a, b) => nodes[a]!.start - nodes[b]!.start || a - b);
  const rowEnds: number[] = [];
  const compRows: Row[] = [];
  for (const i of comps) {
    const n = nodes[i]!;
    let r = rowEnds.findIndex((e) => e <= n.start);
    if (r < 0) {
      r = rowEnds.length;
      rowEnds.push(0);
      compRows.push({ node: -1, label: r === 0 ? 'main thread' : '', title: 'main-thread computations', segments: [], critical: false });
    }
    rowEnds[r] = n.end;
    compRows[r]!.segments.push({ from: n.start, to: Math.max(n.end, n.start), phase: n.kind, fill: KIND_COLOUR[n.kind] });
    tMax = Math.max(tMax, n.end);
  }
  rows.push(...compRows);
  const lines = [];
  const dcl = markerTime(g, g.markers.domContentLoaded);
  const load = markerTime(g, g.markers.load);
  if (dcl !== null) lines.push({ t: dcl, label: 'DOMContentLoaded', colour: '#1f77b4' });
  if (load !== null) lines.push({ t: load, label: 'load', colour: '#d62728' });
  for (const l of lines) tMax = Math.max(tMax, l.t);
  // A long post-load tail (late timers, beacons) would squeeze the load into a sliver: show up to a
  // quarter past the load event, or up to where 95 % of the bars end if that is later.
  const ends = rows.flatMap((r) => r.segments.map((s) => s.to)).sort((a, b) => a - b);
  const p95 = ends[Math.floor(0.95 * (ends.length - 1))] ?? tMax;
  if (load !== null) tMax = Math.min(tMax, Math.max(load * 1.25, p95));
  return { title: 'recorded', rows, lines, tMax };
}

/** The emulator's waterfall in the recorded row order (resources it did not fetch are left empty). */
export function simulatedWaterfall(model: GraphModel, recorded: WaterfallData, sim: SimulationResult, title: string): WaterfallData {
  const byId = new Map(sim.resources.map((r) => [r.id, r]));
  let tMax = sim.endTime;
  const rows: Row[] = recorded.rows
    .filter((row) => row.node >= 0)
    .map((row) => {
      const node = model.nodes[row.node]!;
      const r = byId.get(node.id);
      const segments: Segment[] = [];
      if (r) {
        // The emulator reports phase durations; lay them end to end from the request's start.
        let t = r.start;
        for (const phase of ['queued', 'handshake', 'request', 'serverDelay', 'serverBuffer', 'transfer'] as const) {
          const d = r[phase];
          if (d > 0) segments.push({ from: t, to: t + d, phase, fill: PHASE_COLOUR[phase]! });
          t += d > 0 ? d : 0;
        }
        tMax = Math.max(tMax, r.end);
      }
      return { ...row, segments };
    });
  // Main-thread computations as the emulator scheduled them, packed like the recorded ones.
  const simNodes = new Map(sim.nodes.map((x) => [x.id, x]));
  const comps = model.nodes
    .map((node, i) => ({ node, i, t: simNodes.get(node.id) }))
    .filter((c) => isComputation(c.node.kind) && c.t !== undefined)
    .sort((a, b) => a.t!.start - b.t!.start || a.i - b.i);
  const rowEnds: number[] = [];
  const compRows: Row[] = [];
  for (const c of comps) {
    let r = rowEnds.findIndex((e) => e <= c.t!.start);
    if (r < 0) {
      r = rowEnds.length;
      rowEnds.push(0);
      compRows.push({ node: -1, label: r === 0 ? 'main thread' : '', title: 'main-thread computations (simulated)', segments: [], critical: false });
    }
    rowEnds[r] = c.t!.end;
    compRows[r]!.segments.push({ from: c.t!.start, to: Math.max(c.t!.end, c.t!.start), phase: c.node.kind, fill: KIND_COLOUR[c.node.kind] });
  }
  rows.push(...compRows);
  return {
    title,
    rows,
    lines: [
      { t: sim.domContentLoadedTime, label: 'DOMContentLoaded', colour: '#1f77b4' },
      { t: sim.loadTime, label: 'load', colour: '#d62728' },
    ],
    tMax,
  };
}

const ROW_H = 12;
const LABEL_W = 170;

export interface WaterfallView {
  svg: SVGSVGElement;
  setSelected(i: number): void;
}

/** Draws a waterfall; `tMax` lets several waterfalls share one time scale. */
export function drawWaterfall(container: HTMLElement, data: WaterfallData, width: number, onSelect: (i: number) => void, tMax = data.tMax, labelW = LABEL_W): WaterfallView {
  const height = data.rows.length * ROW_H + 44;
  const x = scaleLinear().domain([0, Math.max(1, tMax)]).range([labelW || 14, Math.max(labelW + 50, width - 10)]);
  const svg = select(container)
    .append('svg')
    .attr('class', 'waterfall')
    .attr('xmlns', 'http://www.w3.org/2000/svg')
    .attr('width', width)
    .attr('height', height)
    .attr('font-family', 'sans-serif')
    .attr('font-size', 9);
  svg.append('text').attr('class', 'wf-title').attr('x', 4).attr('y', 10).attr('font-weight', 'bold').text(data.title);
  const beyond = data.rows.reduce((c, r) => c + r.segments.filter((s) => s.to > tMax).length, 0);
  if (beyond > 0 && width >= 500) svg.append('text').attr('x', width - 6).attr('y', 10).attr('text-anchor', 'end').attr('fill', '#a00').text(`${beyond} bars continue past ${Math.round(tMax)} ms →`);
  const ticks = x.ticks(Math.max(2, Math.floor((width - labelW) / 75)));
  const axis = svg.append('g').attr('class', 'axis');
  axis
    .selectAll('text')
    .data(ticks)
    .join('text')
    .attr('x', (d) => x(d))
    .attr('y', 21)
    .attr('text-anchor', 'middle')
    .attr('fill', '#666')
    .text((d) => `${d} ms`);
  axis
    .selectAll('line')
    .data(ticks)
    .join('line')
    .attr('x1', (d) => x(d))
    .attr('x2', (d) => x(d))
    .attr('y1', 24)
    .attr('y2', height)
    .attr('stroke', '#eee');
  const body = svg.append('g').attr('transform', 'translate(0,26)');
  svg.attr('overflow', 'hidden');
  const rows = body
    .selectAll('g.row')
    .data(data.rows)
    .join('g')
    .attr('class', (d) => `row${d.critical ? ' critical' : ''}`)
    .attr('data-node', (d) => d.node)
    .attr('transform', (_d, k) => `translate(0,${k * ROW_H})`);
  rows
    .append('rect')
    .attr('class', 'row-bg')
    .attr('x', 0)
    .attr('width', width)
    .attr('height', ROW_H)
    .attr('fill', 'transparent');
  rows
    .filter(() => labelW > 0)
    .append('text')
    .attr('x', 10)
    .attr('y', ROW_H - 3)
    .attr('fill', (d) => (d.critical ? CRITICAL_COLOUR : '#333'))
    .text((d) => d.label)
    .append('title')
    .text((d) => d.title);
  rows
    .filter((d) => d.critical)
    .append('text')
    .attr('x', 1)
    .attr('y', ROW_H - 3)
    .attr('fill', CRITICAL_COLOUR)
    .text('●');
  rows
    .selectAll('rect.seg')
    .data((d) => d.segments)
    .join('rect')
    .attr('class', (s) => `seg ${s.phase}`)
    .attr('x', (s) => x(s.from))
    .attr('y', 2)
    .attr('width', (s) => Math.max(1, x(s.to) - x(s.from)))
    .attr('height', ROW_H - 4)
    .attr('fill', (s) => s.fill)
    .append('title')
    .text((s) => `${s.phase}: ${s.from.toFixed(1)}–${s.to.toFixed(1)} ms`);
  rows
    .filter((d) => d.critical)
    .selectAll('rect.seg')
    .attr('stroke', CRITICAL_COLOUR)
    .attr('stroke-width', 1);
  rows.on('click', (_ev, d) => {
    if (d.node >= 0) onSelect(d.node);
  });
  const lines = svg.append('g').attr('class', 'markers');
  data.lines.forEach((l, k) => {
    lines.append('line').attr('x1', x(l.t)).attr('x2', x(l.t)).attr('y1', 24).attr('y2', height).attr('stroke', l.colour).attr('stroke-dasharray', '4 2');
    // Labels on separate lines: DOMContentLoaded and load are often a few ms apart.
    lines.append('text').attr('class', 'marker-label').attr('x', x(l.t) + 2).attr('y', height - 3 - 10 * (data.lines.length - 1 - k)).attr('fill', l.colour).text(`${l.label} ${l.t.toFixed(0)} ms`);
  });
  const svgEl = svg.node()!;
  return {
    svg: svgEl,
    setSelected(i: number) {
      rows.classed('selected', (d) => d.node === i);
      const k = i < 0 ? -1 : data.rows.findIndex((r) => r.node === i);
      if (k >= 0) {
        (rows.nodes()[k] as Element | undefined)?.scrollIntoView({ block: 'nearest' });
      }
    },
  };
}

