/**
 * One graph: header with the page and its critical-path length, filters and frames on the left,
 * the Canvas graph in the middle with the timeline / what-if waterfalls under it, details and the
 * what-if panel on the right. Selection is shared: clicking in the graph or the timeline selects in both.
 */
import type { NodeKind } from '@pcp/graph-builder';
import { NODE_KINDS } from '@pcp/graph-builder/types';
import { KIND_COLOUR } from '../shared/kinds.ts';
import { LAYERED, layeredGraphSize } from '../shared/layeredSize.ts';
import { layoutToSvg } from '../shared/layoutSvg.ts';
import type { Layout } from '../shared/layoutTypes.ts';
import { markerTime } from '../shared/summary.ts';
import { timeAxisLayout } from '../shared/timeAxisLayout.ts';
import { nodeLabel, nodeUrl, ruleText } from '../shared/nodeText.ts';
import { exportUrl, fetchGraph } from './api.ts';
import { renderDetails } from './details.ts';
import { clear, download, el, fmtMs } from './dom.ts';
import { GraphCanvas } from './graphCanvas.ts';
import { GraphModel, type Filters } from './model.ts';
import type {} from './testHook.ts';
import { drawWaterfall, recordedWaterfall, simulatedWaterfall, type WaterfallView } from './waterfall.ts';
import { whatIfPanel, type WhatIfRun } from './whatifPanel.ts';

