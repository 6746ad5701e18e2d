import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Rng } from '../rng.ts';
import { LossyLink } from './network.ts';

test('a lossy path drops about its loss rate, seeded, before the queue', () => {
  const run = (): number[] => {
    const link = new LossyLink({ bandwidthBps: 1e9, rttMs: 40, loss: 0.1 }, 1.5, false, new Rng(1, 1), new Rng(7, 4));
    const out: number[] = [];
    for (let i = 0; i < 20000; i++) out.push(link.offer(i, 1500));
    assert.equal(link.packets, 20000);
    assert.equal(link.drops, out.filter((d) => d < 0).length);
    return out;
  };
  const a = run();
  const rate = a.filter((d) => d < 0).length / a.length;
  assert.ok(rate > 0.09 && rate < 0.11, `loss rate ${rate}`);
  assert.deepEqual(run(), a, 'the same seed drops the same packets');
  // Accepted packets leave after their serialisation (1 Gbit/s: 0.012 ms), as on a plain bottleneck.
  const i = a.findIndex((d) => d >= 0);
  assert.ok(Math.abs(a[i]! - (i + 0.012)) < 1e-9);
});
