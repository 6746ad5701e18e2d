import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mappedAddress } from './pcap.ts';

test('mappedAddress: plain and host:port patterns, wildcards, the first matching rule, ~NOTFOUND', () => {
  assert.equal(mappedAddress('a.test', 'MAP a.test 127.0.0.1:8000'), '127.0.0.1');
  assert.equal(mappedAddress('a.test', undefined), undefined);
  // The replay's rules: host:port patterns, then everything else to nowhere.
  const replay = 'MAP www.a.test:443 127.0.0.1:41000, MAP cdn.b.test:443 10.0.0.2:41001, MAP * ~NOTFOUND';
  assert.equal(mappedAddress('www.a.test', replay), '127.0.0.1');
  assert.equal(mappedAddress('cdn.b.test', replay), '10.0.0.2');
  assert.equal(mappedAddress('other.test', replay), undefined);
  assert.equal(mappedAddress('x.b.test', 'MAP *.b.test 127.0.0.2'), '127.0.0.2');
  assert.equal(mappedAddress('b.test', 'MAP *.b.test 127.0.0.2'), undefined);
});
