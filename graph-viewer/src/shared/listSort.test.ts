import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compareListItems, type ListRow, type SortState } from './listSort.ts';

const rows: ListRow[] = [
  { id: 'b', name: 'b', nodes: 10, url: 'http://z/', loadTime: 500 },
  { id: 'a', name: 'a', nodes: 300, url: 'http://y/', loadTime: null },
  { id: 'c', name: 'c', nodes: 10, url: 'http://x/', loadTime: 100 },
  { id: 'd', name: 'd' },
];
const order = (sort: SortState): string[] => [...rows].sort((x, y) => compareListItems(x, y, sort)).map((r) => r.id);

test('sorts numbers numerically, both ways, ties by name, missing values last', () => {
  assert.deepEqual(order({ key: 'nodes', dir: 'asc' }), ['b', 'c', 'a', 'd']);
  assert.deepEqual(order({ key: 'nodes', dir: 'desc' }), ['a', 'b', 'c', 'd']);
  assert.deepEqual(order({ key: 'loadTime', dir: 'asc' }), ['c', 'b', 'a', 'd']);
  assert.deepEqual(order({ key: 'loadTime', dir: 'desc' }), ['b', 'c', 'a', 'd']);
});

test('sorts text by locale order', () => {
  assert.deepEqual(order({ key: 'url', dir: 'asc' }), ['c', 'a', 'b', 'd']);
  assert.deepEqual(order({ key: 'name', dir: 'desc' }), ['d', 'c', 'b', 'a']);
});
