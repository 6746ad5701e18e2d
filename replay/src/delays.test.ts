import { test } from 'node:test';
import assert from 'node:assert/strict';
import { assignDelays, delayRecordsOf } from './delays.ts';
import type { ReplayEntry } from './archive.ts';

const entry = (url: string, method = 'GET'): ReplayEntry => ({ index: 0, method, url, status: 200, statusText: '', headers: [], body: undefined, protocol: '', delayMs: -1 });

test('each recorded response gets its own record, repeats in order, the rest none', () => {
  const entries = [entry('http://h/a'), entry('http://h/a'), entry('http://h/b', 'POST'), entry('http://h/c'), entry('http://h/d')];
  const s = assignDelays(entries, [
    { url: 'http://h/a', method: 'GET', delayMs: 10 },
    { url: 'http://h/a', method: 'GET', delayMs: 20, estimated: true },
    { url: 'http://h/b', method: 'POST', delayMs: 5 },
    { url: 'http://h/c', method: 'GET', delayMs: null },
  ]);
  assert.deepEqual(entries.map((e) => e.delayMs), [10, 20, 5, 0, 0]);
  assert.deepEqual(s, { measured: 2, estimated: 1, none: 2 });
});

test('delayRecordsOf: the list, bare or under records', () => {
  const r = [{ url: 'http://h/a', delayMs: 1 }];
  assert.deepEqual(delayRecordsOf(r), r);
  assert.deepEqual(delayRecordsOf({ records: r }), r);
  assert.throws(() => delayRecordsOf({}), /list of server-delay records/);
});
