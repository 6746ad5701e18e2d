import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { ConfigError, parseEmulatorOptions, resolveConfig } from '../config.ts';
import { expandPaths, parsePath } from './options.ts';

test('path2 parses BANDWIDTH,RTT[,LOSS] in tc units', () => {
  assert.deepEqual(parsePath('10mbit,200ms'), { bandwidthBps: 10e6, rttMs: 200 });
  assert.deepEqual(parsePath('2mbit, 40ms, 1%'), { bandwidthBps: 2e6, rttMs: 40, loss: 0.01 });
  assert.deepEqual(parsePath('2mbit,0.4s,0.05'), { bandwidthBps: 2e6, rttMs: 400, loss: 0.05 });
  for (const bad of ['10mbit', '10mbit,40ms,1%,x', 'fast,40ms', '10mbit,40ms,lots']) assert.throws(() => parsePath(bad), ConfigError, bad);
});

test('multipath options through parseEmulatorOptions, with one-line errors', () => {
  const c = parseEmulatorOptions({ bandwidth: '50mbit', rtt: '100ms', protocol: 'quic-lite', path2: '50mbit,500ms', 'mptcp-scheduler': 'stream', 'mptcp-cc': 'uncoupled', 'mptcp-lookahead': 'false' });
  assert.deepEqual(c.path2, { bandwidthBps: 50e6, rttMs: 500 });
  const r = resolveConfig(c);
  assert.equal(r.mptcpScheduler, 'stream');
  assert.equal(r.mptcpCc, 'uncoupled');
  assert.equal(r.mptcpLookahead, false);
  assert.deepEqual(resolveConfig({ bandwidthBps: 1e6, rttMs: 8, protocol: 'h2' }).path2, null);
  assert.throws(() => parseEmulatorOptions({ bandwidth: '1mbit', rtt: '8ms', 'mptcp-scheduler': 'random' }), /--mptcp-scheduler expects minrtt or stream, got 'random'/);
  assert.throws(() => parseEmulatorOptions({ bandwidth: '1mbit', rtt: '8ms', path2: '1mbit,8ms,150%' }), /path2 loss must be in \[0, 1\)/);
  assert.throws(() => parseEmulatorOptions({ bandwidth: '1mbit', rtt: '8ms', path2: '1mbit,8ms', cc: 'cubic' }), /LIA couples NewReno/);
  assert.throws(() => parseEmulatorOptions({ bandwidth: '1mbit', rtt: '8ms', path2: '1mbit,8ms', cc: 'cubic', 'mptcp-cc': 'olia' }), /OLIA couples NewReno/);
});

test('a grid\'s paths value stands for bandwidth, rtt and path2', () => {
  assert.deepEqual(expandPaths({ paths: '10mbit,40ms', protocol: 'h2' }), { protocol: 'h2', bandwidth: '10mbit', rtt: '40ms' });
  assert.deepEqual(expandPaths({ paths: '10mbit,40ms; 2mbit,200ms,1%' }), { bandwidth: '10mbit', rtt: '40ms', path2: '2mbit,200ms,1%' });
  assert.deepEqual(expandPaths({ bandwidth: '1mbit' }), { bandwidth: '1mbit' });
  assert.throws(() => expandPaths({ paths: '10mbit,40ms', rtt: '8ms' }), /either paths or rtt/);
  assert.throws(() => expandPaths({ paths: 'a,b;c,d;e,f' }), /one or two/);
  // The second path's own link options ride beside paths as grid keys.
  const spiky = resolveConfig(parseEmulatorOptions(expandPaths({ paths: '10mbit,40ms;5mbit,70ms,1%', 'path2-latency-spikes': '2s,300ms' })));
  assert.deepEqual([spiky.path2!.latencySpikes, spiky.latencySpikes], [{ intervalMs: 2000, durationMs: 300 }, undefined]);
});

test('the second path takes the first path\'s link options under path2-, resolved by the same code', () => {
  const trace = fileURLToPath(new URL('../../traces/cellular-variable.trace', import.meta.url));
  const c = parseEmulatorOptions({ bandwidth: '10mbit', rtt: '20ms', path2: '5mbit,60ms,1%', 'path2-loss-model': 'gilbert:1%,20%,0,30%', 'path2-latency-spikes': '2s,300ms', 'path2-downlink-trace': trace, 'path2-uplink-loss-model': 'list:1' });
  const r = resolveConfig(c);
  assert.deepEqual(r.path2!.loss, { kind: 'gilbert', pGB: 0.01, pBG: 0.2, lossG: 0, lossB: 0.3 }, 'the model replaces the random loss, as --loss-model does');
  assert.deepEqual(r.path2!.uplinkLoss, { kind: 'list', packets: [1] });
  assert.deepEqual(r.path2!.latencySpikes, { intervalMs: 2000, durationMs: 300 });
  assert.equal(r.path2!.downlinkTrace!.source, trace);
  assert.equal(r.path2!.uplinkTrace, undefined);
  assert.equal(r.loss, undefined, 'none of it reaches the first path');
  assert.equal(r.downlinkTrace, undefined);
  // A bare loss is each way, as --loss.
  const b = resolveConfig(parseEmulatorOptions({ bandwidth: '10mbit', rtt: '20ms', path2: '5mbit,60ms,1%' })).path2!;
  assert.deepEqual([b.loss, b.uplinkLoss], [{ kind: 'bernoulli', p: 0.01 }, { kind: 'bernoulli', p: 0.01 }]);
  assert.throws(() => parseEmulatorOptions({ bandwidth: '1mbit', rtt: '8ms', 'path2-latency-spikes': '2s,300ms' }), /--path2-latency-spikes needs --path2/);
  assert.throws(() => resolveConfig(parseEmulatorOptions({ bandwidth: '1mbit', rtt: '8ms', path2: '1mbit,8ms', 'path2-loss-model': 'gilbert:1' })), (e) => e instanceof ConfigError && e.message.startsWith("path2: loss model 'gilbert:1'"));
  assert.throws(() => resolveConfig(parseEmulatorOptions({ bandwidth: '1mbit', rtt: '8ms', path2: '1mbit,8ms', 'path2-downlink-trace': '/nonexistent.trace' })), /path2: cannot read link trace '\/nonexistent.trace': ENOENT/);
});
