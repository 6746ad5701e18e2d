import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ConnectionSetups } from './setup.ts';

test('a TLS connection\'s handshake goes to its first request only; plain or unknown connections cost nothing', () => {
  let t = 0;
  const s = new ConnectionSetups(() => t);
  const a = { remoteAddress: '127.0.0.1', remotePort: 5001 };
  const b = { remoteAddress: '127.0.0.1', remotePort: 5002 };
  s.accepted(a);
  s.accepted(b);
  t = 80;
  s.secured(a);
  assert.equal(s.take(a), 80);
  assert.equal(s.take(a), 0, 'a later request on the connection');
  assert.equal(s.take(b), 0, 'accepted, never secured: plain http');
  s.accepted(b);
  t = 95;
  s.secured(b);
  s.closed(b);
  assert.equal(s.take(b), 0, 'closed: forgotten');
  assert.equal(s.take({ remoteAddress: '::1', remotePort: 7 }), 0);
});
