/** What was running, and what scheduled a task, on real Chromium 156 traces (../fixtures). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fixtureEvents, runFixture } from './test-support.ts';

test('ev-message: the message handler runs as the postMessage task the sender\'s script scheduled', () => {
  const { slices, initiators } = runFixture('ev-message');
  const handler = slices.slices.find((sl) => sl.kind === 'function' && sl.asyncTask === 'postMessage')!;
  assert.ok(handler, 'the message handler');
  const sender = slices.slices[handler.scheduledBy!]!;
  assert.ok(sender.kind === 'script' && sender.url?.endsWith('/sender.html'));
  assert.ok(handler.scheduledAt! >= sender.start && handler.scheduledAt! <= sender.end);
  // Work inside the handler is the handler's own (the innermost slice around it).
  assert.equal(initiators.enclosing(handler.thread, (handler.start + handler.end) / 2), handler.index);
  assert.deepEqual(initiators.orphans, []);
});

test('ev-error: a script pending on its download runs as a task scheduled by the parse slice that reached its tag', () => {
  const { slices } = runFixture('ev-error');
  const pending = slices.slices.filter((sl) => sl.asyncTask === 'PendingScript');
  assert.ok(pending.length >= 1);
  for (const sl of pending) assert.equal(slices.slices[sl.scheduledBy!]!.kind, 'parse');
});

test('ev-messageport: the port\'s handler is linked to the script that posted it through the posted-task flow', () => {
  const { slices, initiators } = runFixture('ev-messageport');
  assert.equal(initiators.orphans.length, 1);
  const [handler] = initiators.orphans;
  assert.equal(handler!.postedFrom, 'mojo/public/cpp/system/simple_watcher.cc:Notify');
  const poster = slices.slices[handler!.scheduledBy!]!;
  assert.ok(poster.kind === 'script' && poster.url?.endsWith('/ev-messageport/index.html'), 'the inline script that posted');
  assert.equal(initiators.taskFlows, true);
});

test('ev-messageport without posted-task flows: the handler stays an orphan, and the trace says it has no flows', () => {
  const events = fixtureEvents('ev-messageport').filter((e) => e.name !== 'SequenceManager PostTask' && e.name !== 'ThreadControllerImpl::RunTask');
  const { initiators } = runFixture('ev-messageport', events);
  assert.equal(initiators.orphans.length, 1);
  assert.equal(initiators.orphans[0]!.scheduledBy, undefined);
  assert.equal(initiators.taskFlows, false);
});
