/** The completion policy on hand-made timelines (ms), no Chromium. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { completionVerdict, liveRequests, navigationVerdict, type LoadState, type Verdict } from './completion.ts';

const limits = { quietMs: 1000, stallMs: 10_000 };
const base: LoadState = { now: 0, deadline: 60_000, loadFired: false, lastActivity: 0, inFlight: [], crashed: false, browserGone: false, downloadSeen: false };
const at = (s: Partial<LoadState>): Verdict => completionVerdict({ ...base, ...s }, limits);
const ends = (reason: string): Verdict => ({ end: true, reason } as Verdict);
const goesOn: Verdict = { end: false };

/** Replays a timeline: the verdict at each sample, until the first end. */
function firstEnd(samples: Partial<LoadState>[]): { at: number; verdict: Verdict } | undefined {
  for (const s of samples) {
    const v = at(s);
    if (v.end) return { at: s.now ?? 0, verdict: v };
  }
  return undefined;
}

test('quiet: ends quietMs after the last activity once load fired, not before', () => {
  // load at 800 ms, last request finished at 1500 ms, sampled every 100 ms
  const samples = Array.from({ length: 40 }, (_, i) => ({ now: i * 100, loadFired: i * 100 >= 800, lastActivity: Math.min(i * 100, 1500) }));
  assert.deepEqual(firstEnd(samples), { at: 2500, verdict: ends('quiet') });
});

test('quiet is never reached before load, however long the page is idle', () => {
  assert.deepEqual(at({ now: 30_000, lastActivity: 0 }), goesOn);
  assert.deepEqual(at({ now: 30_000, lastActivity: 0, loadFired: true }), ends('quiet'));
});

test('quietFrom: a quiet page is not ended before it, and is as soon as it passes (the deadline still wins)', () => {
  const s = { loadFired: true, lastActivity: 1000, quietFrom: 8000 };
  assert.deepEqual(at({ ...s, now: 5000 }), goesOn, 'quiet for 4 s, but before quietFrom');
  assert.deepEqual(at({ ...s, now: 8000 }), ends('quiet'));
  assert.deepEqual(at({ ...s, now: 8500, lastActivity: 7900 }), goesOn, 'a request just before quietFrom: quiet counts from it');
  assert.deepEqual(at({ ...s, now: 8900, lastActivity: 7900 }), ends('quiet'));
  assert.deepEqual(at({ ...s, quietFrom: 90_000, now: 60_000 }), ends('timeout'));
  assert.deepEqual(at({ ...s, quietFrom: undefined, now: 2000 }), ends('quiet'), 'absent: as before');
});

test('a request in flight holds the capture open until it stalls for stallMs', () => {
  const s = { loadFired: true, lastActivity: 2000 };
  assert.deepEqual(at({ ...s, now: 5000, inFlight: [2000] }), goesOn, 'progressed 3 s ago: live');
  assert.deepEqual(at({ ...s, now: 11_999, inFlight: [2000] }), goesOn, 'just under stallMs');
  assert.deepEqual(at({ ...s, now: 12_000, inFlight: [2000] }), ends('quiet'), 'stalled for 10 s: ignored');
  assert.deepEqual(at({ ...s, now: 12_000, inFlight: [2000, 11_500] }), goesOn, 'one live request is enough');
  assert.equal(liveRequests(12_000, [2000, 11_500, 11_999], 10_000), 2);
});

test('the cap: timeout after load (still busy), no-load without it', () => {
  const busy = { now: 60_000, lastActivity: 59_950 };
  assert.deepEqual(at({ ...busy, loadFired: true }), ends('timeout'));
  assert.deepEqual(at({ ...busy, loadFired: false }), ends('no-load'));
  assert.deepEqual(at({ ...busy, now: 59_999, loadFired: true }), goesOn);
});

test('crash, lost browser and download end at once; a crash outranks the cap, a lost browser outranks a crash', () => {
  assert.deepEqual(at({ now: 100, crashed: true }), ends('renderer-crash'));
  assert.deepEqual(at({ now: 100, crashed: true, loadFired: true }), ends('renderer-crash'));
  assert.deepEqual(at({ now: 70_000, crashed: true }), ends('renderer-crash'));
  assert.deepEqual(at({ now: 100, crashed: true, browserGone: true }), ends('browser-crash'));
  assert.deepEqual(at({ now: 100, downloadSeen: true }), ends('download'));
  assert.deepEqual(at({ now: 100, downloadSeen: true, loadFired: true, lastActivity: 100 }), goesOn, 'a download after load is the page\'s business');
});

