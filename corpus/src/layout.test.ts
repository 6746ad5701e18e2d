import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pageId } from './layout.ts';

test('pageId: host, port and path as a filesystem-safe slug, then 8 hex of the url hash; stable', () => {
  const id = pageId('https://example.com:8443/a b/c?q=1#x');
  assert.match(id, /^example\.com_8443_a_20b_c_q_1-[0-9a-f]{8}$/);
  assert.equal(pageId('https://example.com:8443/a b/c?q=1#x'), id);
  assert.notEqual(pageId('https://example.com:8443/a b/c?q=1#y'), id, 'the whole url is hashed');
  assert.match(pageId('../../etc/passwd'), /^etc_passwd-[0-9a-f]{8}$/);
  assert.match(pageId('9gag.com'), /^9gag\.com-[0-9a-f]{8}$/);
});
