/** The async-task and posted-task handlers on real Chromium 156 traces (../fixtures). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { FlowRun } from '../flows.ts';
import { runFixture } from './test-support.ts';

function assertPageRuns(runs: FlowRun[], threads: Set<string>): void {
  runs.forEach((r, i) => {
    assert.equal(r.index, i);
    assert.ok(r.start >= 0 && threads.has(r.thread), 'on a page thread, from time 0 on');
    if (i > 0) assert.ok(runs[i - 1]!.start <= r.start, 'in start order');
    if (r.at) assert.ok(r.at.time <= r.start, 'scheduled before it runs');
  });
}

test('ev-message: the iframe\'s postMessage is an async task run, scheduled from the sender\'s thread', () => {
  const { asyncTasks, postedTasks, threads } = runFixture('ev-message');
  assertPageRuns(asyncTasks.runs, threads.threads);
  const message = asyncTasks.runs.filter((r) => r.task === 'postMessage');
  assert.equal(message.length, 1);
  assert.ok(message[0]!.at);
  assert.equal(postedTasks.runs.length, 0, 'captured without posted-task flows');
});

test('ev-messageport: posted tasks name where Chromium posted them; the port\'s message comes from its mojo watcher', () => {
  const { postedTasks, threads } = runFixture('ev-messageport');
  assertPageRuns(postedTasks.runs, threads.threads);
  const watcher = postedTasks.runs.filter((r) => r.postedFrom === 'mojo/public/cpp/system/simple_watcher.cc:Notify' && r.at);
  assert.ok(watcher.length >= 1, 'the port\'s watcher task');
  // The lookup finds a run around an instant inside it.
  const w = watcher[0]!;
  const inner = postedTasks.innermost(w.thread, w.start);
  assert.ok(inner !== undefined && postedTasks.runs[inner]!.start <= w.start && postedTasks.runs[inner]!.end >= w.start);
});
