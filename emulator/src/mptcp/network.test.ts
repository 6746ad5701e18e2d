import { test } from 'node:test';
import assert from 'node:assert/strict';
import { resolveConfig } from '../config.ts';
import { buildPath } from '../network/path.ts';
import { path2Config } from './network.ts';

test('a lossy second path (buildPath index 1) loses about its loss rate each way, seeded, on its own random streams', () => {
  const cfg = resolveConfig({ bandwidthBps: 10e6, rttMs: 40, protocol: 'h2', queue: 'droptail', path2: { bandwidthBps: 1e9, rttMs: 40, loss: 0.1 } });
  const run = (index: number): number[] => {
    const { down, up } = buildPath(path2Config(cfg, cfg.path2!), index);
    assert.ok(up && up.lossy, 'its ACKs and handshakes are lost too, as the first path\'s with --loss');
    const out: number[] = [];
    for (let i = 0; i < 20000; i++) out.push(down.offer(i, 1500));
    assert.equal(down.packets, 20000);
    assert.equal(down.drops, 0);
    assert.equal(down.losses, out.filter((d) => d < 0).length);
    return out;
  };
  const a = run(1);
  const rate = a.filter((d) => d < 0).length / a.length;
  assert.ok(rate > 0.09 && rate < 0.11, `loss rate ${rate}`);
  assert.deepEqual(run(1), a, 'the same seed loses the same packets');
  assert.notDeepEqual(run(0), a, 'the first path would draw other numbers');
  // Kept packets leave after their serialisation (1 Gbit/s: 0.012 ms), as on a plain bottleneck.
  const i = a.findIndex((d) => d >= 0);
  assert.ok(Math.abs(a[i]! - (i + 0.012)) < 1e-9);
});
