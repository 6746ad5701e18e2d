import { test } from 'node:test';
import assert from 'node:assert/strict';
import { earlyRetransmitDelay, earlyRetransmitDue, type ErState } from './early-retransmit.ts';

const base: ErState = { packetsOut: 2, sackedOut: 1, retransOut: 0, maySendNow: false };

test('early retransmit: fewer than four outstanding, one SACKed above the hole, nothing new to send', () => {
  assert.equal(earlyRetransmitDue(base), true);
  assert.equal(earlyRetransmitDue({ ...base, packetsOut: 3, sackedOut: 2 }), true);
});

test('no early retransmit with four outstanding (three duplicate ACKs can still come), nothing SACKed, or no hole', () => {
  assert.equal(earlyRetransmitDue({ ...base, packetsOut: 4, sackedOut: 1 }), false);
  assert.equal(earlyRetransmitDue({ ...base, sackedOut: 0 }), false);
  assert.equal(earlyRetransmitDue({ ...base, packetsOut: 1, sackedOut: 1 }), false);
});

test('no early retransmit while a retransmission is out or new data can be sent (it would make the duplicate ACKs)', () => {
  assert.equal(earlyRetransmitDue({ ...base, retransOut: 1 }), false);
  assert.equal(earlyRetransmitDue({ ...base, maySendNow: true }), false);
});

test('the delay is a quarter of the smoothed RTT, at least 2 ms', () => {
  assert.equal(earlyRetransmitDelay(40), 10);
  assert.equal(earlyRetransmitDelay(4), 2);
});
