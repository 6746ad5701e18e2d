import { test } from 'node:test';
import assert from 'node:assert/strict';
import { persistentCongestion, probeTimeout } from './quic-pto.ts';

test('PTO = SRTT + max(4 RTTVAR, 1 ms) + max_ack_delay, doubled per expiration', () => {
  assert.equal(probeTimeout(40, 20, 0, 0), 120);
  assert.equal(probeTimeout(40, 0, 25, 0), 66);
  assert.equal(probeTimeout(40, 20, 0, 2), 480);
});

test('persistent congestion from two expirations on (1 + 2 periods >= 3)', () => {
  assert.equal(persistentCongestion(0), false);
  assert.equal(persistentCongestion(1), false);
  assert.equal(persistentCongestion(2), true);
});
