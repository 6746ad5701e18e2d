import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Graph, TraceEvent } from '@pcp/graph-builder';
import { browserDelayMs, disturbance, disturbanceMs, leastDisturbed, mainThreadWaitMs } from './quiet-recording.ts';

const MAIN = { pid: 1, tid: 1 };
const task = (ts: number, dur: number, tdur: number | undefined, where = MAIN): TraceEvent =>
  ({ name: 'RunTask', cat: 'toplevel', ph: 'X', ts, dur, ...(tdur === undefined ? {} : { tdur }), ...where }) as TraceEvent;
const navStart = (ts: number, url: string): TraceEvent =>
  ({ name: 'navigationStart', cat: 'blink.user_timing', ph: 'R', ts, ...MAIN, args: { data: { isLoadingMainFrame: true, documentLoaderURL: url } } });
const markLoad = (ts: number): TraceEvent => ({ name: 'MarkLoad', cat: 'devtools.timeline', ph: 'I', ts, ...MAIN, args: { data: { isMainFrame: true } } });

test('main-thread waiting: wall minus thread CPU of the main renderer thread, navigation start to load', () => {
  const events = [
    task(500, 10_000, 1_000), // before the document's navigation start: not counted
    navStart(1_000, ''), // the initial about:blank: not the document's
    navStart(2_000, 'https://a.test/'),
    task(2_000, 706_000, 9_000), // ev-error's first task: 697 ms waiting
    task(800_000, 5_000, 5_000), // no waiting
    task(810_000, 4_000, 6_000), // CPU over wall (clock granularity): 0, never negative
    task(820_000, 50_000, 1_000, { pid: 2, tid: 7 }), // another thread: not counted
    task(830_000, 3_000, undefined), // no thread time: not counted
    markLoad(900_000),
    task(950_000, 100_000, 0), // after load: not counted
  ];
  assert.equal(mainThreadWaitMs(events), 697);
  assert.equal(mainThreadWaitMs(events.filter((e) => e.name !== 'MarkLoad')), 0);
});

const graph = (delays: ({ request?: number; response?: number } | undefined)[], load: number): Graph =>
  ({
    nodes: [
      ...delays.map((d, i) => ({ id: `r${i}`, kind: 'resource', frame: '0', start: 0, end: 1, url: `https://a.test/${i}`, ...(d ? { browserDelay: d } : {}) })),
      { id: 'c', kind: 'computation', frame: '0', start: 0, end: 1 },
    ],
    navigation: { navigationStartOffset: 40, load },
  }) as unknown as Graph;

test('browser delays summed over resources; load from navigation start', () => {
  const g = graph([{ request: 176, response: 2 }, { request: 259 }, undefined], 1000);
  assert.equal(browserDelayMs(g), 437);
  assert.deepEqual(disturbance([], g), { mainThreadWaitMs: 0, browserDelayMs: 437, loadMs: 1040 });
});

test('the least disturbed recording wins, ties to the smaller load, then the first', () => {
  const busy = { mainThreadWaitMs: 700, browserDelayMs: 600, loadMs: 1500 };
  const quiet = { mainThreadWaitMs: 5, browserDelayMs: 20, loadMs: 1600 }; // slower load, but quieter
  const quietFast = { mainThreadWaitMs: 20, browserDelayMs: 5, loadMs: 900 };
  assert.equal(disturbanceMs(quiet), 25);
  assert.equal(leastDisturbed([busy, quiet]), 1);
  assert.equal(leastDisturbed([busy, quiet, quietFast]), 2);
  assert.equal(leastDisturbed([quiet, { ...quiet }]), 0);
  assert.equal(leastDisturbed([busy]), 0);
  assert.throws(() => leastDisturbed([]), /no recording/);
});
