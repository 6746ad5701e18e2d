import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pacePlan, withoutSetup } from './pace.ts';

test('pacePlan: recorded chunks scaled to the body, near ones merged, the last ending the body', () => {
  assert.deepEqual(pacePlan([[0, 100], [0.4, 100], [50, 100], [100.2, 100]], 400), [{ atMs: 0, end: 200 }, { atMs: 50, end: 300 }, { atMs: 100.2, end: 400 }]);
  assert.deepEqual(pacePlan([[0, 10], [20, 10]], 30), [{ atMs: 0, end: 15 }, { atMs: 20, end: 30 }]);
  assert.deepEqual(pacePlan([[228, 10]], 30), [{ atMs: 228, end: 30 }], 'one chunk: a body held, then sent whole');
  assert.deepEqual(pacePlan([], 0), [{ atMs: 0, end: 0 }]);
  assert.deepEqual(pacePlan([[10, 5], [3, 5]], 10), [{ atMs: 10, end: 10 }], 'never earlier than a previous step');
});

test('withoutSetup: the connection set-up comes off the body first, then off the delay, never below zero', () => {
  const steps = [{ atMs: 0, end: 100 }, { atMs: 40, end: 200 }, { atMs: 120, end: 300 }];
  assert.deepEqual(withoutSetup(30, steps, 50), { delayMs: 30, steps: [{ atMs: 0, end: 200 }, { atMs: 70, end: 300 }] }, 'steps before the set-up\'s end merge into the first');
  assert.deepEqual(withoutSetup(30, steps, 140), { delayMs: 10, steps: [{ atMs: 0, end: 300 }] }, 'body used up: the rest off the delay');
  assert.deepEqual(withoutSetup(30, steps, 500), { delayMs: 0, steps: [{ atMs: 0, end: 300 }] });
  assert.deepEqual(withoutSetup(30, steps, 0), { delayMs: 30, steps });
  assert.deepEqual(withoutSetup(30, [{ atMs: 0, end: 9 }], 12), { delayMs: 18, steps: [{ atMs: 0, end: 9 }] }, 'an unpaced body: all off the delay');
});
