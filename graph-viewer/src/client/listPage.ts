/** The graph list: one row per catalogued graph; rows fill in as the server summarises them. */
import { listGraphs, type ListItem } from './api.ts';
import { clear, el, fmtBytes, fmtMs } from './dom.ts';

export async function showList(app: HTMLElement): Promise<() => void> {
  clear(app);
  const status = el('p', { class: 'status' }, 'loading…');
  const tbody = el('tbody');
  const table = el(
    'table',
    { class: 'graph-list' },
    el('thead', {}, el('tr', {}, ...['graph', 'page url', 'nodes', 'resources', 'bytes', 'load time', 'critical path'].map((h) => el('th', {}, h)))),
    tbody,
  );
  const problems = el('ul', { class: 'problems' });
  app.append(el('header', { class: 'top' }, el('h1', {}, 'PCP graph viewer')), el('main', { class: 'list' }, status, table, problems));
  let timer = 0;
  let stopped = false;
  const row = (g: ListItem): HTMLTableRowElement =>
    el(
      'tr',
      { 'data-id': g.id, class: g.status },
      el('td', {}, el('a', { href: `#/graph/${g.id}` }, g.name)),
      el('td', { class: 'url' }, g.status === 'error' ? `error: ${g.error ?? ''}` : (g.url ?? '…')),
      el('td', { class: 'num' }, g.nodes ?? ''),
      el('td', { class: 'num' }, g.resources ?? ''),
      el('td', { class: 'num' }, g.bytes === undefined ? '' : fmtBytes(g.bytes)),
      el('td', { class: 'num' }, g.loadTime === undefined ? '' : fmtMs(g.loadTime)),
      el('td', { class: 'num' }, g.criticalPathLength === undefined ? '' : fmtMs(g.criticalPathLength)),
    );
  const refresh = async (): Promise<void> => {
    try {
      const data = await listGraphs();
      if (stopped) return;
      clear(tbody);
      for (const g of data.graphs) tbody.append(row(g));
      clear(problems);
      for (const p of data.problems) problems.append(el('li', {}, p));
      status.textContent = `${data.graphs.length} graphs${data.complete ? '' : ' (summarising…)'}`;
      if (!data.complete) timer = window.setTimeout(() => void refresh(), 500);
      else document.body.dataset.listReady = '1';
    } catch (e) {
      status.textContent = `cannot list graphs: ${(e as Error).message}`;
    }
  };
  await refresh();
  return () => {
    stopped = true;
    clearTimeout(timer);
    delete document.body.dataset.listReady;
  };
}
