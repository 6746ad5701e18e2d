/**
 * bench:trace — trace-to-graph throughput (issue 6): MB of trace JSON per second through the whole
 * `pcp build BUNDLE` core (parse, extract, activity model, rules, normalisation, priorities), beside the
 * time of merely JSON-parsing the same trace text in the same run. Target: >= 30 MB/s on one core.
 *
 *   npm run bench:trace [-- BUNDLE_DIR...] [--rounds N]
 *
 * Without bundles it profiles the ground-truth suite (profiler/test-sites) once into a temp directory.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { scriptArgs } from '@pcp/profiler/script-args';
import { gunzipSync } from 'node:zlib';
import { buildFromTrace } from '../src/build-trace.ts';
import { median } from '../src/analysis/stats.ts';

const { values, positionals } = scriptArgs('bench:trace', `
usage: npm run bench:trace [-- [BUNDLE...] [--rounds N]]

Builds graphs from trace bundles (default: the ground-truth pages, profiled first into a temporary
directory) N rounds each (default 5) and prints the trace builder's throughput (MB/s) and per-bundle times.
`, { rounds: { type: 'string' } }, true);
const rounds = Number(values.rounds ?? 5);

let bundles = positionals;
let tmp: string | undefined;
if (bundles.length === 0) {
  const { listSuite, startSuiteServer, pageUrl } = await import('@pcp/profiler/testing');
  const { profileMany } = await import('@pcp/profiler');
  tmp = mkdtempSync(join(tmpdir(), 'pcp-bench-trace-'));
  const server = await startSuiteServer();
  const pages = listSuite();
  process.stderr.write(`profiling ${pages.length} ground-truth pages for traces...\n`);
  await profileMany(pages.map((p) => pageUrl(server, p)), tmp, { hostResolverRules: server.hostResolverRules, ignoreCertificateErrors: true, concurrency: 2, quietMs: 300, force: true });
  await server.close();
  bundles = readdirSync(tmp, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => join(tmp!, d.name));
}

const texts = bundles.map((b) => gunzipSync(readFileSync(join(b, 'trace.json.gz'))).toString('utf8'));
const mb = texts.reduce((a, t) => a + Buffer.byteLength(t), 0) / 1e6;

// Warm up both paths once, then alternate rounds so machine load hits them alike.
for (const b of bundles) buildFromTrace(b);
const parseTimes: number[] = [];
const buildTimes: number[] = [];
const perBundle: number[] = [];
for (let r = 0; r < rounds; r++) {
  let t = performance.now();
  for (const text of texts) JSON.parse(text);
  parseTimes.push(performance.now() - t);
  t = performance.now();
  for (const b of bundles) {
    const t0 = performance.now();
    buildFromTrace(b, { input: b });
    perBundle.push(performance.now() - t0);
  }
  buildTimes.push(performance.now() - t);
}
const parseMs = median(parseTimes);
const buildMs = median(buildTimes);
console.log(`traces: ${bundles.length} bundles, ${mb.toFixed(1)} MB of trace JSON (gunzipped), ${rounds} rounds, medians`);
console.log(`JSON.parse only     ${(mb / (parseMs / 1000)).toFixed(1).padStart(7)} MB/s  (${parseMs.toFixed(0)} ms)`);
console.log(`pcp build (trace)   ${(mb / (buildMs / 1000)).toFixed(1).padStart(7)} MB/s  (${buildMs.toFixed(0)} ms; includes gunzip and file reads)  target >= 30 MB/s: ${mb / (buildMs / 1000) >= 30 ? 'MET' : 'not met'}`);
console.log(`build / parse       ${(buildMs / parseMs).toFixed(2)}x;  median per bundle ${median(perBundle).toFixed(1)} ms`);
if (tmp) rmSync(tmp, { recursive: true, force: true });
