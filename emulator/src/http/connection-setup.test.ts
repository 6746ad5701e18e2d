import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setupCosts, setupWork } from './connection-setup.ts';

test('setupWork: the recorded handshakes less their round trips (TCP one, TLS one more), never below 0', () => {
  assert.equal(setupWork({ host: 'a', connect: 13, tls: true, roundTrip: 0.1 }), 12.8);
  assert.equal(setupWork({ host: 'a', connect: 13, tls: false, roundTrip: 0.1 }), 12.9);
  // Recorded over a 40 ms path: 85 ms of handshakes are 80 ms of round trips and 5 ms of work.
  assert.equal(setupWork({ host: 'a', connect: 85, tls: true, roundTrip: 40 }), 5);
  assert.equal(setupWork({ host: 'a', connect: 30, tls: true, roundTrip: 40 }), 0);
});

test("setupCosts: each host's median, the page's median for hosts never connected to; nothing recorded costs nothing", () => {
  const c = setupCosts([
    { host: 'a', connect: 10, tls: false, roundTrip: 0 },
    { host: 'a', connect: 14, tls: false, roundTrip: 0 },
    { host: 'a', connect: 30, tls: false, roundTrip: 0 },
    { host: 'b', connect: 6, tls: false, roundTrip: 0 },
    { host: 'c', connect: 0, tls: false, roundTrip: 0 },
  ]);
  assert.equal(c.byHost.get('a'), 14);
  assert.equal(c.byHost.get('b'), 6);
  assert.equal(c.byHost.has('c'), false, 'a reused connection records no set-up');
  assert.equal(c.otherwise, 12);
  assert.deepEqual(setupCosts([]), { byHost: new Map(), otherwise: 0 });
});
