import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigError } from '../config.ts';
import { Rng } from '../rng.ts';
import { LatencySpikes, parseSpikes } from './spikes.ts';
import { PageBuilder } from '@pcp/graph-builder/testing';
import { simulateChecked } from '../testing/check.ts';

test('parseSpikes: MEAN_INTERVAL,DURATION in tc units; one-line errors', () => {
  assert.deepEqual(parseSpikes('2s,300ms'), { intervalMs: 2000, durationMs: 300 });
  assert.throws(() => parseSpikes('2s'), ConfigError);
  assert.throws(() => parseSpikes('0,300ms'), /must be positive/);
  assert.throws(() => parseSpikes('2s,fast'), /not a time/);
});

test('LatencySpikes: departures inside a spike leave at its end, others untouched, order kept; mean gap as asked', () => {
  const s = new LatencySpikes({ intervalMs: 1000, durationMs: 100 }, new Rng(1, 6));
  let held = 0;
  let prev = 0;
  const n = 200_000;
  for (let i = 0; i < n; i++) {
    const t = i; // one departure per ms over 200 s
    const out = s.hold(t);
    assert.ok(out >= t && out >= prev, 'never earlier, never reordered');
    if (out > t) {
      held++;
      assert.ok(out - t <= 100, 'held at most one spike');
    }
    prev = out;
  }
  // A spike of 100 ms after an exponential gap of mean 1000 ms: about 100 / 1100 of the time is inside one.
  const share = held / n;
  assert.ok(share > 0.06 && share < 0.13, `share held ${share}`);
});

test('latency spikes on a page: seeded, never faster than without, some seeds slower', () => {
  const g = new PageBuilder().resource('r', 'http://a.com/x', 300 * 1448, { serverDelay: 0 }).edge('r', 'load').build();
  const base = { bandwidthBps: 10e6, rttMs: 40, protocol: 'h1' as const, queue: 'droptail' as const };
  const plain = simulateChecked(g, base).loadTime;
  const spiky = [1, 2, 3, 4, 5].map((seed) => simulateChecked(g, { ...base, latencySpikes: '200ms,50ms', seed }).loadTime);
  for (const l of spiky) assert.ok(l >= plain - 1e-9, `${l} >= ${plain}`);
  assert.ok(spiky.some((l) => l > plain + 1), 'spikes every ~200 ms over a ~400 ms transfer delay it');
});
