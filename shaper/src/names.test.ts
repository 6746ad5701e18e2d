import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isAlive, namespaceNames, parseNetnsList } from './names.ts';

test('namespace names carry the owner pid and are found again in `ip netns list`', () => {
  const n = namespaceNames(4242, 3);
  assert.deepEqual(n, { client: 'pcp-4242-3-c', server: 'pcp-4242-3-s' });
  const listed = `${n.server} (id: 7)\n${n.client}\nother-ns\npcp-notapid-1-c\npcp-99-probe\n`;
  assert.deepEqual(parseNetnsList(listed), [
    { name: 'pcp-4242-3-s', pid: 4242 },
    { name: 'pcp-4242-3-c', pid: 4242 },
    { name: 'pcp-99-probe', pid: 99 },
  ]);
});

test('a live pid and a dead one', () => {
  assert.equal(isAlive(process.pid), true);
  assert.equal(isAlive(2 ** 22 + 1), false); // above pid_max
});
