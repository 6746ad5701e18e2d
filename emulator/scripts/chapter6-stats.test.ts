import { test } from 'node:test';
import assert from 'node:assert/strict';
import { anovaP, improvement, reduction, shareAsFast } from './chapter6-stats.ts';

test('reduction and improvement: sums, means and the sample standard deviation of SP - MP', () => {
  const sp = [100, 200, 300, 400];
  const mp = [50, 150, 300, 500];
  assert.equal(reduction(sp, mp), (100 * (1000 - 1000)) / 1000);
  const imp = improvement(sp, mp);
  // differences 50, 50, 0, -100: mean 0, squares 2500 + 2500 + 0 + 10000 over 3.
  assert.equal(imp.mean, 0);
  assert.ok(Math.abs(imp.sd - Math.sqrt(15000 / 3)) < 1e-12);
  assert.equal(reduction([100, 100], [50, 50]), 50);
});

test('share of sites as fast within 20 ms, on per-site means', () => {
  // site 0: means 100 vs 119 (within 20 ms); site 1: 100 vs 130 (slower); site 2: 300 vs 100.
  const site = [0, 0, 1, 2];
  assert.ok(Math.abs(shareAsFast(site, [90, 110, 100, 300], [118, 120, 130, 100]) - 200 / 3) < 1e-9);
});

test('ANOVA p-value: 1 for identical groups, small for clearly different ones, the F test of two groups', () => {
  assert.equal(anovaP([1, 2, 3], [1, 2, 3]), 1);
  assert.ok(anovaP([1, 2, 3, 4, 5], [11, 12, 13, 14, 15]) < 1e-5);
  // Two groups of 3: means 2 and 3, within-group variance 1 each: F = (1.5 / 1) / 1 = 1.5 on (1, 4) degrees of
  // freedom, p = 0.2879 (tables of the F distribution).
  assert.ok(Math.abs(anovaP([1, 2, 3], [2, 3, 4]) - 0.2879) < 1e-3);
});
