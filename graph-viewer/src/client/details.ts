/** The node details panel: every field as text, plus the node's edges with their rules. */
import type { GraphNode } from '@pcp/graph-builder';
import { nodeLabel, ruleText } from '../shared/nodeText.ts';
import { clear, el, fmtBytes, fmtMs } from './dom.ts';
import type { GraphModel } from './model.ts';

function fields(n: GraphNode, frameUrl: string): [string, string][] {
  const rows: [string, string][] = [
    ['id', n.id],
    ['kind', n.kind],
    ['frame', frameUrl ? `${n.frame} ${frameUrl}` : n.frame],
    ['start', fmtMs(n.start)],
    ['end', fmtMs(n.end)],
    ['duration', fmtMs(n.end - n.start)],
  ];
  switch (n.kind) {
    case 'resource':
      rows.unshift(['url', n.url]);
      rows.push(
        ['MIME', n.mimeType],
        ['size', fmtBytes(n.size)],
        ['method / status', `${n.method} ${n.status || ''}`.trim()],
        ['cached', n.cached ? 'yes' : 'no'],
        ['server delay', n.serverDelay === undefined ? 'unknown' : `${fmtMs(n.serverDelay)}${n.serverDelayEstimated ? ' (estimated)' : ''}`],
        ['first byte', fmtMs(n.responseStart)],
        ['priority', Object.entries(n.priority).map(([k, v]) => `${k} ${v}`).join(', ')],
      );
      break;
    case 'download_chunk':
      rows.push(['resource', n.resource], ['chunk', `#${n.index} at ${n.offset}`], ['size', fmtBytes(n.size)]);
      break;
    case 'parse_chunk':
      rows.unshift(['url', n.docUrl]);
      rows.push(['lines', `${n.startLine}:${n.startColumn} – ${n.endLine}:${n.endColumn}`]);
      if (n.startTag) rows.push(['tags', `${n.startTag} … ${n.endTag ?? ''}`]);
      break;
    case 'script_eval':
      rows.unshift(['url', n.scriptUrl]);
      rows.push(['script', n.scriptKind]);
      break;
    case 'css_eval':
      rows.unshift(['url', n.styleUrl]);
      break;
    case 'timer':
      rows.push(['timer', `${n.timerId} (${n.timerDelay} ms)`]);
      break;
    case 'event':
      rows.push(['event', `${n.eventTarget}.${n.eventName}`]);
      break;
    case 'marker':
      rows.push(['marker', n.markerName]);
      break;
  }
  if (n.phase) rows.push(['phase', n.phase]);
  return rows;
}

export function renderDetails(box: HTMLElement, model: GraphModel, i: number, onPick: (i: number) => void, onRelated: (mode: 'ancestors' | 'descendants' | 'none') => void): void {
  clear(box);
  if (i < 0) {
    box.append(el('p', { class: 'hint' }, 'Click a node (graph or timeline) to see its details.'));
    return;
  }
  const n = model.nodes[i]!;
  const frame = model.graph.frames.find((f) => f.id === n.frame);
  const dl = el('dl', { class: 'fields' });
  for (const [k, v] of fields(n, frame?.url ?? '')) dl.append(el('dt', {}, k), el('dd', { 'data-field': k }, v));
  const edgeList = (title: string, list: number[], dir: 'from' | 'to'): HTMLElement => {
    const ul = el('ul', { class: 'edges' });
    for (const k of list.slice(0, 200)) {
      const e = model.edge(k);
      const other = model.index.get(dir === 'from' ? e.from : e.to)!;
      const a = el('a', { href: '#', 'data-node': other }, `${nodeLabel(model.nodes[other]!)}`);
      a.addEventListener('click', (ev) => {
        ev.preventDefault();
        onPick(other);
      });
      ul.append(el('li', {}, a, el('span', { class: 'rule' }, ` — ${ruleText(e.rule)}`)));
    }
    if (list.length > 200) ul.append(el('li', {}, `… ${list.length - 200} more`));
    return el('div', {}, el('h4', {}, `${title} (${list.length})`), ul);
  };
  const buttons = el('div', { class: 'buttons' });
  for (const [mode, label] of [['ancestors', 'ancestors'], ['descendants', 'descendants'], ['none', 'clear']] as const) {
    const b = el('button', { type: 'button', 'data-related': mode }, label);
    b.addEventListener('click', () => onRelated(mode));
    buttons.append(b);
  }
  box.append(
    el('h3', { class: model.criticalSet.has(i) ? 'critical' : '' }, nodeLabel(n), model.criticalSet.has(i) ? ' (critical path)' : ''),
    dl,
    buttons,
    edgeList('parents', model.inEdges[i]!, 'from'),
    edgeList('children', model.outEdges[i]!, 'to'),
  );
}
