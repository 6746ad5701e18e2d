/**
 * The graph list (a corpus' pages when a corpus or release directory is served): one row per
 * catalogued graph with its stats; rows fill in as the server summarises them. Clicking a column
 * header sorts by it (again: the other way); the order holds across refreshes.
 */
import { listGraphs, type ListItem } from './api.ts';
import { clear, el, fmtBytes, fmtMs } from './dom.ts';
import { compareListItems, LIST_COLUMNS, type SortState } from '../shared/listSort.ts';

export async function showList(app: HTMLElement): Promise<() => void> {
  clear(app);
  const status = el('p', { class: 'status' }, 'loading…');
  const tbody = el('tbody');
  let sort: SortState = { key: 'name', dir: 'asc' };
  let items: ListItem[] = [];
  const headers = LIST_COLUMNS.map((c) => {
    const th = el('th', { 'data-key': c.key, class: c.numeric ? 'num sortable' : 'sortable', tabindex: 0, title: `sort by ${c.label}` }, c.label);
    const choose = (): void => {
      sort = { key: c.key, dir: sort.key === c.key && sort.dir === 'asc' ? 'desc' : sort.key === c.key ? 'asc' : c.numeric ? 'desc' : 'asc' };
      render();
    };
    th.addEventListener('click', choose);
    th.addEventListener('keydown', (e) => {
      if (e.key === 'Enter' || e.key === ' ') {
        e.preventDefault();
        choose();
      }
    });
    return th;
  });
  const table = el('table', { class: 'graph-list' }, el('thead', {}, el('tr', {}, ...headers)), tbody);
  const problems = el('ul', { class: 'problems' });
  app.append(el('header', { class: 'top' }, el('h1', {}, 'PCP graph viewer')), el('main', { class: 'list' }, status, table, problems));
  let timer = 0;
  let stopped = false;
  const cell = (g: ListItem, key: (typeof LIST_COLUMNS)[number]['key']): HTMLTableCellElement => {
    switch (key) {
      case 'name': return el('td', {}, el('a', { href: `#/graph/${g.id}` }, g.name));
      case 'url': return el('td', { class: 'url' }, g.status === 'error' ? `error: ${g.error ?? ''}` : (g.url ?? '…'));
      case 'bytes': return el('td', { class: 'num' }, g.bytes === undefined ? '' : fmtBytes(g.bytes));
      case 'domContentLoadedTime': case 'loadTime': case 'criticalPathLength': return el('td', { class: 'num' }, g[key] === undefined ? '' : fmtMs(g[key]));
      default: return el('td', { class: 'num' }, g[key] ?? '');
    }
  };
  const render = (): void => {
    for (const th of headers) {
      const active = th.dataset.key === sort.key;
      th.setAttribute('aria-sort', active ? (sort.dir === 'asc' ? 'ascending' : 'descending') : 'none');
    }
    clear(tbody);
    for (const g of [...items].sort((a, b) => compareListItems(a, b, sort))) {
      tbody.append(el('tr', { 'data-id': g.id, class: g.status }, ...LIST_COLUMNS.map((c) => cell(g, c.key))));
    }
  };
  const refresh = async (): Promise<void> => {
    try {
      const data = await listGraphs();
      if (stopped) return;
      items = data.graphs;
      render();
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
