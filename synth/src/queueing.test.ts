import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ResourceNode } from '@pcp/graph-builder';
import { connectionWaits } from './queueing.ts';
import { res } from './testing.ts';

const r = (id: string, url: string, start: number, end: number, more: Partial<ResourceNode> = {}): ResourceNode =>
  ({ ...res(id, url, 'image/png', 10, more), frame: 'main', start, end }) as ResourceNode;

test('the seventh request to an http host waits for the first connection to free up', () => {
  const six = [0, 1, 2, 3, 4, 5].map((i) => r(`a${i}`, `http://a.test/${i}.png`, 0, 100 + i * 10));
  const waits = connectionWaits([...six, r('late', 'http://a.test/7.png', 10, 300), r('other', 'http://b.test/x.png', 10, 300)]);
  assert.deepEqual([...waits], [['late', 90]]); // a0 ends at 100; b.test has its own connections
});

test('https hosts (HTTP/2), cached resources and a wait longer than the span', () => {
  const many = (base: string, more: Partial<ResourceNode> = {}) => [0, 1, 2, 3, 4, 5, 6].map((i) => r(`${base}${i}`, `${base}/${i}`, i, 100, more));
  assert.equal(connectionWaits(many('https://s.test')).size, 0);
  assert.equal(connectionWaits(many('http://c.test', { cached: true })).size, 0);
  const w = connectionWaits([...many('http://q.test').slice(0, 6), r('short', 'http://q.test/s', 10, 20)]);
  assert.equal(w.get('short'), 10); // the whole span was waiting: held for nothing
});
