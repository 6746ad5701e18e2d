import { test } from 'node:test';
import assert from 'node:assert/strict';
import { resolveConfig } from '../config.ts';
import { traceFromTimes } from './link-trace.ts';
import { BottleneckLink, LossyWire } from './bottleneck.ts';
import { buildPath } from './path.ts';
import { path2Config } from '../mptcp/network.ts';

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

test('buildPath: the queue is 1.5 BDP, floored at 4 packets unless minQueuePackets says otherwise', () => {
  // 10 Mbit/s x 40 ms = 50,000 bytes = 33.3 packets of 1,500 bytes on the wire; x 1.5 = 50 packets.
  assert.equal(buildPath(cfg()).down.maxQueue, 50);
  assert.equal(buildPath(cfg({ minQueuePackets: 8 })).down.maxQueue, 50);
  // 2 Mbit/s x 8 ms = 2,000 bytes = 1.33 packets; x 1.5 = 2 packets: floored.
  const slow = { bandwidthBps: 2e6, rttMs: 8 };
  assert.equal(buildPath(cfg(slow)).down.maxQueue, 4);
  assert.equal(buildPath(cfg({ ...slow, minQueuePackets: 8 })).down.maxQueue, 8);
  assert.equal(buildPath(cfg({ ...slow, minQueuePackets: 1 })).down.maxQueue, 2);
  assert.throws(() => cfg({ minQueuePackets: 0 }), /minQueuePackets must be a positive integer/);
});

test('buildPath: the second path (MPTCP) is floored the same way', () => {
  const c = cfg({ bandwidthBps: 10e6, rttMs: 8, minQueuePackets: 8, path2: { bandwidthBps: 2e6, rttMs: 8 } });
  assert.equal(buildPath(path2Config(c, c.path2!), 1).down.maxQueue, 8);
});
