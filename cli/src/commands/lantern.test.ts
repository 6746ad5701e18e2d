/**
 * pcp lantern end to end, through the real CLI entry point, on the example-site bundle recorded by the
 * profiler (emulator/src/lantern/fixtures/example-site). Structural checks only: Lantern's times are
 * whatever Lantern computes.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const PCP = fileURLToPath(new URL('../../bin/pcp.js', import.meta.url));
const BUNDLE = fileURLToPath(new URL('../../../emulator/src/lantern/fixtures/example-site/', import.meta.url));
const pcp = (...args: string[]) => spawnSync('node', [PCP, 'lantern', ...args], { encoding: 'utf8' });

interface Out {
  loadTime: number;
  domContentLoadedTime: number;
  fcp?: number;
  dns: boolean;
  details: { dnsRttMultiplier: number; networkNodes: number; recorded: { loadTime: number } };
  variants: { lantern: { loadTime: number }; noDns: { loadTime: number } };
}

test('pcp lantern --json: both DNS variants, the headline chosen by --no-dns', () => {
  const r = pcp(BUNDLE, '--bandwidth', '5mbit', '--rtt', '40ms', '--json');
  assert.equal(r.status, 0, r.stderr);
  const a = JSON.parse(r.stdout) as Out;
  assert.equal(a.dns, true);
  assert.equal(a.loadTime, a.variants.lantern.loadTime);
  assert.ok(a.domContentLoadedTime <= a.loadTime && a.fcp! > 0);
  assert.ok(a.variants.noDns.loadTime < a.variants.lantern.loadTime, 'zeroing DNS shortens the load');
  assert.ok(a.details.networkNodes >= 10 && a.details.recorded.loadTime > 0);
  const n = pcp(join(BUNDLE, 'trace.json.gz'), '--bandwidth', '5mbit', '--rtt', '40ms', '--json', '--no-dns');
  assert.equal(n.status, 0, n.stderr);
  const b = JSON.parse(n.stdout) as Out;
  assert.equal(b.dns, false);
  assert.equal(b.details.dnsRttMultiplier, 0);
  assert.equal(b.loadTime, a.variants.noDns.loadTime, 'a trace file and its bundle directory give the same answer');
});

test('pcp lantern: slower network, later load (text output)', () => {
  const slow = pcp(BUNDLE, '--bandwidth', '1.6mbit', '--rtt', '150ms', '--json');
  const fast = pcp(BUNDLE, '--bandwidth', '50mbit', '--rtt', '20ms', '--json');
  assert.ok((JSON.parse(slow.stdout) as Out).loadTime > (JSON.parse(fast.stdout) as Out).loadTime);
  const text = pcp(BUNDLE, '--bandwidth', '5mbit', '--rtt', '40ms');
  assert.equal(text.status, 0, text.stderr);
  assert.match(text.stdout, /lantern no-DNS/);
  assert.match(text.stdout, /recorded/);
});

test('pcp lantern fails with one line on bad options and inputs', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pcp-lantern-'));
  try {
    const rate = pcp(BUNDLE, '--bandwidth', 'fast', '--rtt', '40ms');
    assert.equal(rate.status, 2);
    assert.match(rate.stderr, /not a rate: 'fast'/);
    const rtt = pcp(BUNDLE, '--bandwidth', '1mbit');
    assert.equal(rtt.status, 2);
    assert.match(rtt.stderr, /--rtt is required/);
    const missing = pcp(join(dir, 'nope'), '--bandwidth', '1mbit', '--rtt', '40ms');
    assert.equal(missing.status, 1);
    assert.match(missing.stderr, /no such file/);
    mkdirSync(join(dir, 'empty'));
    const empty = pcp(join(dir, 'empty'), '--bandwidth', '1mbit', '--rtt', '40ms');
    assert.equal(empty.status, 1);
    assert.match(empty.stderr, /no trace\.json\.gz/);
    writeFileSync(join(dir, 'junk.json'), '{"hello": 1}');
    const junk = pcp(join(dir, 'junk.json'), '--bandwidth', '1mbit', '--rtt', '40ms');
    assert.equal(junk.status, 1);
    assert.equal(junk.stderr.trim().split('\n').length, 1, junk.stderr);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
