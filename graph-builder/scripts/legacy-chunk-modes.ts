/**
 * `npm run compare:legacy-chunk-times`: what `pcp build --legacy-log` graphs of the 64 logs of
 * ../shared/legacy-corpus change between download-chunk timings (BuildOptions.chunkTimes): each timing
 * against `interpolated` (the original builder's, by byte offset): the chunks' ends (the log's arrivals are
 * the ground truth, `npm run fidelity:legacy-import`), the structure (edges; identical by design), the
 * critical path (its resources' Jaccard, its length, the download chunks' share of it) and the cp priorities.
 *
 *   npm run compare:legacy-chunk-times [-- --site SLUG]
 */
import { scriptArgs } from '@pcp/profiler/script-args';
import { readLegacyLogFile } from '../src/adapters/legacy-log/file.ts';
import { buildFromLegacyLog } from '../src/build.ts';
import { CHUNK_TIMINGS, type ChunkTiming } from '../src/format/legacy-chunk-times.ts';
import { legacySites } from '../src/legacy-corpus.ts';
import { jaccard, mean, median, quantile, spearman } from '../src/analysis/stats.ts';
import { duration } from '../src/analysis/dag.ts';
import type { Graph } from '../src/format/types.ts';

const opt = scriptArgs('compare:legacy-chunk-times', `
usage: npm run compare:legacy-chunk-times [-- --site SLUG]

Builds the 64 legacy logs of ../shared/legacy-corpus with each download-chunk timing (pcp build
--chunk-times received, the default, and parser) and prints what moves against interpolated (the original
2016 builder's timing): chunk ends, edges, critical paths (resource Jaccard, length, download chunks' share)
and the Spearman correlation of critical-path priorities.
`, { site: { type: 'string' } }).values;

const sites = legacySites().filter((s) => !opt.site || s.slug === opt.site);
if (sites.length === 0) {
  process.stderr.write(`compare:legacy-chunk-times: no site '${opt.site}'\n`);
  process.exit(2);
}
const OTHERS = CHUNK_TIMINGS.filter((t) => t !== 'interpolated');

interface Moves { timedAs: Map<string, number>; endShift: number[]; later: number; earlier: number; edgesDiffer: number; cpJaccard: number[]; cpLengthRatio: number[]; chunkShare: number[]; spearman: number[]; pathsDiffer: string[] }
const moves = new Map<ChunkTiming, Moves>(OTHERS.map((t) => [t, { timedAs: new Map(), endShift: [], later: 0, earlier: 0, edgesDiffer: 0, cpJaccard: [], cpLengthRatio: [], chunkShare: [], spearman: [], pathsDiffer: [] }]));
const baseShare: number[] = [];

/** The critical path's resources, and the share of its length its download chunks carry. */
function path(g: Graph): { resources: string[]; chunkShare: number } {
  const byId = new Map(g.nodes.map((n) => [n.id, n]));
  const steps = (g.criticalPath?.nodes ?? []).map((id) => byId.get(id)!);
  const chunks = steps.filter((n) => n.kind === 'download_chunk').reduce((a, n) => a + duration(n), 0);
  return { resources: steps.filter((n) => n.kind === 'resource').map((n) => n.id), chunkShare: chunks / Math.max(1e-9, g.criticalPath?.length ?? 0) };
}
const edgeKeys = (g: Graph): string => g.edges.map((e) => `${e.from}>${e.to}:${e.rule}`).sort().join('\n');

for (const site of sites) {
  const { text } = readLegacyLogFile(site.raw);
  const base = buildFromLegacyLog(text, { input: site.raw, chunkTimes: 'interpolated' }).graph;
  const basePath = path(base);
  baseShare.push(basePath.chunkShare);
  const baseById = new Map(base.nodes.map((n) => [n.id, n]));
  for (const t of OTHERS) {
    const m = moves.get(t)!;
    const g = buildFromLegacyLog(text, { input: site.raw, chunkTimes: t }).graph;
    for (const n of g.nodes) {
      if (n.kind !== 'download_chunk') continue;
      const how = String(n.extra?.chunkTimes);
      m.timedAs.set(how, (m.timedAs.get(how) ?? 0) + 1);
      const shift = n.end - baseById.get(n.id)!.end;
      m.endShift.push(Math.abs(shift));
      if (shift > 1) m.later++;
      else if (shift < -1) m.earlier++;
    }
    if (edgeKeys(g) !== edgeKeys(base)) m.edgesDiffer++;
    const p = path(g);
    const j = jaccard(p.resources, basePath.resources);
    m.cpJaccard.push(j);
    if (j < 1) m.pathsDiffer.push(site.slug);
    m.cpLengthRatio.push((g.criticalPath?.length ?? 0) / Math.max(1e-9, base.criticalPath?.length ?? 0));
    m.chunkShare.push(p.chunkShare);
    const resources = g.nodes.filter((n) => n.kind === 'resource');
    const prio = new Map(base.nodes.map((n) => [n.id, n.kind === 'resource' ? n.priority.criticalPath : 0]));
    m.spearman.push(spearman(resources.map((n) => prio.get(n.id) ?? 0), resources.map((n) => (n.kind === 'resource' ? n.priority.criticalPath : 0))));
  }
}

const f1 = (x: number): string => x.toFixed(1);
const f3 = (x: number): string => x.toFixed(3);
const out = (s: string): boolean => process.stdout.write(`${s}\n`);
out(`${sites.length} logs; against chunkTimes 'interpolated' (the original builder's timing: ${f3(median(baseShare))} of a critical path's length in download chunks at the median, p90 ${f3(quantile(baseShare, 0.9))}):`);
for (const [t, m] of moves) {
  const sorted = [...m.cpJaccard].sort((a, b) => a - b);
  out(`\n${t}${t === 'received' ? ' (pcp build --legacy-log default)' : ''}:`);
  out(`  download chunks: ${m.endShift.length}, timed ${[...m.timedAs].map(([k, n]) => `${k} ${n}`).join(', ')}; |end shift| median ${f1(median(m.endShift))} ms, p90 ${f1(quantile(m.endShift, 0.9))} ms, max ${f1(Math.max(...m.endShift))} ms; ${m.later} end later, ${m.earlier} earlier (> 1 ms)`);
  out(`  edges: ${m.edgesDiffer === 0 ? 'identical on every site' : `differ on ${m.edgesDiffer} site(s)`}`);
  out(`  critical-path resources vs interpolated: Jaccard mean ${f3(mean(m.cpJaccard))}, p10 ${f3(sorted[Math.floor(0.1 * (sorted.length - 1))] ?? Number.NaN)}; ${m.pathsDiffer.length} of ${sites.length} paths differ`);
  out(`  critical-path length / interpolated's: median ${f3(median(m.cpLengthRatio))}, p10 ${f3(quantile(m.cpLengthRatio, 0.1))}, p90 ${f3(quantile(m.cpLengthRatio, 0.9))}; download chunks' share of it: median ${f3(median(m.chunkShare))}, p90 ${f3(quantile(m.chunkShare, 0.9))}`);
  out(`  Spearman of cp priorities vs interpolated: mean ${f3(mean(m.spearman))}`);
  if (m.pathsDiffer.length) out(`  paths that differ: ${m.pathsDiffer.join(' ')}`);
}
