/**
 * `npm run compare:legacy`: rebuilds every site of ../shared/legacy-corpus from its raw log, exports the
 * graph in the original layout, matches it to the reference graph by content (see legacy-match.ts) and
 * prints per-site and aggregate accuracy against the targets. A site that fails is reported and skipped.
 *
 *   npm run compare:legacy [-- --site SLUG] [--diff N] [--match time|order]
 *   --diff prints N missing/extra edges per site; --match chooses how evals are matched (default time,
 *   see KeyOptions.evalKey).
 */
import { Progress } from '../../cli/src/kit.ts';
import { readLegacyLogFile } from '../src/adapters/legacy-log/file.ts';
import { buildFromLegacyLog } from '../src/build.ts';
import { readJsonFile } from '../src/format/io.ts';
import { exportLegacy, type LegacyGraph } from '../src/format/legacy.ts';
import { legacySites } from '../src/legacy-corpus.ts';
import { mean } from '../src/analysis/stats.ts';
import { compareLegacy, edgeDiff, type SiteFigures } from './legacy-match.ts';

// The builder writes 1-based lines (graph format v1) and the exporter copies them to `startRow`; the
// reference's rows are 0-based, so rebuilt rows are shifted back before keying.
const args = process.argv.slice(2);
const evalKey = args.includes('--match') && args[args.indexOf('--match') + 1] === 'order' ? 'order' : 'time';
const MINE = { rowShift: -1, evalKey } as const;
const REF = { evalKey } as const;
const siteArg = args.includes('--site') ? args[args.indexOf('--site') + 1] : undefined;
const diffN = args.includes('--diff') ? Number(args[args.indexOf('--diff') + 1]) : 0;

const sites = legacySites().filter((s) => !siteArg || s.slug === siteArg);
const progress = new Progress(sites.length, 'compare:legacy');
const rows: { slug: string; f: SiteFigures }[] = [];
const failed: { slug: string; reason: string }[] = [];
for (const site of sites) {
  try {
    const { text } = readLegacyLogFile(site.raw);
    const { graph } = buildFromLegacyLog(text, { input: site.raw });
    const mine = exportLegacy(graph);
    const ref = readJsonFile(site.graph) as LegacyGraph;
    rows.push({ slug: site.slug, f: compareLegacy(mine, ref, { mine: MINE, ref: REF }) });
    if (diffN > 0) {
      const d = edgeDiff(mine, ref, { mine: MINE, ref: REF });
      process.stdout.write(`--- ${site.slug}: ${d.missing.length} missing, ${d.extra.length} extra\n`);
      for (const e of d.missing.slice(0, diffN)) process.stdout.write(`  missing ${e}\n`);
      for (const e of d.extra.slice(0, diffN)) process.stdout.write(`  extra   ${e}\n`);
    }
    progress.tick(true, site.slug);
  } catch (e) {
    failed.push({ slug: site.slug, reason: (e as Error).message });
    progress.tick(false, site.slug);
  }
}

const pct = (x: number): string => (Number.isFinite(x) ? x.toFixed(3) : '  nan');
process.stdout.write(`${'site'.padEnd(44)} resJac parents edgeP  edgeR  critJac spearman\n`);
for (const { slug, f } of rows) {
  process.stdout.write(
    `${slug.slice(0, 43).padEnd(44)} ${pct(f.resourceJaccard)}  ${pct(f.parentsEqual / Math.max(1, f.parentsTotal))}  ${pct(f.edgesCommon / Math.max(1, f.edgesMine))}  ${pct(f.edgesCommon / Math.max(1, f.edgesRef))}  ${pct(f.critJaccard)}   ${pct(f.spearman)}\n`,
  );
}
for (const f of failed) process.stdout.write(`${f.slug.slice(0, 43).padEnd(44)} FAILED: ${f.reason}\n`);
const sum = (g: (f: SiteFigures) => number): number => rows.reduce((a, r) => a + g(r.f), 0);
const agg = {
  resourceJaccard: mean(rows.map((r) => r.f.resourceJaccard)),
  parents: sum((f) => f.parentsEqual) / Math.max(1, sum((f) => f.parentsTotal)),
  edgePrecision: sum((f) => f.edgesCommon) / Math.max(1, sum((f) => f.edgesMine)),
  edgeRecall: sum((f) => f.edgesCommon) / Math.max(1, sum((f) => f.edgesRef)),
  critJaccard: mean(rows.map((r) => r.f.critJaccard)),
  spearman: mean(rows.map((r) => r.f.spearman)),
};
const line = (name: string, v: number, target: number): string => `${name.padEnd(44)} ${pct(v)}  target >= ${target}  ${v >= target ? 'MET' : 'not met'}\n`;
process.stdout.write(`\nevals matched by ${evalKey === 'time' ? 'start time' : 'order'}; aggregate over ${rows.length} site(s)${failed.length ? `, ${failed.length} failed` : ''}:\n`);
process.stdout.write(line('resource url set Jaccard (mean)', agg.resourceJaccard, 0.99));
process.stdout.write(line('resources with the reference parent set', agg.parents, 0.95));
process.stdout.write(line('edge precision (pooled)', agg.edgePrecision, 0.9));
process.stdout.write(line('edge recall (pooled)', agg.edgeRecall, 0.9));
process.stdout.write(line('critical-path resource Jaccard (mean)', agg.critJaccard, 0.85));
process.stdout.write(line('Spearman of cp priorities (mean)', agg.spearman, 0.9));
if (failed.length) process.exitCode = 1;
