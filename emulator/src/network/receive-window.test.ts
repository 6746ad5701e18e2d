import { test } from 'node:test';
import assert from 'node:assert/strict';
import { adjustSpace, MAX_WINDOW_SEGMENTS, newReceiveWindow, onInOrderSegment, receiverRttSample } from './receive-window.ts';

test('receive window at set-up: rcv_ssthresh, window_clamp and the space all the initial window', () => {
  assert.deepEqual(newReceiveWindow(45), { threshold: 45, clamp: 45, space: 45, measureFrom: NaN, readAtStart: 0, rtt: NaN });
  assert.equal(MAX_WINDOW_SEGMENTS, 2172); // 6 MB buffer, half of it window: 3,145,728 / 1,448
});

test("receiver RTT: the first sample, then a 1/8 moving average (tcp_rcv_rtt_update with timestamps)", () => {
  const w = newReceiveWindow(4);
  receiverRttSample(w, 40);
  assert.equal(w.rtt, 40);
  receiverRttSample(w, 56);
  assert.equal(w.rtt, 42);
});

test('space adjustment: a measurement per receiver RTT, the clamp to 2 x its reads when that is more than ever before', () => {
  const w = newReceiveWindow(4);
  w.rtt = 40;
  adjustSpace(w, 10, 1); // the first read starts the measurement
  assert.deepEqual([w.measureFrom, w.readAtStart, w.clamp], [10, 1, 4]);
  adjustSpace(w, 49, 5); // 39 ms < 40: still measuring
  assert.deepEqual([w.measureFrom, w.clamp], [10, 4]);
  adjustSpace(w, 50, 6); // 40 ms: 5 segments read -> space 10 > 4
  assert.deepEqual([w.space, w.clamp, w.measureFrom, w.readAtStart], [10, 10, 50, 6]);
  adjustSpace(w, 90, 8); // 2 read: 4 < 10, nothing shrinks; a new measurement
  assert.deepEqual([w.space, w.clamp, w.measureFrom, w.readAtStart], [10, 10, 90, 8]);
  adjustSpace(w, 130, 8 + 2000); // 4,000 > the 6 MB buffer's 2,172
  assert.deepEqual([w.space, w.clamp], [4000, MAX_WINDOW_SEGMENTS]);
});

test('an in-order segment raises rcv_ssthresh by 2 up to the clamp, before the read adjusts the clamp; returns whether it grew', () => {
  const w = newReceiveWindow(4);
  assert.equal(onInOrderSegment(w, 20, 40, 1), false); // at the clamp: no growth; the sample and the measurement start
  assert.deepEqual([w.threshold, w.rtt, w.measureFrom], [4, 40, 20]);
  assert.equal(onInOrderSegment(w, 60, 40, 6), false); // the read raises the clamp to 10 after the (null) growth
  assert.deepEqual([w.threshold, w.clamp], [4, 10]);
  assert.equal(onInOrderSegment(w, 61, NaN, 7), true); // no sample (an ambiguous send time): the estimate stays
  assert.deepEqual([w.threshold, w.rtt], [6, 40]);
  onInOrderSegment(w, 62, 40, 8);
  onInOrderSegment(w, 63, 40, 9);
  assert.equal(w.threshold, 10);
  assert.equal(onInOrderSegment(w, 64, 40, 10), false); // capped at the clamp
});
