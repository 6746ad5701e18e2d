import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RetransmissionSlices, retransmissionShares, slotOf } from './retransmission-slices.ts';

test("per-slice counts from each connection's origin, both directions; unopened connections are not counted", () => {
  const s = new RetransmissionSlices(70);
  const a = {};
  const b = {};
  s.open(a, 20);
  s.receive(a, 25); // the request
  s.record(a, 20, false);
  s.record(a, 89.9, false);
  s.record(a, 90, true);
  s.receive(a, 100); // an ACK in slice 1
  s.record(a, 300, false); // slice 4: slices 2 and 3 stay empty
  s.record(b, 50, true); // never opened
  s.receive(b, 50);
  assert.deepEqual(s.connections, [{ sent: [2, 1, 0, 0, 1], retransmitted: [0, 1, 0, 0, 0], received: [1, 1, 0, 0, 0] }]);
});

test("Goel's figures: retransmitted / exchanged in each slice with a retransmission, and the lifetime share of connections that retransmitted", () => {
  const r = retransmissionShares([
    { sent: [10, 4], retransmitted: [0, 1], received: [3, 4] }, // slice 1: 1 of 4 + 4 = 1/8
    { sent: [5], retransmitted: [0], received: [2] },
    { sent: [2, 2], retransmitted: [1, 2], received: [0, 2] }, // 1 of 2 + 0 = 1/2; 2 of 2 + 2 = 1/2
  ]);
  assert.equal(r.clusterSlices, 3);
  assert.ok(Math.abs(r.meanClusterShare - (0.125 + 0.5 + 0.5) / 3) < 1e-12);
  assert.equal(r.medianClusterShare, 0.5);
  assert.ok(Math.abs(r.meanClusterShareOfSent - (0.25 + 0.5 + 1) / 3) < 1e-12, 'the server-only reading');
  assert.ok(Math.abs(r.lifetimeShare - 4 / 18) < 1e-12);
  assert.deepEqual(retransmissionShares([]), { clusterSlices: 0, meanClusterShare: 0, medianClusterShare: 0, meanClusterShareOfSent: 0, lifetimeShare: 0 });
});

test('slotOf: the slice from the origin (times before it in slice 0), every list grown to hold it with zeros', () => {
  const c = { sent: [3], retransmitted: [1], received: [2] };
  assert.equal(slotOf(c, 10, 5, 70), 0);
  assert.equal(slotOf(c, 10, 79.9, 70), 0);
  assert.equal(slotOf(c, 10, 220, 70), 3);
  assert.deepEqual(c, { sent: [3, 0, 0, 0], retransmitted: [1, 0, 0, 0], received: [2, 0, 0, 0] });
});
