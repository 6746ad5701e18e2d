/** Which slices are computations, on a real Chromium 156 trace of profiler/example-site. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { handlerOf } from './slice-tree.ts';
import { COMPUTATION_SLICES } from './select.ts';
import { contextOf, path } from './test-support.ts';

test('example-site: scripts, the style sheet, the timer and dispatches that ran page code; not parsing or layout', () => {
  const ctx = contextOf('example-site.trace.json.gz', 'select');
  const comps = ctx.compSlices;
  assert.deepEqual(
    comps.filter((sl) => sl.kind === 'script').map((sl) => path(sl.url)).sort(),
    ['/analytics.js', '/app.js', '/frame/embed.js', '/index.html', '/widgets.js'],
  );
  assert.deepEqual(comps.filter((sl) => sl.name === 'ParseAuthorStyleSheet').map((sl) => path(sl.url)), ['/style.css']);
  assert.equal(comps.filter((sl) => sl.kind === 'timer').length, 1);
  assert.ok(!comps.some((sl) => sl.kind === 'parse' || sl.kind === 'layout' || sl.name === 'UpdateLayoutTree'));
  comps.forEach((sl, i) => assert.equal(ctx.compOfSlice.get(sl.index), `comp_${i}`));
  for (const sl of comps) {
    const parent = sl.parent !== undefined ? ctx.slices[sl.parent]! : undefined;
    if (sl.kind === 'function') assert.ok(!parent || !COMPUTATION_SLICES.has(parent.kind), 'a call inside a computation is part of it');
    if (sl.kind === 'event' || sl.kind === 'xhr') assert.ok(handlerOf(ctx.slices, sl), 'page code ran in the dispatch');
  }
  // Dispatches with no page code are left out: the trace has many more events than computations.
  assert.ok(ctx.slices.filter((sl) => sl.kind === 'event').length > comps.filter((sl) => sl.kind === 'event').length);
});

test('r25: an event a script dispatched itself counts (its listener issued a request), though no FunctionCall ran it', () => {
  const ctx = contextOf('r25-event-specific', 'select');
  const change = ctx.compSlices.find((sl) => sl.eventType === 'change');
  assert.ok(change, 'the change event is a computation');
  assert.equal(ctx.slices[change.parent!]!.kind, 'script');
});
