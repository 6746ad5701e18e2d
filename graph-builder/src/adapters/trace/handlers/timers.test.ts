/** The timers handler on a real Chromium 156 trace of profiler/example-site (../fixtures). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runFixture } from './test-support.ts';

test('the inline script\'s 50 ms timer, installed while that script ran, fired by its TimerFire', () => {
  const { timers, slices } = runFixture('example-site.trace.json.gz');
  assert.equal(timers.timers.length, 1);
  const [t] = timers.timers;
  assert.equal(t!.timeout, 50);
  assert.equal(t!.singleShot, true);
  const installer = slices.slices[t!.runningAt!]!;
  assert.ok(installer.kind === 'script' && installer.url?.endsWith('/index.html'), 'the inline script');
  assert.ok(t!.time >= installer.start && t!.time <= installer.end);
  const fire = slices.slices.find((sl) => sl.kind === 'timer' && sl.timerId === t!.timerId)!;
  assert.ok(fire.start >= t!.time + 50 - 1, 'fires no earlier than its timeout');
  assert.ok(t!.stack && t!.stack.length > 0 && t!.stack[0]!.line >= 1, '1-based stack');
});

test('pages without timers have none', () => {
  assert.deepEqual(runFixture('ev-message').timers.timers, []);
});
