import { test } from 'node:test';
import assert from 'node:assert/strict';
import { COMPARABLE, FASTER, judge, LOWER, magnitude, NOT_FASTER, SLOWER, trend } from './trends.ts';

test('magnitude classes: x1.05 and x4/3 either way, symmetric on a log scale', () => {
  assert.equal(magnitude(1), 'comparable');
  assert.equal(magnitude(1.05), 'comparable');
  assert.equal(magnitude(1 / 1.05), 'comparable');
  assert.equal(magnitude(1.06), 'slower');
  assert.equal(magnitude(0.94), 'faster');
  assert.equal(magnitude(4 / 3), 'much slower');
  assert.equal(magnitude(0.75), 'much faster');
  assert.equal(magnitude(1.3), 'slower');
  assert.equal(magnitude(0.77), 'faster');
  // The paper's numbers: Fig. 19 15/8 s, 12/8, 10/8, 9/8, 8/8; §VIII-A 53% and 10% faster; Fig. 20's 13%.
  assert.deepEqual([15 / 8, 12 / 8, 10 / 8, 9 / 8, 1, 0.47, 0.9, 0.87].map(magnitude), ['much slower', 'much slower', 'slower', 'slower', 'comparable', 'much faster', 'faster', 'faster']);
  assert.throws(() => magnitude(0), /positive and finite/);
  assert.throws(() => magnitude(Number.NaN), /positive and finite/);
});

test("judge: a paper number's class must match, not only the direction", () => {
  // The audit's case: Fig. 19's one h2 connection 1.15x h1 where Goel found 15/8 = 1.88.
  const v = judge('h2(1)/h1', 1.15, { paper: 15 / 8 });
  assert.equal(v.ok, false);
  assert.equal(v.text, 'h2(1)/h1 1.15 slower (paper 1.88: much slower)');
  assert.equal(judge('x', 1.6, { paper: 15 / 8 }).ok, true);
  // §VIII-A: Type B 53% faster than h2; 20% faster is the right direction, the wrong class.
  assert.equal(judge('x', 0.8, { paper: 0.47 }).ok, false);
  assert.equal(judge('x', 0.6, { paper: 0.47 }).ok, true);
});

test('judge: words allow their classes; LOWER is a direction only', () => {
  assert.equal(judge('x', 0.97, FASTER).ok, false);
  assert.equal(judge('x', 0.9, FASTER).ok, true);
  assert.equal(judge('x', 0.3, FASTER).ok, true);
  assert.equal(judge('x', 1.04, SLOWER).ok, false);
  assert.equal(judge('x', 2, SLOWER).ok, true);
  assert.equal(judge('x', 1.54, COMPARABLE).ok, false);
  assert.equal(judge('x', 0.96, COMPARABLE).ok, true);
  assert.equal(judge('x', 0.9, NOT_FASTER).ok, false);
  assert.equal(judge('x', 1.2, NOT_FASTER).ok, true);
  assert.equal(judge('x', 0.99, LOWER).ok, true);
  assert.equal(judge('x', 1.01, LOWER).ok, false);
  assert.equal(judge('Good', 0.85, FASTER).text, 'Good 0.85 faster (paper: faster)');
});

test('trend: agrees only if every verdict does, the failing ones marked', () => {
  const t = trend('Fig. 15', [judge('Good', 0.85, FASTER), judge('Poor', 1.64, FASTER)]);
  assert.equal(t.ok, false);
  assert.equal(t.detail, 'Good 0.85 faster (paper: faster); *Poor 1.64 much slower (paper: faster)*');
  assert.equal(trend('Fig. 13', [judge('Good', 0.27, FASTER)]).ok, true);
});
