/** The main-thread task handler on a real Chromium 156 trace (fixtures/r04-sync-script-blocks). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runFixture } from './test-support.ts';

test("the main frame's main thread's top-level tasks: disjoint, ordered, from time 0, covering the page's parsing", () => {
  const { mainThreadTasks, requests, slices } = runFixture('r04-sync-script-blocks');
  const tasks = mainThreadTasks.tasks;
  assert.ok(requests.documentThread, 'the thread that sent the main document is known');
  assert.ok(tasks.length > 10);
  for (let i = 0; i < tasks.length; i++) {
    const [a, b] = tasks[i]!;
    assert.ok(a >= 0 && b >= a, `task ${i}: ${a}..${b}`);
    if (i > 0) assert.ok(a > tasks[i - 1]![1], `task ${i} starts after the previous one ends`);
  }
  const within = (t: number) => tasks.some(([a, b]) => a <= t && t <= b);
  const parses = slices.slices.filter((sl) => sl.kind === 'parse');
  assert.ok(parses.length > 0);
  for (const p of parses) assert.ok(within(p.start), `ParseHTML at ${p.start} runs inside a task`);
});
