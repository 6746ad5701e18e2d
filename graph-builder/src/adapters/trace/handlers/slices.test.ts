/**
 * The slices handler on real Chromium 156 traces (../fixtures), with the dispatches it adds: window error
 * events of uncaught exceptions (error-events.ts) and the window's part of DOMContentLoaded (window-events.ts).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Slice } from '../load.ts';
import { fixtureEvents, fixtureOptions, runFixture } from './test-support.ts';
import { runHandlers } from './run.ts';
import { traceHandlers } from '../extract.ts';

function assertNested(slices: Slice[]): void {
  slices.forEach((sl, i) => {
    assert.equal(sl.index, i);
    if (i > 0) assert.ok(slices[i - 1]!.start < sl.start || (slices[i - 1]!.start === sl.start && slices[i - 1]!.end >= sl.end), `slice ${i} in order`);
    if (sl.parent === undefined) return;
    const p = slices[sl.parent]!;
    assert.ok(p.thread === sl.thread && p.start <= sl.start && p.end >= sl.end && sl.parent < i, `slice ${i} inside its parent`);
  });
}

test('example-site: the page\'s slices, sorted and nested, from time 0 on, in page time', () => {
  const { slices, threads } = runFixture('example-site.trace.json.gz');
  assertNested(slices.slices);
  assert.ok(slices.slices.every((sl) => sl.start >= 0 && threads.threads.has(sl.thread)));
  const parses = slices.slices.filter((sl) => sl.kind === 'parse' && sl.url?.endsWith('/index.html'));
  assert.equal(parses[0]!.line, 1, 'ParseHTML start lines are made 1-based');
  assert.ok(parses.reduce((a, p) => a + (p.parsedBytes ?? 0), 0) > 500, 'the parse slices carry the bytes they parsed');
  // The sync script app.js (tag on line 7) stops the parser, which resumes at its tag once it has run.
  const app = slices.slices.find((sl) => sl.kind === 'script' && sl.url?.endsWith('/app.js'))!;
  const resumed = parses.find((p) => p.start >= app.end)!;
  assert.equal(resumed.line, 7);
  const timer = slices.slices.find((sl) => sl.kind === 'timer')!;
  assert.equal(timer.timerId, '1');
  assert.ok(slices.slices.some((sl) => sl.kind === 'xhr' && sl.eventType === 'load' && sl.url?.endsWith('/news.json')));
  // The lookup finds the innermost slice around an instant.
  const fn = slices.slices.find((sl) => sl.kind === 'function' && sl.parent !== undefined)!;
  assert.equal(slices.innermost(fn.thread, (fn.start + fn.end) / 2), fn.index);
});

test('ev-error: the uncaught exception fires a window error event inside the throwing script', () => {
  const { slices } = runFixture('ev-error');
  assertNested(slices.slices);
  const errors = slices.slices.filter((sl) => sl.windowTarget);
  assert.equal(errors.length, 1);
  const [err] = errors;
  assert.equal(err!.eventType, 'error');
  const script = slices.slices[err!.parent!]!;
  assert.ok(script.kind === 'script' && script.url?.endsWith('/throws.js'), 'inside throws.js');
  // Without the exception (no DevTools log) there is no such dispatch.
  const bare = runHandlers(fixtureEvents('ev-error'), traceHandlers({ ...fixtureOptions('ev-error'), exceptions: [] })).slices;
  assert.equal(bare.slices.filter((sl) => sl.windowTarget).length, 0);
});

test('ev-document-completion: DOMContentLoaded is cut at the window\'s first handler (listeners.json)', () => {
  const { slices } = runFixture('ev-document-completion');
  assertNested(slices.slices);
  const dcl = slices.slices.filter((sl) => sl.eventType === 'DOMContentLoaded');
  assert.deepEqual(dcl.map((sl) => Boolean(sl.windowTarget)), [false, true]);
  const [doc, win] = dcl;
  assert.equal(doc!.end, win!.start, 'the document\'s part ends where the window\'s starts');
  const winHandler = slices.slices.find((sl) => sl.kind === 'function' && sl.parent === win!.index);
  assert.equal(winHandler?.line, 9, 'the window\'s handler (listeners.json line 8, 0-based) runs in the window\'s part');
  const bare = runHandlers(fixtureEvents('ev-document-completion'), traceHandlers({ ...fixtureOptions('ev-document-completion'), windowListeners: [] })).slices;
  const one = bare.slices.filter((sl) => sl.eventType === 'DOMContentLoaded');
  assert.equal(one.length, 1);
  assert.equal(one[0]!.end, win!.end);
});

test("ev-error: a ParseHTML run from script (its begin data has a stack) is marked scripted; the document parser's are not", () => {
  // The recording's own page parses have no stack. Beside them, the same trace with one innerHTML parse added:
  // a copy of the document's second ParseHTML with the begin data Chromium writes for a fragment (the
  // document's url and frame, start line 0, the script's stack).
  const events = fixtureEvents('ev-error');
  const docParse = events.find((e) => e.name === 'ParseHTML' && e.ph === 'X' && (e.args as { beginData?: { startLine?: number; url?: string } }).beginData?.startLine === 9)!;
  const begin = (docParse.args as { beginData: Record<string, unknown> }).beginData;
  const fragment = { ...docParse, ts: docParse.ts + 1, dur: 1, args: { beginData: { ...begin, startLine: 0, stackTrace: [{ functionName: 'render', scriptId: '9', url: begin.url, lineNumber: 3, columnNumber: 5 }] } } };
  const { slices } = runHandlers([...events, fragment], traceHandlers(fixtureOptions('ev-error')));
  const parses = slices.slices.filter((sl) => sl.kind === 'parse' && sl.url?.endsWith('/ev-error/index.html'));
  assert.deepEqual(parses.map((p) => [p.line, p.scripted ?? false]), [[1, false], [10, false], [1, true], [12, false], [12, false]]);
});
