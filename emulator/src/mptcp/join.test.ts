import { test } from 'node:test';
import assert from 'node:assert/strict';
import { joinStart } from './join.ts';

// The join's SYN leaves once the first data was ACKed: one RTT_1 after the first subflow's SYN exchange.
// (joinDuration, the join's own handshake on its path, is checked in simulations: connection.test.ts.)
test('joinStart: 2 RTT_1 after the SYN without loss, whatever the TLS round trips', () => {
  assert.equal(joinStart(40, 0, 40), 80); // the request rides the handshake's last ACK, ACKed one RTT later
  assert.equal(joinStart(80, 1, 40), 80); // TLS's first flight is ACKed by the server's at the end of the handshake
  assert.equal(joinStart(120, 2, 40), 80); // a second TLS round trip does not delay it
  assert.equal(joinStart(60, 0.5, 40), 80);
});

test('joinStart: a lost SYN (1 s backoff) delays the join by as much', () => {
  assert.equal(joinStart(1040, 0, 40), 1080);
  assert.equal(joinStart(1080, 1, 40), 1080);
});
