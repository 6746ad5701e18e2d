/**
 * pcp emulate and pcp sweep end to end, through the real CLI entry point, on a hand-built page whose
 * load time is derived in emulator/src/simulator.test.ts (one 30-segment resource: 150.2 ms at 10 Mbit/s,
 * 40 ms, icwnd 10, 5 ms server delay).
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PageBuilder } from '@pcp/graph-builder/testing';

const PCP = fileURLToPath(new URL('../../bin/pcp.js', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'pcp-emulate-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const graphPath = join(dir, 'page.json');
writeFileSync(graphPath, JSON.stringify(new PageBuilder().resource('r', 'http://a.com/x', 30 * 1448, { serverDelay: 5 }).edge('r', 'load').edge('r', 'dcl').build()));

test('pcp emulate --json prints the completion times', () => {
  const out = execFileSync('node', [PCP, 'emulate', graphPath, '--bandwidth', '10mbit', '--rtt', '40ms', '--queue', 'droptail', '--runs', '3', '--json'], { encoding: 'utf8' });
  const r = JSON.parse(out) as { loadTime: number; domContentLoadedTime: number; endTime: number; resources: Array<{ id: string; handshake: number }>; drops: number; runs: number };
  assert.ok(Math.abs(r.loadTime - 150.2) < 1e-6, `load ${r.loadTime}`);
  assert.equal(r.runs, 3);
  assert.equal(r.drops, 0);
  assert.equal(r.resources[0]!.handshake, 40);
});

test('pcp emulate --json prints navigationStartOffset when the graph records its navigation', () => {
  // Navigation started 32.6 ms before the graph's time 0; the document's request went out 30.8 ms before it:
  // the emulation's time 0 (the document's request) is 32.6 - 30.8 = 1.8 ms after navigation start.
  const g = new PageBuilder().resource('r', 'http://a.com/x', 30 * 1448, { serverDelay: 5 }).edge('r', 'load').edge('r', 'dcl').build();
  const withNav = join(dir, 'nav.json');
  writeFileSync(withNav, JSON.stringify({ ...g, navigation: { navigationStartOffset: 32.6, documentRequest: -30.8, load: 280 } }));
  const r = JSON.parse(execFileSync('node', [PCP, 'emulate', withNav, '--bandwidth', '10mbit', '--rtt', '40ms', '--queue', 'droptail', '--json'], { encoding: 'utf8' })) as { loadTime: number; navigationStartOffset: number };
  assert.ok(Math.abs(r.navigationStartOffset - 1.8) < 1e-9, `offset ${r.navigationStartOffset}`);
  assert.ok(Math.abs(r.loadTime - 150.2) < 1e-6);
  const plain = JSON.parse(execFileSync('node', [PCP, 'emulate', graphPath, '--bandwidth', '10mbit', '--rtt', '40ms', '--json'], { encoding: 'utf8' })) as Record<string, unknown>;
  assert.equal('navigationStartOffset' in plain, false);
});

test('pcp emulate fails with one line on bad options or files', () => {
  const bad = spawnSync('node', [PCP, 'emulate', graphPath, '--bandwidth', 'fast', '--rtt', '40ms'], { encoding: 'utf8' });
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /not a rate: 'fast'/);
  const missing = spawnSync('node', [PCP, 'emulate', join(dir, 'nope.json'), '--bandwidth', '1mbit', '--rtt', '40ms'], { encoding: 'utf8' });
  assert.equal(missing.status, 1);
  assert.match(missing.stderr, /no such file/);
});

test('pcp sweep writes one row per (graph, config, run), skips a bad graph, and resumes', () => {
  const gridPath = join(dir, 'grid.json');
  writeFileSync(gridPath, JSON.stringify({ bandwidth: ['10mbit', '1mbit'], rtt: '40ms', protocol: ['h1', 'h2'], queue: 'droptail', runs: 2 }));
  const badGraph = join(dir, 'broken.json');
  writeFileSync(badGraph, '{"not": "a graph"}');
  const out = join(dir, 'results.csv');
  const first = spawnSync('node', [PCP, 'sweep', graphPath, badGraph, '--grid', gridPath, '--out', out, '--workers', '2'], { encoding: 'utf8' });
  assert.equal(first.status, 1, first.stderr);
  assert.match(first.stderr, /broken\.json/);
  const lines = readFileSync(out, 'utf8').trim().split('\n');
  assert.equal(lines.length, 1 + 4 * 2); // header + 4 configs x 2 runs for the good graph
  const row = lines.find((l) => l.includes('bandwidth=10mbit;rtt=40ms;protocol=h1'))!;
  assert.match(row, /,150\.200,/); // load time at 10 Mbit/s, derived by hand
  // Drop the last row (as if interrupted) and resume: only that row is recomputed.
  writeFileSync(out, `${lines.slice(0, -1).join('\n')}\n`);
  const again = spawnSync('node', [PCP, 'sweep', graphPath, '--grid', gridPath, '--out', out], { encoding: 'utf8' });
  assert.equal(again.status, 0, again.stderr);
  assert.match(again.stderr, /1 rows written/);
  assert.equal(readFileSync(out, 'utf8').trim().split('\n').length, 9);
});

test('pcp emulate: lossy-link options reach the simulation (a lost SYN/ACK costs the 1 s initial RTO); bad ones fail in one line', () => {
  // The SYN/ACK (downlink packet 1) lost: the SYN is retried at 1000, and everything moves by 1000 ms.
  const out = execFileSync('node', [PCP, 'emulate', graphPath, '--bandwidth', '10mbit', '--rtt', '40ms', '--queue', 'droptail', '--loss-model', 'list:1', '--uplink-loss-model', 'list:999', '--delayed-acks', '--json'], { encoding: 'utf8' });
  const r = JSON.parse(out) as { loadTime: number; losses: number };
  assert.ok(Math.abs(r.loadTime - 1150.2) < 1e-6, `load ${r.loadTime}`);
  assert.equal(r.losses, 1);
  const traced = spawnSync('node', [PCP, 'emulate', graphPath, '--bandwidth', '1mbit', '--rtt', '40ms', '--downlink-trace', fileURLToPath(new URL('../../../emulator/traces/const-12mbit.trace', import.meta.url)), '--loss', '1%', '--shard-large', '30kb'], { encoding: 'utf8' });
  assert.equal(traced.status, 0, traced.stderr);
  assert.match(traced.stdout, /losses \d+/);
  for (const [args, msg] of [
    [['--loss', '150%'], /not a loss rate: '150%'/],
    [['--loss-model', 'gilbert:0.1,0.2'], /gilbert takes four numbers/],
    [['--downlink-trace', join(dir, 'nope.trace')], /cannot read link trace .*nope\.trace': ENOENT/],
    [['--latency-spikes', '2s'], /expected MEAN_INTERVAL,DURATION/],
  ] as const) {
    const bad = spawnSync('node', [PCP, 'emulate', graphPath, '--bandwidth', '10mbit', '--rtt', '40ms', ...args], { encoding: 'utf8' });
    assert.equal(bad.status, 2, bad.stderr);
    assert.match(bad.stderr, msg);
    assert.equal(bad.stderr.trim().split('\n').length, 1, bad.stderr);
  }
});

test("pcp emulate --linux-rto: a lost request waits Linux's client RTO, 40 + max(80, 200) = 240 ms, not RFC 6298's 200", () => {
  // The request (uplink packet 2, after the SYN) lost at 40 and sent again one client RTO later: the load moves by it.
  const run = (...extra: string[]): number =>
    (JSON.parse(execFileSync('node', [PCP, 'emulate', graphPath, '--bandwidth', '10mbit', '--rtt', '40ms', '--queue', 'droptail', '--loss-model', 'list:999', '--uplink-loss-model', 'list:2', '--json', ...extra], { encoding: 'utf8' })) as { loadTime: number }).loadTime;
  assert.ok(Math.abs(run() - 350.2) < 1e-6);
  assert.ok(Math.abs(run('--linux-rto') - 390.2) < 1e-6);
});

test('pcp emulate --rwnd-growth: the receive window grows from --rwnd (between the fixed window and none); alone, a one-line error', () => {
  const run = (...extra: string[]): number =>
    (JSON.parse(execFileSync('node', [PCP, 'emulate', graphPath, '--bandwidth', '10mbit', '--rtt', '40ms', '--queue', 'droptail', '--json', ...extra], { encoding: 'utf8' })) as { loadTime: number }).loadTime;
  const fixed = run('--rwnd', '5kb'); // 3 segments a round trip for the 30-segment response
  const grown = run('--rwnd', '5kb', '--rwnd-growth');
  assert.ok(grown < fixed, `grown ${grown} fixed ${fixed}`);
  assert.ok(grown >= run() - 1e-9, `grown ${grown}`); // no faster than no window at all (150.2 ms)
  const bad = spawnSync('node', [PCP, 'emulate', graphPath, '--bandwidth', '10mbit', '--rtt', '40ms', '--rwnd-growth'], { encoding: 'utf8' });
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /receiveWindowGrowth needs a receiveWindow/);
  assert.equal(bad.stderr.trim().split('\n').length, 1, bad.stderr);
});

// Two paths: a 60-segment response ready at 160 ms (server delay 100), derived in emulator/src/mptcp/connection.test.ts:
// striped over two equal 10 Mbit/s / 40 ms paths it ends at 245.2 ms (30 segments on the second path); on one
// path the third round (30 segments, pairs at the bottleneck from 252.4 ms) ends at 288.4 + 10 = 298.4 ms.
const bigPath = join(dir, 'big.json');
writeFileSync(bigPath, JSON.stringify(new PageBuilder().resource('r', 'http://a.com/x', 60 * 1448, { serverDelay: 100 }).edge('r', 'load').build()));

test('pcp emulate --path2: MPTCP over a second path, and one-line errors for bad multipath options', () => {
  const r = JSON.parse(execFileSync('node', [PCP, 'emulate', bigPath, '--bandwidth', '10mbit', '--rtt', '40ms', '--protocol', 'h2', '--queue', 'droptail', '--path2', '10mbit,40ms', '--json'], { encoding: 'utf8' })) as { loadTime: number; multipath: { bytesPath2: number } };
  assert.ok(Math.abs(r.loadTime - 245.2) < 1e-6, `load ${r.loadTime}`);
  assert.equal(r.multipath.bytesPath2, 30 * 1448);
  const text = execFileSync('node', [PCP, 'emulate', bigPath, '--bandwidth', '10mbit', '--rtt', '40ms', '--path2', '10mbit,200ms', '--mptcp-scheduler', 'stream'], { encoding: 'utf8' });
  assert.match(text, /two paths: [0-9.]+% of bytes on the second \(10mbit,200ms\)/);
  for (const [args, msg] of [
    [['--path2', '10mbit'], /a path is BANDWIDTH,RTT\[,LOSS\]/],
    [['--path2', '10mbit,40ms', '--mptcp-cc', 'balia'], /--mptcp-cc expects lia, olia or uncoupled, got 'balia'/],
  ] as const) {
    const bad = spawnSync('node', [PCP, 'emulate', bigPath, '--bandwidth', '10mbit', '--rtt', '40ms', ...args], { encoding: 'utf8' });
    assert.equal(bad.status, 2, bad.stderr);
    assert.match(bad.stderr, msg);
    assert.equal(bad.stderr.trim().split('\n').length, 1, bad.stderr);
  }
});

test('pcp sweep: a paths list runs one and two paths', () => {
  const gridPath = join(dir, 'paths.json');
  writeFileSync(gridPath, JSON.stringify({ paths: ['10mbit,40ms', '10mbit,40ms;10mbit,40ms'], protocol: 'h2', queue: 'droptail' }));
  const out = join(dir, 'paths.csv');
  const run = spawnSync('node', [PCP, 'sweep', bigPath, '--grid', gridPath, '--out', out, '--workers', '1'], { encoding: 'utf8' });
  assert.equal(run.status, 0, run.stderr);
  const lines = readFileSync(out, 'utf8').trim().split('\n');
  assert.equal(lines.length, 3);
  assert.match(lines.find((l) => l.includes('paths=10mbit,40ms;protocol'))!, /,298\.400,/);
  assert.match(lines.find((l) => l.includes('paths=10mbit,40ms;10mbit,40ms;protocol'))!, /,245\.200,/);
});

test('pcp emulate --loss-detection: sack times a lost segment with two after it out (RTO), a bad word is one line', () => {
  // emulator/src/loss-detection.test.ts's page and loss: segment 8 of 10 lost, found by the RTO at 308.4 with
  // sack (client 329.6), by the next segment's ACK with the default NACK scheme (client 130.8).
  const g = join(dir, 'ten.json');
  writeFileSync(g, JSON.stringify(new PageBuilder().resource('r', 'http://a.com/x', 10 * 1448, { serverDelay: 0 }).edge('r', 'load').build()));
  const args = [PCP, 'emulate', g, '--bandwidth', '10mbit', '--rtt', '40ms', '--queue', 'droptail', '--loss-model', 'list:9', '--uplink-loss-model', 'bernoulli:0', '--json'];
  const load = (extra: string[]): number => (JSON.parse(execFileSync('node', [...args, ...extra], { encoding: 'utf8' })) as { loadTime: number }).loadTime;
  assert.ok(Math.abs(load(['--loss-detection', 'sack']) - 329.6) < 1e-6);
  assert.ok(Math.abs(load([]) - 130.8) < 1e-6);
  const bad = spawnSync('node', [...args, '--loss-detection', 'rack'], { encoding: 'utf8' });
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /--loss-detection expects nack or sack, got 'rack'/);
  assert.equal(bad.stderr.trim().split('\n').length, 1);
});

test("pcp emulate --option: an emulator option by name (the browser's recorded time off), one-line errors for bad pairs", () => {
  // The page's resource with a recorded response delay of 4 ms: 150.2 + 4 with browser delays, 150.2 without.
  const g = new PageBuilder().resource('r', 'http://a.com/x', 30 * 1448, { serverDelay: 5, browserDelay: { response: 4 } }).edge('r', 'load').edge('r', 'dcl').build();
  const file = join(dir, 'delays.json');
  writeFileSync(file, JSON.stringify(g));
  const run = (...extra: string[]): number =>
    (JSON.parse(execFileSync('node', [PCP, 'emulate', file, '--bandwidth', '10mbit', '--rtt', '40ms', '--queue', 'droptail', '--json', ...extra], { encoding: 'utf8' })) as { loadTime: number }).loadTime;
  assert.ok(Math.abs(run() - 154.2) < 1e-6);
  assert.ok(Math.abs(run('--option', 'browser-delays=false') - 150.2) < 1e-6);
  for (const [pair, message] of [['nope=1', /unknown emulator option 'nope'/], ['socket-lag', /expects KEY=VALUE/], ['socket-lag=maybe', /expects true or false/]] as const) {
    const bad = spawnSync('node', [PCP, 'emulate', file, '--bandwidth', '10mbit', '--rtt', '40ms', '--option', pair], { encoding: 'utf8' });
    assert.equal(bad.status, 2, pair);
    assert.match(bad.stderr, message);
    assert.equal(bad.stderr.trim().split('\n').length, 1);
  }
});
