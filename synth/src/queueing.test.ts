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

/**
 * Six images (High) hold a host's six connections (ending at 100, 120, ..., 200); four requests come
 * while they do: a Low one at 10, an image (High) at 20, a style sheet (VeryHigh) at 30, a Medium one
 * at 40. The scheduler starts the High and VeryHigh ones at once (they wait for a socket in the pool)
 * and holds the two delayable ones while the host has six requests in flight, those waiting in the
 * pool counted. 100: the first connection frees, the pool gives it to the sheet (waited 70); eight in
 * flight less one. 120: the image (100); still six in flight. 140: five in flight, the scheduler
 * starts the Medium one, which takes the free connection (100). 160: the Low one (150). In arrival
 * order they would have waited 90, 100, 110 and 120.
 */
test('a freed connection goes to the waiting request of the highest priority, the earliest on a tie', () => {
  const prio: Record<string, number> = { async: 1, img7: 3, css: 4, late: 2 };
  const images = [0, 1, 2, 3, 4, 5].map((i) => r(`img${i + 1}`, `http://h.test/${i}.png`, 0, 100 + i * 20));
  const waiting = [r('async', 'http://h.test/a.js', 10, 300), r('img7', 'http://h.test/7.png', 20, 250), r('css', 'http://h.test/c.css', 30, 260), r('late', 'http://h.test/l.js', 40, 270)];
  const waits = connectionWaits([...images, ...waiting], (x) => prio[x.id] ?? 3);
  assert.deepEqual(Object.fromEntries(waits), { css: 70, img7: 100, late: 100, async: 150 });
  assert.deepEqual(Object.fromEntries(connectionWaits([...images, ...waiting])), { async: 90, img7: 100, css: 110, late: 120 });
  // One priority: first come, first served; ties at one time in the order given.
  const tie = connectionWaits([...images, r('x', 'http://h.test/x', 50, 400), r('y', 'http://h.test/y', 50, 400)], () => 3);
  assert.deepEqual(Object.fromEntries(tie), { x: 50, y: 70 });
});

test('a connection freed before the next request comes is taken at its request: no wait', () => {
  const images = [0, 1, 2, 3, 4, 5].map((i) => r(`i${i}`, `http://h.test/${i}.png`, 0, 100));
  assert.deepEqual([...connectionWaits([...images, r('later', 'http://h.test/l.png', 150, 200), r('low', 'http://h.test/low.js', 160, 210)], (x) => (x.id === 'low' ? 1 : 3))], []);
});

/**
 * Ten Low requests to ten hosts are in flight from 0 to 100: the page's limit of ten delayable
 * requests. An eleventh Low request to another host at 10 is held until one ends (100: waited 90);
 * a High one to a twelfth host at 10 starts at once.
 */
test('a delayable request waits while the page has ten delayable requests in flight, whatever their hosts', () => {
  const ten = Array.from({ length: 10 }, (_, i) => r(`l${i}`, `http://h${i}.test/i.png`, 0, 100));
  const prio: Record<string, number> = { high: 3 };
  const waits = connectionWaits([...ten, r('eleventh', 'http://h10.test/i.png', 10, 300), r('high', 'http://h11.test/a.js', 10, 300)], (x) => prio[x.id] ?? 1);
  assert.deepEqual(Object.fromEntries(waits), { eleventh: 90 });
});
