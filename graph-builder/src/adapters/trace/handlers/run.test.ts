/** The handler runner, on the trace adapter's real handler set and a real Chromium 156 trace. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Handler } from '../../handler.ts';
import { traceHandlers } from '../extract.ts';
import type { TraceEvent } from '../reader.ts';
import { finalizeOrder, runHandlers } from './run.ts';
import { fixtureEvents } from './test-support.ts';

test('the trace handlers finalize after the handlers they depend on', () => {
  const handlers = traceHandlers();
  const order = finalizeOrder(Object.fromEntries(Object.entries(handlers).map(([k, h]) => [k, h.deps ?? []])));
  assert.equal(order.length, Object.keys(handlers).length);
  for (const [name, h] of Object.entries(handlers)) for (const d of h.deps ?? []) assert.ok(order.indexOf(d) < order.indexOf(name), `${d} before ${name}`);
});

test('a dependency cycle or an unknown dependency is a clear error', () => {
  assert.throws(() => finalizeOrder({ a: ['b'], b: ['a'] }), /cycle: a -> b -> a/);
  assert.throws(() => finalizeOrder({ a: ['nope'] }), /a depends on unknown handler nope/);
});

test('each handler sees exactly the events of its kinds, in trace order', () => {
  const events = fixtureEvents('example-site.trace.json.gz');
  const seen: TraceEvent[] = [];
  const recorder: Handler<TraceEvent, TraceEvent[]> = { kinds: ['ResourceSendRequest', 'MarkLoad'], handleEvent: (e) => void seen.push(e), finalize() {}, data: () => seen };
  const out = runHandlers(events, { recorder });
  assert.deepEqual(out.recorder, events.filter((e) => e.name === 'ResourceSendRequest' || e.name === 'MarkLoad'));
  assert.ok(seen.length > 10);
});

test('a handler set run twice (reset between runs) gives the same data', () => {
  const events = fixtureEvents('ev-message');
  const handlers = traceHandlers();
  const first = runHandlers(events, handlers);
  const firstRequests = JSON.stringify(first.requests);
  const second = runHandlers(events, handlers);
  assert.equal(JSON.stringify(second.requests), firstRequests);
  assert.notEqual(second.requests, first.requests, 'fresh data, not the first run\'s');
  assert.equal(JSON.stringify(second.slices.slices), JSON.stringify(first.slices.slices));
  assert.deepEqual(second.marks, first.marks);
});
