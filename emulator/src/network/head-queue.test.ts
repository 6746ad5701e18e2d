import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compactedHead, insertSorted } from './head-queue.ts';

test('insertSorted keeps items[head..] ascending, equal keys in arrival order, the consumed prefix untouched', () => {
  const items = [{ k: 9, n: 'consumed' }, { k: 1, n: 'a' }, { k: 5, n: 'b' }];
  const key = (x: { k: number }) => x.k;
  insertSorted(items, 1, { k: 3, n: 'c' }, key);
  insertSorted(items, 1, { k: 5, n: 'd' }, key);
  insertSorted(items, 1, { k: 0, n: 'e' }, key);
  assert.deepEqual(items.map((x) => x.n), ['consumed', 'e', 'a', 'c', 'b', 'd']);
});

test('compactedHead empties a fully read queue, keeps a small prefix, drops a large one', () => {
  const done = [1, 2, 3];
  assert.equal(compactedHead(done, 3), 0);
  assert.deepEqual(done, []);
  const small = [1, 2, 3];
  assert.equal(compactedHead(small, 2), 2);
  assert.deepEqual(small, [1, 2, 3]);
  const large = Array.from({ length: 2000 }, (_, i) => i);
  assert.equal(compactedHead(large, 1500), 0);
  assert.deepEqual(large, Array.from({ length: 500 }, (_, i) => 1500 + i));
  const half = Array.from({ length: 3000 }, (_, i) => i);
  assert.equal(compactedHead(half, 1100), 1100); // under half the array: kept
  assert.equal(half.length, 3000);
});
