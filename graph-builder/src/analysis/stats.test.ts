import { test } from 'node:test';
import assert from 'node:assert/strict';
import { jaccard, median, quantile, ranks, spearman } from './stats.ts';

test('ranks average ties', () => assert.deepEqual(ranks([10, 20, 10, 30]), [0.5, 2, 0.5, 3]));
test('spearman: identical, reversed, independent of scale', () => {
  assert.equal(spearman([1, 2, 3, 4], [10, 20, 30, 40]), 1);
  assert.equal(spearman([1, 2, 3, 4], [4, 3, 2, 1]), -1);
  // d = [0, 0, 1, -1]: rho = 1 - 6*2/(4*15) = 0.8
  assert.ok(Math.abs(spearman([1, 2, 3, 4], [1, 2, 4, 3]) - 0.8) < 1e-12);
});
test('jaccard, median, quantile', () => {
  assert.equal(jaccard(['a', 'b'], ['b', 'c']), 1 / 3);
  assert.equal(jaccard([], []), 1);
  assert.equal(median([3, 1, 2, 10]), 2.5);
  assert.equal(quantile([0, 10], 0.9), 9);
});
