/**
 * pcp profile URL --bandwidth --rtt: real Chromium, a real page from the test server, recorded and then
 * profiled through a real shaped link (root: network namespaces, TUN devices).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { listSuite, pageUrl, startSuiteServer } from '@pcp/profiler/testing';
import type { BundleMeta } from '@pcp/profiler/bundle';
import { command } from './commands/profile.ts';
import { UsageError } from './kit.ts';

const ownNamespaces = (): string[] =>
  execFileSync('ip', ['netns', 'list'], { encoding: 'utf8' }).split('\n').map((l) => l.split(' ')[0]!).filter((n) => n.startsWith(`pcp-${process.pid}-`));

test('shaped profile: one URL, both --bandwidth and --rtt', async () => {
  await assert.rejects(command.run(['http://a.test/', 'http://b.test/', '--out', '/tmp/x', '--bandwidth', '5mbit', '--rtt', '40ms']), (e: Error) => e instanceof UsageError && /one URL/.test(e.message));
  await assert.rejects(command.run(['http://a.test/', '--out', '/tmp/x', '--bandwidth', '5mbit']), (e: Error) => e instanceof UsageError && /--rtt/.test(e.message));
  await assert.rejects(command.run(['http://a.test/', '--out', '/tmp/x', '--bandwidth', 'fast', '--rtt', '40ms']), UsageError);
});

test('shaped profile: recorded unshaped, replayed through the link, the link in meta.json', { skip: process.getuid?.() !== 0 ? 'needs root' : false, timeout: 240_000 }, async () => {
  const server = await startSuiteServer();
  const out = mkdtempSync(join(tmpdir(), 'pcp-profile-shaped-'));
  try {
    const page = listSuite().find((p) => p.name === 'r02-script-resource')!;
    const rttMs = 100;
    const code = await command.run([pageUrl(server, page), '--out', out, '--host-resolver-rules', server.hostResolverRules, '--bandwidth', '5mbit', '--rtt', `${rttMs}ms`]);
    assert.equal(code, 0);
    const meta = JSON.parse(readFileSync(join(out, 'meta.json'), 'utf8')) as BundleMeta;
    assert.notEqual(meta.status, 'failed');
    assert.deepEqual({ ...meta.options.conditions, backend: undefined }, { bandwidthBps: 5e6, rttMs, lossRate: 0, backend: undefined, replayedFrom: 'recording' });
    const recording = JSON.parse(readFileSync(join(out, 'recording', 'meta.json'), 'utf8')) as BundleMeta;
    assert.ok(recording.archive && recording.archive.entries >= 2, 'the recording holds the page and its script');
    assert.ok(existsSync(join(out, 'recording', 'capture.pcap')));
    // Physics, not timing: through a 100 ms link the document alone needs a handshake and a request, so
    // the load cannot come sooner than one round trip after navigation start, however loaded the host.
    const { navigationStartMonotonic: nav, loadMonotonic: load } = meta.timings;
    assert.ok(nav !== undefined && load !== undefined, 'navigation and load recorded');
    assert.ok((load - nav) * 1000 >= rttMs, `load ${((load - nav) * 1000).toFixed(1)} ms after navigation start, under one RTT`);
    assert.deepEqual(ownNamespaces(), [], 'the link\'s namespaces are gone');
  } finally {
    await server.close();
    rmSync(out, { recursive: true, force: true });
  }
});
