import { test } from 'node:test';
import assert from 'node:assert/strict';
import { commandError, missingCapabilities, ShaperError } from './errors.ts';

test('missing capabilities are read from the CapEff mask', () => {
  assert.deepEqual(missingCapabilities('000001ffffffffff'), []); // root
  assert.deepEqual(missingCapabilities('0000000000000000'), ['CAP_NET_ADMIN', 'CAP_SYS_ADMIN']); // nobody
  assert.deepEqual(missingCapabilities((1n << 12n).toString(16)), ['CAP_SYS_ADMIN']);
});

test('command failures become one-line ShaperErrors that say what is missing', () => {
  const notFound = commandError(['tc', 'qdisc', 'add'], { code: 'ENOENT' });
  assert.ok(notFound instanceof ShaperError);
  assert.equal(notFound.message, "'tc' is not installed (Debian package iproute2)");
  const denied = commandError(['ip', 'netns', 'add', 'x'], { code: 1, stderr: 'mount --make-shared /run/netns failed: Operation not permitted\n' });
  assert.match(denied.message, /^not permitted: 'ip netns add x' \(the shaper needs root/);
  const noQdisc = commandError(['tc', '-n', 'x', 'qdisc', 'add', 'dev', 'lo', 'root', 'netem', 'delay', '1ms'], { code: 2, stderr: 'Error: Specified qdisc kind is unknown.\n' });
  assert.equal(noQdisc.message, "the kernel has no 'netem' qdisc ('tc -n x qdisc add dev lo root netem delay 1ms')");
  const other = commandError(['ip', 'link'], { code: 1, stderr: '\nError: something odd\nmore\n' });
  assert.equal(other.message, "'ip link' failed: Error: something odd");
  for (const e of [notFound, denied, noQdisc, other]) assert.ok(!e.message.includes('\n'));
});
