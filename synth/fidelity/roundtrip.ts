/**
 * `npm run fidelity:roundtrip [-- GRAPHS...] [--minutes M] [--json FILE]`: each graph synthesized,
 * replayed on loopback, profiled in real Chromium, rebuilt by the trace builder and compared with
 * itself (synth/src/compare.ts). Default set: the 64 legacy graphs, smallest first; --minutes stops
 * starting new graphs after M minutes. Prints per graph and the means against issue 15's targets,
 * pages per minute, synthesis speed (graphs per second), the edges missed and added by rule and kinds,
 * and every class of miss with its count (the critical paths' by cp-misses.ts).
 */
import { statSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, basename } from 'node:path';
import { legacySites, mean, median } from '@pcp/graph-builder';
import { scriptArgs } from '@pcp/profiler/script-args';
import { criticalPathMisses, edgeClasses, keyKind, roundTrip, type RoundTripFigures } from '@pcp/synth';

const { values, positionals } = scriptArgs('fidelity:roundtrip', `
usage: npm run fidelity:roundtrip [-- GRAPHS...] [--minutes M] [--json FILE] [--keep DIR [--rescore]] [--no-preload-scanner] [--no-cache-warm-up] [--no-renderer-holds]

Each graph (default: the 64 legacy graphs, smallest first) synthesized into a site, replayed on loopback,
profiled in real Chromium, rebuilt by the trace builder and compared with itself: resource Jaccard, parent
agreement, edge precision/recall as drawn (under it two secondary figures: a script element's dependency drawn on
its download or its evaluation one edge, and on transitive reductions; recall by rule on the former), critical-path Jaccard (and under it two secondary figures: structural,
the rebuilt edges with the source's durations; near-critical at 2/5/10%), load time against the source (targets of
issue 15), pages per minute, synthesis speed, the edges missed and added by rule and kinds of their ends, and
every class of miss with its count (the critical paths' too: why each resource on one path is off the other).
--minutes stops starting new graphs after M minutes; --json FILE writes the per-graph figures (with each
graph's missed and added edges). --keep DIR keeps each graph's profile in DIR/NAME; --rescore rebuilds and compares the profiles kept there without loading them again (graphs without
one are loaded), so a change to the builder or the comparison is measured on the same loads.
--no-preload-scanner profiles without Chromium's preload scanner (each tag requested when the parser reaches
it; an A/B, synth/README.md). --no-cache-warm-up: the source's cache hits are requested from the replay, not
put in Chromium's cache first (an A/B). --no-renderer-holds: Blink's scheduler out of its tight mode (Chromium 156
holds requests below High priority in the renderer until <body>, 2016's held in the browser, inside the source's
spans; pcp profile --no-renderer-holds; an A/B, synth/README.md "Session 19").
`, { minutes: { type: 'string' }, json: { type: 'string' }, keep: { type: 'string' }, rescore: { type: 'boolean' }, 'no-preload-scanner': { type: 'boolean' }, 'no-cache-warm-up': { type: 'boolean' }, 'no-renderer-holds': { type: 'boolean' } }, true);
const minutes = Number(values.minutes ?? Infinity);
const jsonOut = values.json;
const given = positionals;
const graphs = given.length ? given : legacySites().map((s) => s.graph).sort((a, b) => statSync(a).size - statSync(b).size);

const TARGETS = { resourceJaccard: 0.99, parentAgreement: 0.95, edgePrecision: 0.9, edgeRecall: 0.9, criticalPathJaccard: 0.85, load: 0.1 };
const rows: { graph: string; f: RoundTripFigures; synthMs: number; warnings: number }[] = [];
const failed: { graph: string; reason: string }[] = [];
const classes = new Map<string, number>();
const count = (k: string, n = 1): void => void classes.set(k, (classes.get(k) ?? 0) + n);
const rules = new Map<string, { found: number; source: number }>();
const edgeMisses = { missing: new Map<string, number>(), extra: new Map<string, number>() };
const addAll = (to: Map<string, number>, from: Map<string, number>): void => {
  for (const [k, n] of from) to.set(k, (to.get(k) ?? 0) + n);
};
if (values.rescore && !values.keep) {
  console.error('fidelity:roundtrip: --rescore needs --keep DIR (where the profiles are)');
  process.exit(2);
}
const work = values.keep ?? mkdtempSync(join(tmpdir(), 'pcp-roundtrip-'));
const started = performance.now();
const mimeClass = (url: string): string => (/\.(png|gif|jpe?g|webp|svg)(\?|$)/i.test(url) ? 'image' : /\.js(\?|$)/i.test(url) ? 'script' : /\.css(\?|$)/i.test(url) ? 'css' : 'other');

