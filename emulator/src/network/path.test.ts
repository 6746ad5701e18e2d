import { test } from 'node:test';
import assert from 'node:assert/strict';
import { resolveConfig } from '../config.ts';
import { traceFromTimes } from './link-trace.ts';
import { BottleneckLink, LossyWire } from './bottleneck.ts';
import { buildPath } from './path.ts';

const cfg = (o = {}) => resolveConfig({ bandwidthBps: 10e6, rttMs: 40, protocol: 'h1', ...o });

test('buildPath: no uplink link unless it loses or is traced', () => {
  assert.equal(buildPath(cfg()).up, undefined);
  assert.ok(buildPath(cfg({ lossRate: 0.01 })).up instanceof LossyWire);
  assert.ok(buildPath(cfg({ uplinkTrace: traceFromTimes([1]) })).up instanceof BottleneckLink);
  assert.equal(buildPath(cfg()).down.lossy, false);
  assert.equal(buildPath(cfg({ lossRate: 0.01 })).down.lossy, true);
});

test('buildPath: a second path draws its own losses (other random streams), the same path the same ones', () => {
  const draws = (index: number): boolean[] => {
    const p = buildPath(cfg({ lossRate: 0.3 }), index);
    return Array.from({ length: 64 }, () => p.down.drawLoss());
  };
  assert.deepEqual(draws(0), draws(0));
  assert.notDeepEqual(draws(0), draws(1));
});
