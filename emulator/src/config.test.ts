import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigError, EMULATOR_OPTIONS, EMULATOR_VALUE_OPTIONS, oneOf, parseEmulatorOptions, parseRate, parseTime, resolveConfig } from './config.ts';
import { parseGrid, doneKeys, csvHeader, rowKey, splitCsvLine } from './sweep/grid.ts';

test('tc units', () => {
  assert.equal(parseRate('500kbit'), 500e3);
  assert.equal(parseRate('2.5mbit'), 2.5e6);
  assert.equal(parseRate('1Gbit'), 1e9);
  assert.equal(parseRate('1mbps'), 8e6); // tc: bytes per second
  assert.equal(parseTime('40ms'), 40);
  assert.equal(parseTime('0.4s'), 400);
  assert.equal(parseTime('500us'), 0.5);
  assert.throws(() => parseRate('10 furlongs'), ConfigError);
  assert.throws(() => parseTime('fast'), ConfigError);
});

test('oneOf: the word when it is one of the values, else a ConfigError listing them as a sentence', () => {
  assert.equal(oneOf('queue', 'red', ['droptail', 'red']), 'red');
  assert.throws(() => oneOf('queue', 'RED', ['droptail', 'red']), (e: Error) => e instanceof ConfigError && e.message === "--queue expects droptail or red, got 'RED'");
  assert.throws(() => oneOf('cc', 'bbr', ['newreno', 'cubic', 'reno']), { message: "--cc expects newreno, cubic or reno, got 'bbr'" });
  assert.throws(() => oneOf('only', 'x', ['one']), { message: "--only expects one, got 'x'" });
});

test('parseEmulatorOptions builds a config and rejects bad combinations with a clear reason', () => {
  const c = parseEmulatorOptions({ bandwidth: '10mbit', rtt: '40ms', protocol: 'h2', priority: 'criticalPath', 'extra-rtt': 'cdn.com=20ms', unshard: 'a.com, b.a.com', seed: '3' });
  assert.deepEqual(c, { bandwidthBps: 10e6, rttMs: 40, protocol: 'h2', priority: 'criticalPath', extraRttMs: { 'cdn.com': 20 }, unshard: ['a.com', 'b.a.com'], seed: 3 });
  assert.throws(() => parseEmulatorOptions({ bandwidth: '10mbit', rtt: '40ms', protocol: 'h3' }), /--protocol expects h1.0, h1, h1-pipelined, h2 or quic-lite, got 'h3'/);
  assert.throws(() => parseEmulatorOptions({ bandwidth: '10mbit', rtt: '40ms', protocol: 'h1', server: 'out-of-order' }), /needs framing/);
  assert.throws(() => parseEmulatorOptions({ rtt: '40ms' }), /bandwidth is required/);
  assert.throws(() => parseEmulatorOptions({ bandwidth: '1mbit', rtt: '4ms', colour: 'red' }), /unknown emulator option/);
  const r = resolveConfig({ bandwidthBps: 1e6, rttMs: 10, protocol: 'h2' });
  assert.equal(r.server, 'out-of-order');
  assert.equal(r.connectionsPerHost, 1);
  assert.equal(resolveConfig({ bandwidthBps: 1e6, rttMs: 10, protocol: 'h1' }).server, 'parallel');
});

test('sweep grids: cartesian product, resume keys, CSV quoting', () => {
  const g = parseGrid({ bandwidth: ['1mbit', '10mbit'], rtt: '40ms', protocol: ['h1', 'h2'], runs: 2 });
  assert.equal(g.points.length, 4);
  assert.equal(g.runs, 2);
  assert.deepEqual(g.points.map((p) => p.key), [
    'bandwidth=1mbit;rtt=40ms;protocol=h1',
    'bandwidth=1mbit;rtt=40ms;protocol=h2',
    'bandwidth=10mbit;rtt=40ms;protocol=h1',
    'bandwidth=10mbit;rtt=40ms;protocol=h2',
  ]);
  assert.throws(() => parseGrid({ bandwidth: '1mbit', rtt: '4ms', protocol: 'gopher' }), /grid point/);
  const header = csvHeader(g);
  const text = `${header}\n"a,b.json",bandwidth=1mbit;rtt=40ms;protocol=h1,1mbit,40ms,h1,2,2,1,1,1,0,0,10,1\ntorn,li`;
  assert.deepEqual([...doneKeys(text, header)], [rowKey('a,b.json', 'bandwidth=1mbit;rtt=40ms;protocol=h1', 2)]);
  assert.throws(() => doneKeys('other,header\n', header), /another grid/);
  assert.deepEqual(splitCsvLine('"x ""y""",z'), ['x "y"', 'z']);
});

test('EMULATOR_OPTIONS is what parseEmulatorOptions reads: each switch sets its field, each value option is checked', () => {
  const base = { bandwidth: '1mbit', rtt: '40ms' };
  const switches = (Object.keys(EMULATOR_OPTIONS) as (keyof typeof EMULATOR_OPTIONS)[]).filter((k) => EMULATOR_OPTIONS[k] === 'switch');
  assert.deepEqual(switches.sort(), ['browser-delays', 'connection-setup', 'delayed-acks', 'early-retransmit', 'event-dispatch', 'fack', 'frame-commit', 'frto', 'linux-idle-restart', 'linux-rto', 'main-thread-tasks', 'navigation-commit', 'network-read', 'preconnect', 'preemption', 'preload-scanner', 'preloader', 'psh', 'quic-pto', 'release-hop', 'resource-scheduler', 'rwnd-growth', 'server-pacing', 'socket-lag', 'tlp']);
  for (const k of switches) {
    const off = parseEmulatorOptions({ ...base, [k]: 'false' });
    assert.equal(Object.values(off).filter((v) => v === false).length, 1, `${k}=false sets one field`);
  }
  // A value no option accepts: every declared value option is read (and so refuses it), none is ignored.
  for (const k of EMULATOR_VALUE_OPTIONS.filter((k) => k !== 'unshard')) {
    assert.throws(() => parseEmulatorOptions({ ...base, [k]: '@' }), ConfigError, k);
  }
});

test('early retransmit needs loss detection by ACK clocking', () => {
  assert.throws(() => resolveConfig(parseEmulatorOptions({ bandwidth: '1mbit', rtt: '40ms', 'early-retransmit': 'true' })), /earlyRetransmit needs lossDetection 'sack'/);
  assert.equal(resolveConfig(parseEmulatorOptions({ bandwidth: '1mbit', rtt: '40ms', 'early-retransmit': 'true', 'loss-detection': 'sack' })).earlyRetransmit, true);
});