try {
  for (const [i, graph] of graphs.entries()) {
    if ((performance.now() - started) / 60_000 > minutes) break;
    const name = basename(graph).replace(/\.json(\.gz)?$/, '');
    try {
      const t0 = performance.now();
      const rt = await roundTrip(graph, join(work, values.keep ? name : String(i)), {
        rescore: values.rescore,
        preloadScanner: values['no-preload-scanner'] ? false : undefined,
        cacheWarmUp: values['no-cache-warm-up'] ? false : undefined,
        rendererHolds: values['no-renderer-holds'] ? false : undefined,
      });
      const f = rt.figures;
      rows.push({ graph: name, f, synthMs: rt.synthMs, warnings: rt.synthWarnings.length });
      for (const w of rt.synthWarnings) count(`synthesizer: ${w.replace(/\b(comp|download|pchunk|dchunk)_\w+/g, 'ID').replace(/^(edge|event|resource) \S+ /, '$1 ').replace(/\(rule (\S+), (\S+)\).*/, 'rule $1 to $2').replace(/\((data|about|blob|javascript):[^)]*\)/g, '($1: URL)').replace(/https?:\/\/\S+/g, 'URL').replace(/\((\w+)\.(\w+)\).*/, '$1.$2')}`);
      for (const u of f.missingResources) count(`resource missing in the rebuilt graph (${mimeClass(u)})`);
      for (const u of f.extraResources) count(`resource only in the rebuilt graph (${mimeClass(u)})`);
      for (const [k, n] of criticalPathMisses(rt.recorded)) count(`critical path: ${k}`, n);
      for (const [k, n] of edgeClasses(f.criticalPathSecondary.sourcePathEdgesMissing.filter((e) => !e.endLacking))) count(`critical path: source path edge missing in the rebuilt graph, both ends there: ${k}`, n);
      for (const [k, n] of edgeClasses(f.criticalPathSecondary.sourcePathEdgesMissing.filter((e) => e.endLacking))) count(`critical path: source path edge missing in the rebuilt graph, an end lacking: ${k}`, n);
      for (const m of f.parentMisses) count(`parent differs: ${m.source.map((k) => keyKind(k)).join('+') || 'none'} -> ${m.built.map((k) => keyKind(k)).join('+') || 'none'}`);
      addAll(edgeMisses.missing, edgeClasses(f.edgeMisses.missing));
      addAll(edgeMisses.extra, edgeClasses(f.edgeMisses.extra));
      for (const [rule, r] of Object.entries(f.byRule)) {
        const agg = rules.get(rule) ?? { found: 0, source: 0 };
        agg.found += r.found;
        agg.source += r.source;
        rules.set(rule, agg);
      }
      const load = f.loadSource && f.loadBuilt ? `${f.loadBuilt.toFixed(0)}/${f.loadSource.toFixed(0)} ms` : 'n/a';
      console.log(`${name}: resources ${f.resourceJaccard.toFixed(3)}, parents ${f.parentAgreement.toFixed(3)} (${f.parentsCompared}), edges P ${f.edgePrecision.toFixed(3)} R ${f.edgeRecall.toFixed(3)}, cp ${f.criticalPathJaccard.toFixed(3)}, load ${load}, ${rt.synthWarnings.length} warnings (${((performance.now() - t0) / 1000).toFixed(1)} s)`);
    } catch (e) {
      failed.push({ graph: name, reason: (e as Error).message.split('\n')[0] ?? '' });
      console.log(`${name}: FAILED ${(e as Error).message.split('\n')[0]}`);
    } finally {
      rmSync(join(work, values.keep ? join(name, 'site') : String(i)), { recursive: true, force: true });
    }
  }
} finally {
  if (!values.keep) rmSync(work, { recursive: true, force: true });
}

