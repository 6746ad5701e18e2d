/**
 * `npm run bench:build`: builds all 64 legacy logs on one core and prints throughput (MB/s of raw,
 * uncompressed log) and the median per-site time, beside the cost of merely JSON-parsing the same lines
 * in the same run (the floor any line-oriented builder pays). Logs are read and gunzipped before timing.
 *
 *   npm run bench:build [-- --rounds N]     (default 5 rounds; each figure is its best round)
 */
import { scriptArgs } from '@pcp/profiler/script-args';
import { readLegacyLogFile } from '../src/adapters/legacy-log/file.ts';
import { linesOf } from '../src/adapters/legacy-log/reader.ts';
import { buildFromLegacyLog } from '../src/build.ts';
import { legacySites } from '../src/legacy-corpus.ts';
import { median } from '../src/analysis/stats.ts';

const { values } = scriptArgs('bench:build', `
usage: npm run bench:build [-- --rounds N]

Builds all 64 legacy logs on one core, N rounds (default 5; each figure its best round), and prints the
builder's throughput (MB/s of uncompressed log) and median per-site time beside a JSON.parse-only pass
over the same lines in the same run.
`, { rounds: { type: 'string' } });
const rounds = Math.max(1, Number(values.rounds ?? 5));
if (!Number.isInteger(rounds)) {
  console.error(`bench:build: --rounds expects a count, got '${values.rounds}'`);
  process.exit(2);
}

const logs = legacySites().map((s) => ({ slug: s.slug, text: readLegacyLogFile(s.raw).text }));
const totalBytes = logs.reduce((a, l) => a + Buffer.byteLength(l.text), 0);
process.stderr.write(`bench:build: ${logs.length} logs, ${(totalBytes / 1e6).toFixed(1)} MB uncompressed, ${rounds} round(s)\n`);

interface Round {
  build: number;
  buildCore: number;
  parse: number;
  perSite: number[];
}
let sink = 0;
const results: Round[] = [];
for (let r = 0; r < rounds; r++) {
  const perSite: number[] = [];
  let t = performance.now();
  for (const l of logs) {
    const t1 = performance.now();
    const { graph } = buildFromLegacyLog(l.text);
    sink += graph.nodes.length;
    perSite.push(performance.now() - t1);
  }
  const build = performance.now() - t;
  t = performance.now();
  for (const l of logs) sink += buildFromLegacyLog(l.text, { skipAnalysis: true }).graph.edges.length;
  const buildCore = performance.now() - t;
  t = performance.now();
  for (const l of logs) for (const line of linesOf(l.text)) if (line) sink += (JSON.parse(line) as object) ? 1 : 0;
  const parse = performance.now() - t;
  results.push({ build, buildCore, parse, perSite });
  process.stderr.write(`  round ${r + 1}: build ${build.toFixed(0)} ms, parse-only ${parse.toFixed(0)} ms\n`);
}
// Each figure is its best round (other processes on the machine only ever add time).
const fastest = results.reduce((a, b) => (b.build < a.build ? b : a));
const best = {
  build: fastest.build,
  perSite: fastest.perSite,
  buildCore: Math.min(...results.map((r) => r.buildCore)),
  parse: Math.min(...results.map((r) => r.parse)),
};
const mbps = (ms: number): string => (totalBytes / 1e6 / (ms / 1000)).toFixed(1);
const slowest = logs.map((l, i) => ({ slug: l.slug, ms: best.perSite[i]! })).sort((a, b) => b.ms - a.ms)[0]!;
process.stdout.write(
  [
    `logs: ${logs.length}, ${(totalBytes / 1e6).toFixed(2)} MB of raw log (best of ${rounds} round(s), one core)`,
    `full build (rules + priorities + critical path): ${best.build.toFixed(0)} ms  ${mbps(best.build)} MB/s  (target >= 30 MB/s: ${Number(mbps(best.build)) >= 30 ? 'MET' : 'not met'})`,
    `rule core only (no priorities/critical path):     ${best.buildCore.toFixed(0)} ms  ${mbps(best.buildCore)} MB/s`,
    `JSON.parse of the same lines (baseline):          ${best.parse.toFixed(0)} ms  ${mbps(best.parse)} MB/s`,
    `build / parse-only time ratio: ${(best.build / best.parse).toFixed(2)}x`,
    `median per-site build: ${median(best.perSite).toFixed(1)} ms; slowest: ${slowest.slug} ${slowest.ms.toFixed(1)} ms`,
    '',
  ].join('\n'),
);
if (sink === -1) process.stdout.write('');
