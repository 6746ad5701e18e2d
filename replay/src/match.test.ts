import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createMatcher, isNoiseParam, looseKey } from './match.ts';
import type { ReplayEntry } from './archive.ts';

const entry = (index: number, url: string, method = 'GET'): ReplayEntry => ({
  index, method, url, status: 200, statusText: 'OK', headers: [], body: Buffer.from(String(index)), protocol: 'http/1.1', delayMs: 0,
});

test('noise parameters: cache-buster names and generated-looking values', () => {
  for (const [k, v] of [['_', '1'], ['cb', 'x'], ['ts', '5'], ['v', '1700000000000'], ['rnd', '0.123'], ['x', '0.8234234'], ['id', 'a8f3c9d0e1b2c3d4e5f6']] as const) {
    assert.ok(isNoiseParam(k, v), `${k}=${v} is noise`);
  }
  for (const [k, v] of [['lang', 'en'], ['page', '2'], ['v', '3.1.4'], ['q', 'hello-world'], ['id', '12345']] as const) {
    assert.ok(!isNoiseParam(k, v), `${k}=${v} is kept`);
  }
  assert.equal(looseKey('get', 'http://h:1/p?b=2&_=99&a=1'), looseKey('GET', 'http://h:1/p?a=1&b=2'));
});

test('exact URL first, then the same path with the noise-free query; others miss', () => {
  const m = createMatcher([entry(0, 'http://h:1/data.json?_=1700000000001&lang=en'), entry(1, 'http://h:1/data.json?_=1700000000002&lang=en'), entry(2, 'http://h:1/data.json?lang=fr')]);
  assert.deepEqual(pick(m.match('GET', 'http://h:1/data.json?_=1700000000002&lang=en')), [1, 'exact']);
  // A new timestamp: the recorded responses of that query in recorded order.
  assert.deepEqual(pick(m.match('GET', 'http://h:1/data.json?_=1800000000000&lang=en')), [0, 'query']);
  assert.deepEqual(pick(m.match('GET', 'http://h:1/data.json?lang=en&_=1800000000001')), [1, 'query']);
  assert.deepEqual(pick(m.match('GET', 'http://h:1/data.json?lang=en&_=1800000000002')), [1, 'query'], 'the last one repeats');
  assert.deepEqual(pick(m.match('GET', 'http://h:1/data.json?lang=fr&cb=7')), [2, 'query']);
  assert.equal(m.match('GET', 'http://h:1/data.json?lang=de'), undefined, 'a meaningful parameter differs');
  assert.equal(m.match('POST', 'http://h:1/data.json?lang=fr'), undefined, 'another method');
  assert.equal(m.match('GET', 'http://h:2/data.json?lang=fr'), undefined, 'another origin');
});

test('repeated exact URLs are answered in recorded order, the last repeating; fragments are ignored', () => {
  const m = createMatcher([entry(0, 'http://h:1/a'), entry(1, 'http://h:1/a')]);
  assert.deepEqual([m.match('GET', 'http://h:1/a#x'), m.match('GET', 'http://h:1/a'), m.match('GET', 'http://h:1/a')].map((r) => r?.entry.index), [0, 1, 1]);
});

function pick(r: ReturnType<ReturnType<typeof createMatcher>['match']>): [number, string] | undefined {
  return r && [r.entry.index, r.kind];
}
