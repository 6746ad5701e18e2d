import { test } from 'node:test';
import assert from 'node:assert/strict';
import { estimateCompletion, minRttChoice, streamChoice, type SubflowView } from './scheduler.ts';

const MSS = 1448;
const flow = (rtt: number, over: Partial<SubflowView> = {}): SubflowView => ({ rtt, cwnd: 10, ssthresh: Infinity, inRecovery: false, available: true, up: true, ...over });

test('completion estimate (Algorithm 8): slow start doubles per RTT, congestion avoidance sends cwnd per RTT', () => {
  // 12 segments, cwnd 10, RTT 40: 20 (one way) + 40 (first window) + 2 segments at 20 segments per 40 ms = 64.
  assert.equal(estimateCompletion(12 * MSS, flow(40)), 64);
  // Within the first window: 20 + 5 segments at 10 per 40 ms = 40.
  assert.equal(estimateCompletion(5 * MSS, flow(40)), 40);
  // Congestion avoidance (cwnd >= ssthresh): 20 + 30 segments at 10 per 40 ms = 140.
  assert.equal(estimateCompletion(30 * MSS, flow(40, { ssthresh: 8 })), 140);
  // In recovery the rate is ssthresh's: 5 segments per 40 ms.
  assert.equal(estimateCompletion(10 * MSS, flow(40, { cwnd: 12, ssthresh: 5, inRecovery: true })), 100);
});

test('min-RTT: the lowest-RTT subflow with room', () => {
  assert.equal(minRttChoice([flow(40), flow(200)]), 0);
  assert.equal(minRttChoice([flow(40, { available: false }), flow(200)]), 1);
  assert.equal(minRttChoice([flow(40, { available: false }), flow(200, { available: false })]), -1);
});

test('Stream Scheduler: viable subflows (RTT/2 <= alpha), the highest-RTT viable one sends, lookahead', () => {
  const flows = [flow(40), flow(200)];
  // A large resource: alpha is far beyond 100 ms, both viable, the slower one sends first (§6.4.1).
  assert.deepEqual(streamChoice(1, () => 200 * MSS, flows, true), [0, 1]);
  // 12 segments: alpha 64 < 100, only subflow 0 is viable.
  assert.deepEqual(streamChoice(1, () => 12 * MSS, flows, true), [0, 0]);
  // Subflow 0 full: wait, unless lookahead finds a later resource (2 + 40 segments: alpha 112 >= 100).
  const full = [flow(40, { available: false }), flow(200)];
  const sizes = [2 * MSS, 40 * MSS];
  assert.equal(streamChoice(2, (k) => sizes[k]!, full, false), null);
  assert.deepEqual(streamChoice(2, (k) => sizes[k]!, full, true), [1, 1]);
  // A subflow not yet joined counts for neither alpha nor sending.
  assert.deepEqual(streamChoice(1, () => 200 * MSS, [flow(40), flow(200, { up: false, available: false })], true), [0, 0]);
});
