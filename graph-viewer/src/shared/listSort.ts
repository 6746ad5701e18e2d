/** The graph list's columns and their order: pure, shared by the list page and its tests. */
import type { GraphSummary } from './summary.ts';

export interface ListRow extends Partial<GraphSummary> {
  id: string;
  name: string;
}

export const LIST_COLUMNS = [
  { key: 'name', label: 'graph', numeric: false },
  { key: 'url', label: 'page url', numeric: false },
  { key: 'nodes', label: 'nodes', numeric: true },
  { key: 'edges', label: 'edges', numeric: true },
  { key: 'resources', label: 'resources', numeric: true },
  { key: 'bytes', label: 'bytes', numeric: true },
  { key: 'domContentLoadedTime', label: 'DOMContentLoaded', numeric: true },
  { key: 'loadTime', label: 'load time', numeric: true },
  { key: 'criticalPathLength', label: 'critical path', numeric: true },
] as const satisfies ReadonlyArray<{ key: keyof ListRow; label: string; numeric: boolean }>;

export type ListKey = (typeof LIST_COLUMNS)[number]['key'];

export interface SortState {
  key: ListKey;
  dir: 'asc' | 'desc';
}

/** Orders rows by one column; rows without a value (not summarised yet, or failed) go last either way; ties by name. */
export function compareListItems(a: ListRow, b: ListRow, sort: SortState): number {
  const va = a[sort.key];
  const vb = b[sort.key];
  const missingA = va === undefined || va === null;
  const missingB = vb === undefined || vb === null;
  if (missingA || missingB) return missingA === missingB ? a.name.localeCompare(b.name) : missingA ? 1 : -1;
  const c = typeof va === 'number' && typeof vb === 'number' ? va - vb : String(va).localeCompare(String(vb));
  return (sort.dir === 'asc' ? c : -c) || a.name.localeCompare(b.name);
}
