import { test } from 'node:test';
import assert from 'node:assert/strict';
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
  assert.throws(() => parseEmulatorOptions({ bandwidth: '1mbit', rtt: '8ms', 'mptcp-scheduler': 'random' }), /--mptcp-scheduler must be one of minrtt, stream/);
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
});
