/** Events' targets and dispatch-less callbacks, on real Chromium 156 traces (../fixtures). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { callbackEvent, EventTargets, windowLoadTest } from './event-targets.ts';
import { handlerOf, scriptRunBefore } from './slice-tree.ts';
import type { Slice } from '../load.ts';
import { contextOf, path } from './test-support.ts';

test('callbacks: a postMessage delivery and a MessagePort message are messages; others window callbacks', () => {
  const message = contextOf('ev-message', 'none').slices.find((sl) => sl.kind === 'function' && sl.asyncTask === 'postMessage')!;
  assert.deepEqual(callbackEvent(message), { eventName: 'message', eventTarget: 'Window' });
  const port = contextOf('ev-messageport', 'none').slices.find((sl) => sl.postedFrom !== undefined)!;
  assert.deepEqual(callbackEvent(port), { eventName: 'message', eventTarget: 'MessagePort' });
  const plain = contextOf('example-site.trace.json.gz', 'none').slices.find((sl) => sl.kind === 'function' && sl.parent === undefined)!;
  assert.deepEqual(callbackEvent(plain), { eventName: 'callback', eventTarget: 'Window' });
});

test('example-site: of the load dispatches with page code, the window\'s is told by its timing', () => {
  const ctx = contextOf('example-site.trace.json.gz', 'none');
  const isWindowLoad = windowLoadTest(ctx.load);
  const loads = ctx.slices.filter((sl) => sl.eventType === 'load' && sl.kind === 'event' && handlerOf(ctx.slices, sl));
  assert.ok(loads.length >= 1);
  const windows = loads.filter((sl) => isWindowLoad(sl, sl.frame ?? handlerOf(ctx.slices, sl)!.frame ?? ctx.load.mainFrame));
  assert.equal(windows.length, 1);
});

test('ev-error: the missing image\'s error event targets that <img>, each resource claimed once', () => {
  const ctx = contextOf('ev-error', 'none');
  const targets = new EventTargets(ctx);
  const errors = ctx.slices.filter((sl) => sl.kind === 'event' && sl.eventType === 'error' && !sl.windowTarget);
  assert.ok(errors.length >= 1);
  const got = errors.map((sl) => targets.targetOf(sl, sl.frame ?? ctx.load.mainFrame, handlerOf(ctx.slices, sl)));
  const missing = ctx.resId.get(ctx.requests.find((r) => path(r.url).endsWith('/missing.png'))!);
  assert.deepEqual(got[0], { target: 'img', subjects: [missing] });
  const subjects = got.flatMap((g) => g.subjects);
  assert.equal(new Set(subjects).size, subjects.length);
  const windowError = ctx.slices.find((sl) => sl.windowTarget)!;
  assert.deepEqual(targets.targetOf(windowError, ctx.load.mainFrame, undefined), { target: 'Window', subjects: [] });
});

test("a load dispatched right after a script ran is that script's element's (the same task), not the download that finished last", () => {
  const sl = (index: number, kind: Slice['kind'], start: number, end: number, url?: string): Slice => ({ index, kind, name: kind, start, end, thread: 't', url });
  // a.js and b.js finished downloading; a.js ran (22 ms), then a load was dispatched; b.js runs later.
  const slices = [sl(0, 'script', 100, 122, 'http://x.test/a.js'), sl(1, 'event', 122.1, 123), sl(2, 'event', 130, 131), sl(3, 'script', 200, 210, 'http://x.test/b.js')];
  assert.equal(scriptRunBefore(slices, slices[1]!)?.url, 'http://x.test/a.js');
  assert.equal(scriptRunBefore(slices, slices[2]!), undefined, 'a dispatch 8 ms after the script is not its load');
});
