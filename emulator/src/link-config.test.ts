import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigError, parseEmulatorOptions, resolveConfig } from './config.ts';

test('link options parse from words and resolve with their defaults', () => {
  const c = parseEmulatorOptions({ bandwidth: '5mbit', rtt: '40ms', loss: '1%', 'delayed-acks': 'true', 'shard-large': '30kb', 'latency-spikes': '2s,300ms' });
  assert.equal(c.lossRate, 0.01);
  assert.equal(c.delayedAcks, true);
  assert.equal(c.shardLarge, 30_000);
  assert.equal(parseEmulatorOptions({ bandwidth: '5mbit', rtt: '40ms', 'shard-connections': 'each' }).shardConnections, 0);
  assert.throws(() => parseEmulatorOptions({ bandwidth: '5mbit', rtt: '40ms', 'shard-connections': 'two' }), /shardConnections must be a non-negative integer/);
  assert.equal(parseEmulatorOptions({ bandwidth: '5mbit', rtt: '40ms', 'shard-overflow': 'main' }).shardOverflow, 'main');
  assert.throws(() => parseEmulatorOptions({ bandwidth: '5mbit', rtt: '40ms', 'shard-overflow': 'first' }), /shardOverflow must be one of round-robin, main, got 'first'/);
  assert.throws(() => resolveConfig({ bandwidthBps: 1e6, rttMs: 40, protocol: 'h2', shardOverflow: 'first' as 'main' }), /shardOverflow must be one of round-robin, main, got 'first'/);
  const r = resolveConfig(c);
  assert.deepEqual(r.loss, { kind: 'bernoulli', p: 0.01 });
  assert.deepEqual(r.uplinkLoss, r.loss, 'the uplink loses like the downlink unless told otherwise');
  assert.deepEqual(r.latencySpikes, { intervalMs: 2000, durationMs: 300 });
  const plain = resolveConfig({ bandwidthBps: 1e6, rttMs: 40, protocol: 'h1' });
  assert.equal(plain.loss, undefined);
  assert.equal(plain.delayedAcks, false);
  assert.equal(plain.shardLarge, 0);
  assert.equal(plain.psh, false);
  assert.equal(plain.tlp, false);
  assert.equal(plain.lossDetection, 'nack', "the thesis' NACK scheme unless told otherwise");
  const pt = resolveConfig(parseEmulatorOptions({ bandwidth: '5mbit', rtt: '40ms', psh: 'true', tlp: 'true', 'loss-detection': 'sack' }));
  assert.deepEqual([pt.psh, pt.tlp, pt.lossDetection], [true, true, 'sack']);
  const g = resolveConfig(parseEmulatorOptions({ bandwidth: '5mbit', rtt: '40ms', loss: '1%', 'loss-model': 'gilbert:1%,20%,0,30%', 'uplink-loss-model': 'bernoulli:0' }));
  assert.equal(g.loss?.kind, 'gilbert', 'a loss model replaces --loss');
  assert.deepEqual(g.uplinkLoss, { kind: 'bernoulli', p: 0 });
});

test('bad link options: one-line ConfigErrors', () => {
  const o = { bandwidth: '5mbit', rtt: '40ms' };
  assert.throws(() => parseEmulatorOptions({ ...o, loss: '2' }), ConfigError);
  assert.throws(() => parseEmulatorOptions({ ...o, 'shard-large': 'big' }), /--shard-large expects a size/);
  assert.throws(() => parseEmulatorOptions({ ...o, 'delayed-acks': 'maybe' }), /--delayed-acks expects true or false/);
  assert.throws(() => parseEmulatorOptions({ ...o, tlp: 'yes please' }), /--tlp expects true or false/);
  assert.throws(() => parseEmulatorOptions({ ...o, 'loss-detection': 'rack' }), /--loss-detection expects nack or sack, got 'rack'/);
  assert.throws(() => resolveConfig({ bandwidthBps: 1e6, rttMs: 40, protocol: 'h1', lossDetection: 'rack' as 'sack' }), /lossDetection must be one of nack, sack, got 'rack'/);
  assert.throws(() => parseEmulatorOptions({ ...o, 'downlink-trace': '/nonexistent.trace' }), /cannot read link trace/);
  assert.throws(() => resolveConfig({ bandwidthBps: 1e6, rttMs: 40, protocol: 'h1', lossRate: 1 }), /lossRate must be in \[0, 1\)/);
});

test('--rwnd: the receive window in bytes, whole segments of it; unlimited by default; under one segment refused', () => {
  const c = parseEmulatorOptions({ bandwidth: '5mbit', rtt: '70ms', rwnd: '65kb' });
  assert.equal(c.receiveWindow, 65_000);
  assert.equal(resolveConfig(c).receiveWindowSegments, 44); // 65,000 / 1,448
  assert.equal(resolveConfig({ bandwidthBps: 1e6, rttMs: 40, protocol: 'h1' }).receiveWindowSegments, Infinity);
  assert.throws(() => parseEmulatorOptions({ bandwidth: '5mbit', rtt: '70ms', rwnd: '1kb' }), /receiveWindow must hold at least one segment/);
  assert.throws(() => parseEmulatorOptions({ bandwidth: '5mbit', rtt: '70ms', rwnd: 'lots' }), /--rwnd expects a size in bytes/);
});
