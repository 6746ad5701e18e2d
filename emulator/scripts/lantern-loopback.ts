/**
 * Lantern's prediction beside the recorded load at the recording's own conditions (root script
 * "lantern:loopback"): profiles the example site and three ground-truth pages on loopback in real
 * Chromium, then runs Lantern on each bundle's trace at 1 Gbit/s and 0.1 ms RTT (with its DNS charge
 * and without), and prints a markdown table with the errors. Measured, not gated.
 *
 *   npm run lantern:loopback [-- --keep DIR] [--rtt 0.1ms] [--bandwidth 1gbit]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { scriptArgs } from '@pcp/profiler/script-args';
import { capturePage } from '@pcp/profiler';
import { startTestServer, startSuiteServer } from '@pcp/profiler/testing';
import { parseRate, parseTime } from '../src/config.ts';
import { median } from '../src/stats.ts';
import { loadLanternTrace, simulateLantern } from '../src/lantern/predict.ts';
import { readText } from '@pcp/graph-builder';

const { values } = scriptArgs('lantern:loopback', `
usage: npm run lantern:loopback [-- --keep DIR] [--rtt 0.1ms] [--bandwidth 1gbit]

Profiles the example site and three ground-truth pages on loopback and compares their recorded load with
Lantern's prediction (the simulator of the DevTools trace engine) at the given RTT and bandwidth.
--keep DIR keeps the bundles.
`, { keep: { type: 'string' }, rtt: { type: 'string' }, bandwidth: { type: 'string' } });
const rttMs = parseTime(values.rtt ?? '0.1ms');
const bps = parseRate(values.bandwidth ?? '1gbit');
const GROUND_TRUTH = ['mix-cross-origin-iframe', 'mix-css-import-font', 'mix-handlers-xhr-fetch'];
const out = values.keep ?? mkdtempSync(join(tmpdir(), 'pcp-lantern-loopback-'));

const example = await startTestServer({ root: fileURLToPath(new URL('../../profiler/example-site/', import.meta.url)), origins: [{ name: 'a' }, { name: 'b' }] });
const suite = await startSuiteServer();
const pages = [
  { name: 'example-site', url: example.urls.a!, opts: { hostResolverRules: example.hostResolverRules } },
  ...GROUND_TRUTH.map((p) => ({ name: p, url: `${suite.urls.a}${p}/index.html`, opts: { hostResolverRules: suite.hostResolverRules, ignoreCertificateErrors: true } })),
];
const pct = (pred: number, real: number): string => `${pred.toFixed(0)} (${pred >= real ? '+' : ''}${(((pred - real) / real) * 100).toFixed(0)}%)`;
const rows: string[] = [];
const errors: number[] = [];
try {
  for (const page of pages) {
    const dir = join(out, page.name);
    const { meta } = await capturePage(page.url, dir, { ...page.opts, quietMs: 500 });
    if (meta.status !== 'complete') throw new Error(`${page.name}: ${meta.status} (${meta.message})`);
    const lt = await loadLanternTrace(JSON.parse(readText(join(dir, 'trace.json.gz'))));
    const opts = { rttMs, throughputKbps: bps / 1024, cpuMultiplier: 1 };
    const a = simulateLantern(lt, { ...opts, dns: true });
    const b = simulateLantern(lt, { ...opts, dns: false });
    const r = a.details.recorded;
    errors.push(Math.abs(a.loadTime - r.loadTime!) / r.loadTime!);
    rows.push(`| ${page.name} | ${a.details.networkNodes} | ${r.domContentLoadedTime!.toFixed(0)} | ${pct(a.domContentLoadedTime, r.domContentLoadedTime!)} | ${r.loadTime!.toFixed(0)} | ${pct(a.loadTime, r.loadTime!)} | ${pct(b.loadTime, r.loadTime!)} | ${r.fcp?.toFixed(0) ?? '-'} | ${a.fcp !== undefined ? pct(a.fcp, r.fcp!) : '-'} |`);
  }
} finally {
  await example.close();
  await suite.close();
  if (!values.keep) rmSync(out, { recursive: true, force: true });
}
console.log(`Lantern at ${values.bandwidth ?? '1gbit'} / ${rttMs} ms RTT vs the recorded load (unshaped loopback, ms from navigation start; load average ${loadavg()[0]!.toFixed(1)})\n`);
console.log('| page | requests | recorded DCL | Lantern DCL | recorded load | Lantern load | Lantern load, no DNS | recorded FCP | Lantern FCP |');
console.log('|---|---|---|---|---|---|---|---|---|');
for (const r of rows) console.log(r);
console.log(`\nmedian |load error| ${(median(errors) * 100).toFixed(0)}% over ${errors.length} pages`);