test('navigation: no answer, crash, download, net error, or a page loading', () => {
  const none = { crashed: false, browserGone: false, downloadSeen: false };
  assert.deepEqual(navigationVerdict(undefined, none), { reason: 'no-load' });
  assert.deepEqual(navigationVerdict(undefined, { ...none, browserGone: true }), { reason: 'browser-crash' });
  assert.deepEqual(navigationVerdict({ errorText: 'net::ERR_ABORTED' }, { ...none, crashed: true }), { reason: 'renderer-crash' });
  assert.deepEqual(navigationVerdict({ isDownload: true }, none), { reason: 'download' });
  assert.deepEqual(navigationVerdict({ errorText: 'net::ERR_ABORTED' }, { ...none, downloadSeen: true }), { reason: 'download' });
  assert.deepEqual(navigationVerdict({ errorText: 'net::ERR_CONNECTION_REFUSED' }, none), { reason: 'unreachable', navError: 'net::ERR_CONNECTION_REFUSED' });
  assert.equal(navigationVerdict({}, none), undefined);
});

test('timers: one due within the horizon (or overdue) holds quiet; a firing is activity; none: quiet as before', () => {
  const tl = { ...limits, timerHorizonMs: 5000, timerCapMs: 10_000 };
  const v = (s: Partial<LoadState>): Verdict => completionVerdict({ ...base, loadFired: true, lastActivity: 0, ...s }, tl);
  const held: Verdict = { end: false, heldByTimers: true };
  assert.deepEqual(v({ now: 2000, timersDue: [] }), ends('quiet'));
  assert.deepEqual(v({ now: 2000, timersDue: [1030] }), held, 'overdue by 970 ms: the renderer owes it');
  assert.deepEqual(v({ now: 2000, timersDue: [6900] }), held, 'due 4.9 s from now: within the horizon');
  assert.deepEqual(v({ now: 2000, timersDue: [7100] }), ends('quiet'), 'due 5.1 s from now: beyond it');
  assert.deepEqual(v({ now: 2000, timersDue: [], lastTimerFire: 1500 }), held, 'a timer fired 500 ms ago: not quiet yet');
  assert.deepEqual(v({ now: 2500, timersDue: [], lastTimerFire: 1500 }), ends('quiet'));
  assert.deepEqual(v({ now: 6000, timersDue: [], lastTimerFire: 1500, timersRunning: 1 }), held, 'a callback started 4.5 s ago has not returned: the renderer is inside it');
  assert.deepEqual(v({ now: 500, timersDue: [400] }), goesOn, 'the network is not quiet: plain busy, not held by timers');
  assert.deepEqual(completionVerdict({ ...base, loadFired: true, now: 2000, timersDue: [1030] }, limits), ends('quiet'), 'no horizon: timers are not followed');
});

test('timers: the cap ends a capture held by timers, counted from the first hold; the deadline still wins', () => {
  const tl = { ...limits, timerHorizonMs: 5000, timerCapMs: 10_000 };
  // A timer re-armed every 100 ms from 0 on; the network quiet from 1000 ms; the capture loop records
  // the first held verdict as timersHeldSince.
  let heldSince: number | undefined;
  let last: Verdict = goesOn;
  let t = 0;
  for (; t <= 30_000; t += 100) {
    last = completionVerdict({ ...base, now: t, loadFired: true, lastActivity: 0, timersDue: [t + 100], lastTimerFire: t, timersHeldSince: heldSince }, tl);
    if (last.end) break;
    if (last.heldByTimers) heldSince ??= t;
  }
  assert.equal(heldSince, 1000);
  assert.deepEqual({ t, last }, { t: 11_000, last: { end: true, reason: 'quiet', timerCap: true } });
  assert.deepEqual(completionVerdict({ ...base, now: 60_000, loadFired: true, timersDue: [60_050], timersHeldSince: 59_000 }, tl), ends('timeout'));
});