export async function showGraph(app: HTMLElement, id: string): Promise<() => void> {
  const t0 = performance.now();
  clear(app);
  const status = el('p', { class: 'status' }, 'loading graph…');
  app.append(status);
  let graph;
  try {
    graph = await fetchGraph(id);
  } catch (e) {
    status.textContent = `cannot open graph: ${(e as Error).message}`;
    return () => {};
  }
  const loadMs = performance.now() - t0;
  const model = new GraphModel(graph);
  const n = model.nodes.length;
  const cpLen = graph.criticalPath?.length ?? 0;
  /** The layered layout is offered while its layered graph (nodes + dummy nodes) is small enough. */
  const layeredTooBig = layeredGraphSize(model.input) > LAYERED.maxSize;

  // ---- skeleton
  const header = el(
    'header',
    { class: 'top' },
    el('a', { href: '#/', class: 'back' }, '← graphs'),
    el('h1', { class: 'page-url' }, graph.page.url),
    el('span', { class: 'stats' }, `${n} nodes · ${graph.edges.length} edges · load ${fmtMs(markerTime(graph, graph.markers.load))}`),
    el('span', { class: 'cp-length', 'data-ms': cpLen }, `critical path ${fmtMs(cpLen)} (${model.critical.length} nodes)`),
  );
  const left = el('aside', { class: 'left' });
  const graphHost = el('div', { class: 'graph-host' });
  const tooltip = el('div', { class: 'tooltip', hidden: true });
  const bottom = el('div', { class: 'bottom' });
  const right = el('aside', { class: 'right' });
  const detailsBox = el('section', { class: 'details', id: 'details' });
  right.append(detailsBox);
  app.append(header, el('div', { class: 'graph-page' }, left, el('div', { class: 'centre' }, graphHost, bottom), right), tooltip);
  status.remove();

  // ---- state
  let selected = -1;
  let related: Set<number> | null = null;
  let mask: Uint8Array | null = null;
  const collapsed = new Set<number>();
  let layoutKind: 'time' | 'layered' = 'time';
  let layout: Layout;
  let relayoutNo = 0;
  const filters: Filters = { text: '', kinds: new Set(), host: '', mime: '', critical: 'all' };

  const canvas = new GraphCanvas(graphHost, model, {
    onSelect: (i) => selectNode(i, false),
    onHover: (i, x, y) => {
      if (i < 0) {
        tooltip.hidden = true;
        return;
      }
      const node = model.nodes[i]!;
      delete tooltip.dataset.edge;
      tooltip.textContent = `${nodeLabel(node)}  ${fmtMs(node.start)} → ${fmtMs(node.end)}  ${nodeUrl(node)}`;
      tooltip.style.left = `${x + 12}px`;
      tooltip.style.top = `${y + 12}px`;
      tooltip.hidden = false;
    },
    onHoverEdge: (k, x, y) => {
      const e = model.edge(k);
      const a = model.nodes[model.index.get(e.from)!]!;
      const b = model.nodes[model.index.get(e.to)!]!;
      tooltip.textContent = `${nodeLabel(a)} → ${nodeLabel(b)}: ${ruleText(e.rule)}`;
      tooltip.dataset.edge = String(k);
      tooltip.style.left = `${x + 12}px`;
      tooltip.style.top = `${y + 12}px`;
      tooltip.hidden = false;
    },
  });

  let worker: Worker | null = null;
  // Worker answers carry the request number: a relayout requested while another is computing wins.
  let requestNo = 0;
  const pending = new Map<number, { resolve: (l: Layout) => void; reject: (e: Error) => void }>();
  const computeLayout = async (): Promise<Layout> => {
    if (layoutKind === 'time' || layeredTooBig) return timeAxisLayout(model.input, collapsed);
    if (!worker) {
      worker = new Worker('/worker.js', { type: 'module' });
      worker.onmessage = (ev: MessageEvent<{ id: number; layout?: Layout; error?: string }>) => {
        const p = pending.get(ev.data.id);
        pending.delete(ev.data.id);
        if (ev.data.layout) p?.resolve(ev.data.layout);
        else p?.reject(new Error(ev.data.error));
      };
    }
    const id = ++requestNo;
    const w = worker;
    return new Promise((resolve, reject) => {
      pending.set(id, { resolve, reject });
      w.postMessage({ id, input: model.input, collapsed: [...collapsed] });
    });
  };
  const relayout = async (fit: boolean): Promise<void> => {
    const mine = ++relayoutNo;
    const next = await computeLayout();
    if (mine !== relayoutNo) return; // a later relayout superseded this one
    layout = next;
    canvas.setLayout(layout, fit);
    canvas.setHighlight({ selected, related, mask });
  };

  // ---- left: layout, search, filters, frames, export
  const layoutSel = el('select', { id: 'layout-kind' }, el('option', { value: 'time' }, 'time axis'), el('option', { value: 'layered', disabled: layeredTooBig }, `layered DAG${layeredTooBig ? ' (too many long edges)' : ''}`));
  layoutSel.addEventListener('change', () => {
    layoutKind = layoutSel.value as 'time' | 'layered';
    void relayout(true);
  });
  const search = el('input', { type: 'search', id: 'search', placeholder: 'search id, url, label' });
  const matchCount = el('div', { class: 'match-count' });
  const applyFilters = (): void => {
    mask = model.match(filters);
    let c = 0;
    if (mask) for (let i = 0; i < n; i++) c += mask[i]!;
    matchCount.textContent = mask ? `${c} of ${n} nodes match` : '';
    canvas.setHighlight({ selected, related, mask });
  };
  search.addEventListener('input', () => {
    filters.text = search.value;
    applyFilters();
  });
  const kindBoxes = el('div', { class: 'kinds' });
  const present = new Set(model.nodes.map((x) => x.kind));
  for (const k of NODE_KINDS.filter((k) => present.has(k))) {
    const cb = el('input', { type: 'checkbox', 'data-kind': k });
    cb.addEventListener('change', () => {
      if (cb.checked) filters.kinds.add(k as NodeKind);
      else filters.kinds.delete(k as NodeKind);
      applyFilters();
    });
    const swatch = el('span', { class: 'swatch' });
    swatch.style.background = KIND_COLOUR[k];
    kindBoxes.append(el('label', {}, cb, swatch, k));
  }
  const selectOf = (idAttr: string, all: string, values: string[], on: (v: string) => void): HTMLSelectElement => {
    const s = el('select', { id: idAttr }, el('option', { value: '' }, all), ...values.map((v) => el('option', { value: v }, v)));
    s.addEventListener('change', () => on(s.value));
    return s;
  };
  const hostSel = selectOf('filter-host', 'all hosts', model.hosts, (v) => {
    filters.host = v;
    applyFilters();
  });
  const mimeSel = selectOf('filter-mime', 'all MIME types', model.mimes, (v) => {
    filters.mime = v;
    applyFilters();
  });
  const critSel = el('select', { id: 'filter-critical' }, el('option', { value: 'all' }, 'on and off critical path'), el('option', { value: 'on' }, 'on critical path'), el('option', { value: 'off' }, 'off critical path'));
  critSel.addEventListener('change', () => {
    filters.critical = critSel.value as Filters['critical'];
    applyFilters();
  });
  const frames = el('ul', { class: 'frames' });
  model.input.frames.forEach((f, fi) => {
    const count = model.input.frame.filter((x) => x === fi).length;
    if (count === 0) return;
    const cb = el('input', { type: 'checkbox', checked: true, 'data-frame': f.id });
    cb.addEventListener('change', () => {
      if (cb.checked) collapsed.delete(fi);
      else collapsed.add(fi);
      void relayout(false);
    });
    const li = el('li', {}, el('label', { title: f.url }, cb, `${'· '.repeat(f.depth)}${f.url || f.id} (${count})`));
    frames.append(li);
  });
  const exportView = el('button', { type: 'button', id: 'export-view' }, 'export view as SVG');
  exportView.addEventListener('click', () => {
    const svg = layoutToSvg(layout, model.input, model.nodes, {
      viewport: canvas.viewport(),
      width: graphHost.clientWidth,
      critical: model.criticalSet,
      faded: mask ? new Set([...Array(n).keys()].filter((i) => !mask![i])) : null,
      title: graph.page.url,
      frameLabels: model.input.frames.map((f) => f.url),
    });
    download(`${id}-view.svg`, 'image/svg+xml', svg);
  });
  const exportTimeline = el('button', { type: 'button', id: 'export-timeline' }, 'export timeline as SVG');
  exportTimeline.addEventListener('click', () => {
    // The waterfalls are SVG built with d3 .text(), so serialising them escapes every string.
    const pane = timelinePane.hidden ? whatifPane : timelinePane;
    const svgs = [...pane.querySelectorAll('svg.waterfall')];
    let x = 0;
    const parts = svgs.map((s) => {
      const w = Number(s.getAttribute('width'));
      const part = `<g transform="translate(${x},0)">${new XMLSerializer().serializeToString(s)}</g>`;
      x += w + 10;
      return part;
    });
    const h = Math.max(0, ...svgs.map((s) => Number(s.getAttribute('height'))));
    download(`${id}-timeline.svg`, 'image/svg+xml', `<svg xmlns="http://www.w3.org/2000/svg" width="${x}" height="${h}">${parts.join('')}</svg>`);
  });
  const fitBtn = el('button', { type: 'button', id: 'fit' }, 'fit');
  fitBtn.addEventListener('click', () => canvas.fit());
  left.append(
    el('h3', {}, 'Layout'),
    layoutSel,
    fitBtn,
    el('h3', {}, 'Search & filter'),
    search,
    matchCount,
    kindBoxes,
    hostSel,
    mimeSel,
    critSel,
    el('h3', {}, 'Frames (uncheck to collapse)'),
    frames,
    el('h3', {}, 'Export'),
    el('div', {}, exportView),
    el('div', {}, exportTimeline),
    el('div', {}, el('a', { href: exportUrl(id, 'svg'), id: 'export-graph-svg', download: `${id}.svg` }, 'whole graph SVG'), ' · ', el('a', { href: exportUrl(id, 'pdf'), id: 'export-graph-pdf', download: `${id}.pdf` }, 'whole graph PDF')),
  );

  // ---- bottom: timeline and what-if tabs
  const tabs = el('div', { class: 'tabs' });
  const panes = el('div', { class: 'panes' });
  const timelinePane = el('div', { class: 'pane', id: 'timeline' });
  const whatifPane = el('div', { class: 'pane', id: 'whatif-waterfalls', hidden: true });
  panes.append(timelinePane, whatifPane);
  const tabBtn = (label: string, pane: HTMLElement): HTMLButtonElement => {
    const b = el('button', { type: 'button', class: 'tab', 'data-tab': pane.id }, label);
    b.addEventListener('click', () => {
      for (const p of [timelinePane, whatifPane]) p.hidden = p !== pane;
      for (const t of tabs.querySelectorAll('.tab')) t.classList.toggle('active', t === b);
    });
    return b;
  };
  tabs.append(tabBtn('Timeline', timelinePane), tabBtn('What-if waterfalls', whatifPane));
  tabs.firstElementChild?.classList.add('active');
  bottom.append(tabs, panes);
  const recorded = recordedWaterfall(model);
  const timeline: WaterfallView = drawWaterfall(timelinePane, recorded, Math.max(600, bottom.clientWidth - 20), (i) => selectNode(i, true));
  let simViews: WaterfallView[] = [];
  const showRuns = (runs: WhatIfRun[]): void => {
    clear(whatifPane);
    const tMax = Math.max(recorded.tMax, ...runs.map((r) => Math.max(r.result.loadTime * 1.1, r.result.domContentLoadedTime)));
    const cols = runs.length + 1;
    const row = el('div', { class: 'side-by-side' });
    whatifPane.append(row);
    const mk = (): HTMLElement => {
      const d = el('div', { class: 'col' });
      row.append(d);
      return d;
    };
    // Rows line up across the columns, so only the recorded one carries the labels.
    const labelW = 150;
    const plotW = Math.max(200, (bottom.clientWidth - 20 - labelW) / cols - 8);
    simViews = [drawWaterfall(mk(), { ...recorded, title: `recorded → load ${fmtMs(markerTime(graph, graph.markers.load))}` }, plotW + labelW, (i) => selectNode(i, true), tMax, labelW)];
    for (const r of runs) {
      const opts = Object.values(r.options).join(' ');
      simViews.push(drawWaterfall(mk(), simulatedWaterfall(model, recorded, r.result, `${r.name}: ${opts} → load ${fmtMs(r.result.loadTime)}`), plotW, (i) => selectNode(i, true), tMax, 0));
    }
    (tabs.querySelector('[data-tab="whatif-waterfalls"]') as HTMLButtonElement).click();
  };
  right.append(whatIfPanel(id, markerTime(graph, graph.markers.load), showRuns));

  // ---- selection, linked everywhere
  let relatedMode: 'ancestors' | 'descendants' | 'none' = 'none';
  const selectNode = (i: number, fromTimeline: boolean): void => {
    selected = i;
    related = i >= 0 && relatedMode !== 'none' ? model.reach(i, relatedMode) : null;
    canvas.setHighlight({ selected, related, mask });
    if (fromTimeline && i >= 0) canvas.focus(i);
    timeline.setSelected(i);
    for (const v of simViews) v.setSelected(i);
    renderDetails(detailsBox, model, i, (j) => selectNode(j, true), (mode) => {
      relatedMode = mode;
      selectNode(selected, false);
    });
    if (related) detailsBox.querySelector('.buttons')?.after(el('p', { class: 'related-count', 'data-count': related.size }, `${related.size} ${relatedMode} outlined in the graph`));
  };
  selectNode(-1, false);

  await relayout(true);
  // The canvas draws on the next animation frame; time to first render includes that draw.
  await new Promise((r) => requestAnimationFrame(() => r(null)));
  const firstRenderMs = performance.now() - t0;
  if (PCP_TEST_HOOK) window.__pcpViewer = {
    graphId: id,
    ready: true,
    loadMs,
    firstRenderMs,
    layoutKind: () => layout.kind,
    renderedNodes: () => canvas.renderedNodes,
    criticalPath: () => [...document.querySelectorAll('.graph-overlay .cp-node')].map((e) => e.getAttribute('data-id') ?? ''),
    screenPos: (nid) => {
      const i = model.index.get(nid);
      return i === undefined ? null : canvas.screenPos(i);
    },
    select: (nid) => selectNode(model.index.get(nid) ?? -1, true),
    edgeScreenPos: (k) => canvas.edgeScreenPos(k),
    panBy: (dx, dy) => canvas.panBy(dx, dy),
    framesDrawn: () => canvas.framesDrawn,
    lastDrawMs: () => canvas.lastDrawMs,
    setLayout: async (kind) => {
      layoutSel.value = kind;
      layoutKind = kind;
      await relayout(true);
    },
  };
  document.body.dataset.graphReady = id;
  return () => {
    worker?.terminate();
    delete document.body.dataset.graphReady;
    if (PCP_TEST_HOOK) delete window.__pcpViewer;
    tooltip.remove();
  };
}
