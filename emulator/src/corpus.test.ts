/**
 * Invariants on real graphs: a sample of the legacy corpus' reference graphs, every protocol, a spread of
 * rates and RTTs (including lossy corners), each through simulateChecked (determinism + invariants).
 * Skipped when ../shared is absent.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { loadGraph } from '@pcp/graph-builder';
import { sharedDir } from './server-delays.ts';
import { simulateChecked } from './testing/check.ts';
import { simulate } from './simulator.ts';
import { PROTOCOLS, type EmulatorConfig } from './config.ts';

const dir = join(sharedDir(), 'legacy-corpus', 'graphs');
const SITES = ['9gag.com', 'evernote.com', 'www.behance.net'];
const have = existsSync(dir);

test('reference graphs: every protocol, lossy and clean regimes, invariants hold and runs repeat', { skip: !have && 'no ../shared corpus' }, () => {
  for (const site of SITES) {
    const g = loadGraph(join(dir, `${site}.json.gz`));
    for (const protocol of PROTOCOLS) {
      for (const [bw, rtt] of [[1e6, 8], [10e6, 40], [1e9, 200]] as const) {
        const cfg: EmulatorConfig = { bandwidthBps: bw, rttMs: rtt, protocol, seed: 7 };
        const r = simulateChecked(g, cfg);
        assert.ok(r.loadTime > 0 && r.loadTime <= r.endTime, `${site} ${protocol}: load ${r.loadTime} end ${r.endTime}`);
        assert.equal(r.warnings, undefined, `${site} ${protocol}: ${r.warnings?.join('; ')}`);
      }
    }
    // Options that change the machinery: cubic, drop-tail, priorities with preemption, DNS/TLS, unsharding.
    const host = new URL(g.page.url).host;
    const extras: Array<Partial<EmulatorConfig>> = [
      { congestionControl: 'cubic', queue: 'droptail' },
      { protocol: 'h2', priority: 'criticalPath', preemption: true },
      { protocol: 'quic-lite', priority: 'mimeType' },
      { protocol: 'h1-pipelined', server: 'serial' },
      { dnsRtts: 1, tlsRtts: 2, icwnd: 1, rttJitter: 0.1 },
      { protocol: 'h2', unshard: [host, `static.${host}`] },
    ];
    for (const extra of extras) {
      simulateChecked(g, { bandwidthBps: 2.5e6, rttMs: 100, protocol: 'h1', seed: 3, ...extra });
    }
  }
});

test('different seeds vary RED drops; more bandwidth never slows a clean page down much', { skip: !have && 'no ../shared corpus' }, () => {
  const g = loadGraph(join(dir, '9gag.com.json.gz'));
  const loads = new Set([1, 2, 3, 4].map((seed) => simulate(g, { bandwidthBps: 1e6, rttMs: 40, protocol: 'h1', seed }).drops));
  assert.ok(loads.size > 1, 'RED drops should depend on the seed');
  const slow = simulate(g, { bandwidthBps: 1e6, rttMs: 40, protocol: 'h2', icwnd: 4 }).loadTime;
  const fast = simulate(g, { bandwidthBps: 100e6, rttMs: 40, protocol: 'h2', icwnd: 4 }).loadTime;
  assert.ok(fast < slow, `100 Mbit/s (${fast}) should beat 1 Mbit/s (${slow})`);
});
