/** Computation activities per slice kind, on real Chromium 156 traces (../fixtures). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isTokenKey } from './context.ts';
import { NO_CAUSE } from '../../../model/types.ts';
import { chainReadyStates, computationActivities, unattributedElementEvent, type PendingComputation } from './computations.ts';
import { buildFromTrace } from '../../../build-trace.ts';
import { fixtureDir } from '../handlers/test-support.ts';
import { scriptRunBefore } from './slice-tree.ts';
import type { Slice } from '../load.ts';
import { contextOf, path } from './test-support.ts';

test('example-site: script kinds as declared, the timer after the inline script that set it, the XHR load on its download', () => {
  const ctx = contextOf('example-site.trace.json.gz');
  const comps = computationActivities(ctx);
  const kindOf = (file: string) => comps.find((c) => c.kind === 'ScriptEval' && path(c.scriptUrl) === file);
  assert.deepEqual(
    ['/app.js', '/analytics.js', '/widgets.js', '/frame/embed.js'].map((f) => kindOf(f)?.scriptKind),
    ['sync', 'async', 'defer', 'sync'],
  );
  const inline = comps.find((c) => c.scriptKind === 'inline')!;
  assert.ok(isTokenKey(inline.pending) && inline.pending.line === 17, 'the inline script waits for its tag (line 17)');
  assert.equal(inline.blocksParser, true);
  // A sync script's tag is reached no later than the script starts.
  const app = kindOf('/app.js')!;
  assert.ok(isTokenKey(app.pending) && app.pending.bound! <= app.start);
  assert.deepEqual(kindOf('/analytics.js')!.pending, { kind: 'none' }, 'an async script waits for its download alone');
  const timer = comps.find((c) => c.kind === 'Timer')!;
  assert.equal(timer.timerDelay, 50);
  assert.ok(!isTokenKey(timer.pending) && timer.pending.kind === 'computation' && timer.pending.id === inline.id);
  const xhr = comps.find((c) => c.eventTarget === 'XMLHTTPRequest')!;
  assert.deepEqual(xhr.eventSubjects, [ctx.resId.get(ctx.requests.find((r) => path(r.url) === '/news.json')!)]);
  assert.equal(xhr.previousOnTarget, undefined, 'the load hangs off its download');
  const css = comps.find((c) => c.kind === 'CssEval')!;
  assert.equal(css.source, ctx.resId.get(ctx.requests.find((r) => path(r.url) === '/style.css')!));
  for (const c of comps) assert.ok(c.end >= c.start && c.frame !== undefined);
});

test('ev-messageport: the port\'s handler is a MessagePort message caused by the script that posted it', () => {
  const ctx = contextOf('ev-messageport');
  const comps = computationActivities(ctx);
  const message = comps.find((c) => c.eventTarget === 'MessagePort')!;
  assert.equal(message.eventName, 'message');
  const poster = comps.find((c) => !isTokenKey(message.pending) && message.pending.kind === 'computation' && c.id === message.pending.id);
  assert.equal(poster?.scriptKind, 'inline');
});

test("Appendix A: an XHR's readystatechange from HEADERS_RECEIVED on follows the one before it, per request", () => {
  const slice = (name: string, readyState?: number) => ({ name, readyState }) as Slice;
  const event = (id: string, start: number, request: string) => ({ id, start, eventSubjects: [request] }) as PendingComputation;
  const slices = [slice('XHRReadyStateChange', 1), slice('XHRReadyStateChange', 2), slice('XHRReadyStateChange', 4), slice('XHRReadyStateChange', 2), slice('XHRLoad'), slice('XHRReadyStateChange', 3)];
  const comps = [event('opened', 0, 'a'), event('a2', 5, 'a'), event('a4', 9, 'a'), event('b2', 6, 'b'), event('aload', 10, 'a'), event('a3', 7, 'a')];
  chainReadyStates(slices, comps);
  assert.deepEqual(comps.map((c) => c.previousOnTarget), [undefined, undefined, 'a3', undefined, undefined, 'a2']);
});

test("synth-microsoftonline: a script element inserted again loads after its script's run (the memory cache's copy, no request)", () => {
  const ctx = contextOf('synth-microsoftonline');
  const comps = computationActivities(ctx);
  const byId = new Map(comps.map((c) => [c.id, c]));
  const repeats = ctx.compSlices.flatMap((sl) => {
    const c = byId.get(ctx.compOfSlice.get(sl.index)!)!;
    const ran = c.kind === 'Event' && c.eventName === 'load' && c.eventTarget === 'script' ? scriptRunBefore(ctx.slices, sl) : undefined;
    return ran && c.pending !== NO_CAUSE ? [{ c, ran }] : [];
  });
  // watsonsupport.min.js and watson.min.js, four repeats each.
  assert.equal(repeats.length, 8);
  for (const { c, ran } of repeats) assert.deepEqual(c.pending, { kind: 'computation', id: ctx.compOfSlice.get(ran.index), at: ran.end });
});

test('an element load whose element is unknown, or a scroll, follows what its thread ran last, with a warning', () => {
  const ctx = contextOf('synth-microsoftonline');
  const sl = ctx.compSlices.filter((x) => x.kind === 'event' && x.eventType === 'load')[7]!;
  const before = ctx.compSlices.filter((x) => x.thread === sl.thread && x.end <= sl.start).sort((a, b) => a.end - b.end).at(-1)!;
  const warnings = ctx.warnings.length;
  assert.deepEqual(unattributedElementEvent(ctx, sl), { kind: 'computation', id: ctx.compOfSlice.get(before.index), at: before.end });
  assert.equal(ctx.warnings.length, warnings + 1);
  assert.match(ctx.warnings.at(-1)!, /^no element found for the load event at [\d.]+ ms: ordered after comp_\d+/);
  assert.equal(unattributedElementEvent(ctx, { ...sl, eventType: 'click' }), NO_CAUSE, 'not user input');
  assert.deepEqual(unattributedElementEvent(ctx, { ...sl, eventType: 'scroll' }), { kind: 'computation', id: ctx.compOfSlice.get(before.index), at: before.end }, 'a scroll the page asked for');
  assert.match(ctx.warnings.at(-1)!, /^no cause in the trace for the scroll event at [\d.]+ ms: ordered after comp_\d+/);
});

test('synth-microsoftonline: the graph has one root, the document; no element load runs at time 0', () => {
  const { graph, warnings } = buildFromTrace(fixtureDir('synth-microsoftonline'));
  const parented = new Set(graph.edges.map((e) => e.to));
  assert.deepEqual(graph.nodes.filter((n) => !parented.has(n.id)).map((n) => n.id), [graph.root]);
  assert.ok(!warnings.some((w) => w.startsWith('no element found')), 'every element load attributed');
});