const elapsedMin = (performance.now() - started) / 60_000;
const m = (pick: (f: RoundTripFigures) => number): number => mean(rows.map((r) => pick(r.f)));
const loadErr = rows.filter((r) => r.f.loadSource && r.f.loadBuilt).map((r) => Math.abs(r.f.loadBuilt! / r.f.loadSource! - 1));
const verdict = (ok: boolean): string => (ok ? 'met' : 'NOT met');
console.log(`\n${rows.length} graphs round-tripped, ${failed.length} failed, in ${elapsedMin.toFixed(1)} min: ${((rows.length + failed.length) / elapsedMin).toFixed(2)} pages per minute`);
const synthSecs = rows.reduce((s, r) => s + r.synthMs, 0) / 1000;
console.log(`synthesis: ${(rows.length / synthSecs).toFixed(1)} graphs per second (benchmark; ${synthSecs.toFixed(2)} s for ${rows.length})`);
if (rows.length) {
  console.log(`resource Jaccard ${m((f) => f.resourceJaccard).toFixed(3)} (target ${TARGETS.resourceJaccard}: ${verdict(m((f) => f.resourceJaccard) >= TARGETS.resourceJaccard)})`);
  console.log(`parent agreement ${m((f) => f.parentAgreement).toFixed(3)} (target ${TARGETS.parentAgreement}: ${verdict(m((f) => f.parentAgreement) >= TARGETS.parentAgreement)})`);
  console.log(`edge precision ${m((f) => f.edgePrecision).toFixed(3)} / recall ${m((f) => f.edgeRecall).toFixed(3)} (target ${TARGETS.edgePrecision}: ${verdict(m((f) => f.edgePrecision) >= TARGETS.edgePrecision && m((f) => f.edgeRecall) >= TARGETS.edgeRecall)})`);
  console.log(`  secondary: same dependency (a script element's dependency drawn on its download by one builder and on its evaluation by the other one edge; the per-rule recall and the miss classes below are on these) precision ${m((f) => f.sameDependency.precision).toFixed(3)} / recall ${m((f) => f.sameDependency.recall).toFixed(3)}`);
  console.log(`  secondary: on both graphs' transitive reductions (edges a path implies left out on each side) precision ${m((f) => f.reduced.precision).toFixed(3)} / recall ${m((f) => f.reduced.recall).toFixed(3)}`);
  console.log(`critical-path resource Jaccard ${m((f) => f.criticalPathJaccard).toFixed(3)} (target ${TARGETS.criticalPathJaccard}: ${verdict(m((f) => f.criticalPathJaccard) >= TARGETS.criticalPathJaccard)})`);
  console.log(`  secondary: structural (the rebuilt edges with the source's durations for matched nodes) ${m((f) => f.criticalPathSecondary.structural).toFixed(3)}; near-critical (a resource off one path agrees when its branch on the other side is within X of that path) ${Object.keys(rows[0]!.f.criticalPathSecondary.near).map((x) => `${x} ${m((f) => f.criticalPathSecondary.near[x]!).toFixed(3)}`).join(', ')}`);
  console.log(`load vs source: |error| median ${(median(loadErr) * 100).toFixed(1)}%, within 10% on ${loadErr.filter((e) => e <= TARGETS.load).length} of ${loadErr.length} (target ±10%)`);
  console.log('\nedge recall by rule of the source graph:');
  for (const [rule, r] of [...rules].sort((a, b) => b[1].source - a[1].source)) console.log(`  ${rule.padEnd(28)} ${r.found}/${r.source} (${(r.found / r.source).toFixed(3)})`);
  const top = (m: Map<string, number>): void => {
    const sorted = [...m].sort((a, b) => b[1] - a[1]);
    for (const [k, n] of sorted.slice(0, 25)) console.log(`  ${String(n).padStart(5)}  ${k}`);
    if (sorted.length > 25) console.log(`  ${String(sorted.slice(25).reduce((s, [, n]) => s + n, 0)).padStart(5)}  (${sorted.length - 25} smaller classes)`);
  };
  const lacking = (side: 'missing' | 'extra'): number => rows.reduce((n, r) => n + r.f.edgeMisses[side].filter((e) => e.endLacking).length, 0);
  console.log(`\nsource edges missing in the rebuilt graph, by source rule and kinds (${[...edgeMisses.missing.values()].reduce((s, n) => s + n, 0)}; ${lacking('missing')} of them with an end the rebuilt graph does not have at all):`);
  top(edgeMisses.missing);
  console.log(`\nrebuilt edges not in the source, by rebuilt rule and kinds (${[...edgeMisses.extra.values()].reduce((s, n) => s + n, 0)}; ${lacking('extra')} of them with an end the source does not have):`);
  top(edgeMisses.extra);
  console.log('\nclasses of miss (count over all graphs):');
  for (const [k, n] of [...classes].sort((a, b) => b[1] - a[1])) console.log(`  ${String(n).padStart(5)}  ${k}`);
}
for (const f of failed) console.log(`failed: ${f.graph}: ${f.reason}`);
if (jsonOut) writeFileSync(jsonOut, JSON.stringify({ rows, failed, rules: Object.fromEntries(rules), classes: Object.fromEntries(classes), edgeMisses: { missing: Object.fromEntries(edgeMisses.missing), extra: Object.fromEntries(edgeMisses.extra) } }, null, 1));
process.exitCode = failed.length ? 1 : 0;
