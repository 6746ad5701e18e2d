/**
 * Shaped replay loads: the example site recorded on loopback, replayed with the server in a shaped
 * link's server namespace and Chromium in its client namespace (needs root, as the shaper does).
 * Checks only what a loaded machine cannot break: every request answered, and a load no faster than
 * the round trips it must take.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { capturePage } from '@pcp/profiler';
import { startTestServer } from '@pcp/profiler/testing';
import { runAsync } from '@pcp/cli/testing';

const EXAMPLE = fileURLToPath(new URL('../../profiler/example-site/', import.meta.url));
const PCP = fileURLToPath(new URL('../../cli/bin/pcp.js', import.meta.url));

const isRoot = process.getuid?.() === 0;

test('a replay through a 5 Mbit/s, 100 ms RTT link: 0 misses, load after at least 3 round trips, namespaces gone after', { skip: isRoot ? false : 'the shaper needs root' }, async () => {
  const work = mkdtempSync(join(tmpdir(), 'pcp-replay-shaped-'));
  try {
    const site = await startTestServer({ root: EXAMPLE, origins: [{ name: 'a' }, { name: 'b', http2: true }] });
    const dir = join(work, 'example');
    try {
      const { meta } = await capturePage(site.urls.a!, dir, { hostResolverRules: site.hostResolverRules, ignoreCertificateErrors: true, quietMs: 500, archive: true });
      assert.equal(meta.status, 'complete', meta.message);
    } finally {
      await site.close();
    }
    const before = execFileSync('ip', ['netns', 'list'], { encoding: 'utf8' });
    const r = await runAsync(process.execPath, [PCP, 'replay', dir, '--bandwidth', '5mbit', '--rtt', '100ms', '--runs', '1', '--json'], { timeoutMs: 300_000 });
    assert.equal(r.status, 0, r.stderr);
    const out = JSON.parse(r.stdout) as { loadTime: number; domContentLoadedTime: number };
    assert.match(r.stderr, /shaped link: 5mbit, RTT 100ms \((delay-line|netem) backend/);
    assert.match(r.stderr, /run 1: .* 0 misses/);
    // TCP handshake, the document, then the stylesheet/scripts it names: three round trips at least.
    assert.ok(out.loadTime >= 300, `load ${out.loadTime} ms`);
    assert.ok(out.domContentLoadedTime >= 300, `DOMContentLoaded ${out.domContentLoadedTime} ms`);
    // The command has exited: none of its namespaces (named after its pid) may remain. Only its own:
    // test files run in parallel, and the shaper's SIGKILL test leaves a killed owner's namespaces
    // for the next open to reap (a fresh-clone run once saw them here).
    const names = (s: string): string[] => s.split('\n').map((l) => l.trim().split(/\s+/)[0] ?? '').filter((n) => /^pcp-\d+-/.test(n));
    assert.ok(r.pid !== undefined);
    const left = names(execFileSync('ip', ['netns', 'list'], { encoding: 'utf8' })).filter((n) => !names(before).includes(n) && n.startsWith(`pcp-${r.pid}-`));
    assert.deepEqual(left, []);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
});
