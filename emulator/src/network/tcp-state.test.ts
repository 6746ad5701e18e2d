import assert from 'node:assert/strict';
import { test } from 'node:test';
import { delayedAckState, FrtoUndo, ReorderingState } from './tcp-state.ts';
import { LINUX_DELAYED_ACKS, THESIS_DELAYED_ACKS } from './tcp.ts';

test('delayed-ACK state exists only under a policy, starting in its quick-ACK mode with no timer', () => {
  assert.equal(delayedAckState(undefined), null);
  const linux = delayedAckState(LINUX_DELAYED_ACKS)!;
  assert.equal(linux.policy, LINUX_DELAYED_ACKS);
  assert.deepEqual([linux.quickAcks, linux.lastArrival, linux.armed, linux.gen, linux.unackedBytes, linux.unackedSegs], [16, -1, false, 0, 0, 0]);
  assert.equal(delayedAckState(THESIS_DELAYED_ACKS)!.quickAcks, 0, 'the thesis has no quick-ACK mode');
});

test('a re-ordering link starts at the given degree with no cut to undo until a recovery records one', () => {
  const ro = new ReorderingState<number>(3);
  assert.equal(ro.dupThresh, 3);
  assert.equal(ro.undoPending(), false);
  ro.undoCwnd = 10;
  assert.equal(ro.undoPending(), true);
  ro.undoCwnd = NaN;
  assert.equal(ro.undoPending(), false);
  assert.deepEqual([ro.highestAcked, ro.undoSsthresh, ro.dsackHead, ro.spuriousLosses], [-1, Infinity, 0, 0]);
});

test('F-RTO has nothing to undo until a timeout that lost ACKs records the window', () => {
  const f = new FrtoUndo();
  assert.ok(Number.isNaN(f.cwnd));
  assert.equal(f.ssthresh, Infinity);
});
