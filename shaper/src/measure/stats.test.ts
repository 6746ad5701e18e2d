import { test } from 'node:test';
import assert from 'node:assert/strict';
import { goodputBps, lossTolerance, udpRate } from './stats.ts';

test('goodput skips the warm-up and divides the bytes after it by their time', () => {
  // 1 kB at t=0 (slow start), then 125,000 B/s for 2 s
  const samples: [number, number][] = [[0, 1000], [400, 2000], [1000, 10000], [2000, 135000], [3000, 260000]];
  assert.equal(goodputBps(samples, 1000), ((260000 - 10000) * 8) / 2);
  assert.ok(Number.isNaN(goodputBps([[0, 10]], 0)));
});

test('loss tolerance is the binomial spread around p·n, and exact for p = 0', () => {
  assert.deepEqual(lossTolerance(4000, 0), { min: 0, max: 0 });
  const t = lossTolerance(4000, 0.01); // mean 40, sd 6.29
  assert.ok(t.min >= 14 && t.min <= 16, `min ${t.min}`);
  assert.ok(t.max >= 64 && t.max <= 66, `max ${t.max}`);
});

test('UDP probes use at most half the link', () => {
  assert.equal(udpRate(1.6e6, 200), Math.floor(0.8e6 / (228 * 8)));
  assert.equal(udpRate(100e6, 200), 2000);
  assert.ok(udpRate(1.6e6, 200) * 228 * 8 <= 0.8e6);
});
