/** The load monitor fed hand-made protocol events on a hand-driven clock, no Chromium. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LoadMonitor } from './load-monitor.ts';
import { completionVerdict } from './completion.ts';

function monitorAt(): { m: LoadMonitor; tick: (ms: number) => void } {
  let now = 0;
  return { m: new LoadMonitor(() => now), tick: (ms) => { now += ms; } };
}

test('requests: in flight from sent to finished or failed, progress on response and data', () => {
  const { m, tick } = monitorAt();
  m.observe('Network.requestWillBeSent', { requestId: 'r1' }, true);
  m.observe('Network.requestWillBeSent', { requestId: 'r2' }, true);
  tick(500);
  m.observe('Network.dataReceived', { requestId: 'r1' }, true);
  assert.deepEqual([...m.inFlight], [['r1', 500], ['r2', 0]]);
  m.observe('Network.loadingFinished', { requestId: 'r1' }, true);
  m.observe('Network.loadingFailed', { requestId: 'r2' }, false);
  assert.equal(m.inFlight.size, 0);
  m.observe('Network.dataReceived', { requestId: 'r9' }, true);
  assert.equal(m.inFlight.size, 0, 'progress of an unknown request does not start it');
});

test('activity: network and frame events count, other events do not', () => {
  const { m, tick } = monitorAt();
  tick(300);
  m.observe('Page.frameNavigated', {}, false);
  tick(300);
  m.observe('Runtime.exceptionThrown', {}, true);
  m.observe('Page.domContentEventFired', {}, true);
  assert.equal(m.lastActivity, 300);
});

test('load counts only from the page\'s own session; a crash keeps its label', () => {
  const { m } = monitorAt();
  m.observe('Page.loadEventFired', {}, false);
  assert.equal(m.loadFired, false);
  m.observe('Page.loadEventFired', {}, true);
  assert.equal(m.loadFired, true);
  m.observe('Inspector.targetCrashed', {}, false, 'a child target\'s renderer crashed (iframe)');
  assert.equal(m.crashed, 'a child target\'s renderer crashed (iframe)');
  assert.equal(m.state(1000).crashed, true);
});

test('a timeline through monitor and policy: load, a late request, then quiet', () => {
  const { m, tick } = monitorAt();
  const verdict = () => completionVerdict(m.state(60_000), { quietMs: 1000, stallMs: 10_000 });
  m.observe('Network.requestWillBeSent', { requestId: 'doc' }, true);
  tick(200);
  m.observe('Network.loadingFinished', { requestId: 'doc' }, true);
  m.observe('Page.loadEventFired', {}, true);
  tick(900);
  m.observe('Network.requestWillBeSent', { requestId: 'late' }, true); // a timer's request at 1100 ms
  tick(1500);
  assert.deepEqual(verdict(), { end: false }, 'the late request is in flight');
  m.observe('Network.loadingFinished', { requestId: 'late' }, true); // 2600 ms
  tick(999);
  assert.deepEqual(verdict(), { end: false });
  tick(1);
  assert.deepEqual(verdict(), { end: true, reason: 'quiet' });
});

test('waiters wake on the next event, browser loss and download', async () => {
  const m = new LoadMonitor();
  let woke = 0;
  const w1 = m.next(60_000).then(() => woke++);
  m.observe('Network.requestWillBeSent', { requestId: 'a' }, true);
  await w1;
  const w2 = m.until(() => m.downloadSeen);
  m.downloadBegan();
  await w2;
  const w3 = m.until(() => m.browserGone);
  m.browserClosed();
  await w3;
  assert.equal(woke, 1);
  assert.deepEqual([m.downloadSeen, m.browserGone], [true, true]);
});

test('timers: the hook\'s reports per session and document; a document that goes takes its timers', () => {
  const { m, tick } = monitorAt();
  const bind = (sid: string, ctx: number, payload: string): void => m.observe('Runtime.bindingCalled', { name: '__pcpTimer', executionContextId: ctx, payload }, sid === '', undefined, sid);
  bind('', 1, 'i 7 30 1000');
  bind('', 1, 'i 8 2000 1000');
  bind('S', 1, 'i 7 50 1000');
  bind('', 1, 'i nonsense');
  m.observe('Runtime.bindingCalled', { name: 'someoneElse', executionContextId: 1, payload: 'i 9 0 0' }, true);
  assert.deepEqual([...m.state(60_000).timersDue!], [1030, 3000, 1050]);
  tick(40);
  bind('', 1, 'f 7');
  bind('', 1, 'c 8');
  assert.deepEqual([...m.state(60_000).timersDue!], [1050], 'fired and cleared timers are no longer due; ids are per session');
  assert.deepEqual([m.state(60_000).lastTimerFire, m.state(60_000).timersRunning], [40, 1], 'timer 7\'s callback is running');
  tick(4000);
  bind('', 1, 'd 7');
  assert.deepEqual([m.state(60_000).lastTimerFire, m.state(60_000).timersRunning], [4040, 0], 'it returned 4 s later (a renderer held up inside it)');
  bind('', 1, 'c 7');
  assert.equal(m.timers.fired, 1, 'a clear after the fire changes nothing');
  m.observe('Runtime.executionContextDestroyed', { executionContextId: 1 }, false, undefined, 'S');
  assert.deepEqual([...m.state(60_000).timersDue!], []);
  bind('S', 2, 'i 1 10 0');
  m.observe('Runtime.executionContextsCleared', {}, false, undefined, 'S');
  assert.deepEqual([...m.state(60_000).timersDue!], []);
  assert.equal(m.timers.installed, 4);
});
