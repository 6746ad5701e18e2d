/**
 * `npm run fidelity:durations -- --keep DIR [GRAPHS...] [--json FILE]`: the round trip's kept profiles
 * (`fidelity:roundtrip --keep DIR`) rebuilt, and for each graph its signed load error and the nodes of the
 * source's critical path whose durations the replay did not reproduce; over all graphs, the totals by
 * class of node (synth/src/duration-gaps.ts): which kind of work is always too long or too short.
 */
import { existsSync, statSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { buildFromTrace, legacySites, loadGraph, median } from '@pcp/graph-builder';
import { scriptArgs } from '@pcp/profiler/script-args';
import { BUNDLE_FILES } from '@pcp/profiler/bundle';
import { durationTotals, loadOf, matchGraphs, pathDurationGaps, type DurationGap } from '@pcp/synth';

const { values, positionals } = scriptArgs('fidelity:durations', `
usage: npm run fidelity:durations -- --keep DIR [GRAPHS...] [--json FILE] [--top N]

The profiles a round trip kept in DIR/NAME/profile (npm run fidelity:roundtrip -- --keep DIR) rebuilt by the
trace builder; per graph (default: the 64 legacy graphs that have one) its load against the source's, signed,
and over all graphs the nodes of each source's critical path by class (parse chunks, download chunks, scripts,
style sheets, timers, events, downloads by type) with what they last in the source and in the rebuilt graph
(a download's browser-own waits apart), then the N nodes (--top, default 25) whose durations differ most.
--json FILE writes the per-graph loads and every path node's durations.
`, { keep: { type: 'string' }, json: { type: 'string' }, top: { type: 'string' } }, true);
if (!values.keep) {
  console.error('fidelity:durations: --keep DIR is required (the profiles of a round trip run with --keep)');
  process.exit(2);
}
const keep = values.keep;
const top = Number(values.top ?? 25);
if (!Number.isInteger(top) || top < 0) {
  console.error(`fidelity:durations: --top wants a whole number, not '${values.top}'`);
  process.exit(2);
}
const graphs = positionals.length ? positionals : legacySites().map((s) => s.graph).sort((a, b) => statSync(a).size - statSync(b).size);
const nameOf = (graph: string): string => basename(graph).replace(/\.json(\.gz)?$/, '');

const rows: { graph: string; loadSource?: number; loadBuilt?: number; gaps: DurationGap[] }[] = [];
for (const graph of graphs) {
  const name = nameOf(graph);
  const profile = join(keep, name, 'profile');
  if (!existsSync(join(profile, BUNDLE_FILES.trace))) continue;
  try {
    const source = loadGraph(graph);
    const { built, sk, bk, recorded } = matchGraphs(source, buildFromTrace(profile).graph);
    rows.push({ graph: name, loadSource: loadOf(source), loadBuilt: loadOf(built), gaps: pathDurationGaps(recorded, sk, bk) });
  } catch (e) {
    console.log(`${name}: FAILED ${(e as Error).message.split('\n')[0]}`);
  }
}
if (!rows.length) {
  console.error(`fidelity:durations: no kept profile under ${keep}`);
  process.exit(1);
}

const pct = (x: number): string => `${x >= 0 ? '+' : ''}${(x * 100).toFixed(1)}%`;
const ms = (x: number): string => `${x >= 0 ? '+' : ''}${x.toFixed(0)}`;
const errOf = (r: (typeof rows)[number]): number | undefined => (r.loadSource && r.loadBuilt ? r.loadBuilt / r.loadSource - 1 : undefined);
console.log('signed load error (rebuilt / source - 1), early first; the path\'s matched nodes: source -> rebuilt ms');
for (const r of [...rows].sort((a, b) => (errOf(a) ?? 0) - (errOf(b) ?? 0))) {
  const m = r.gaps.filter((g) => g.built !== undefined);
  const s = m.reduce((a, g) => a + g.source, 0);
  const b = m.reduce((a, g) => a + g.built!, 0);
  const e = errOf(r);
  console.log(`  ${r.graph.slice(0, 44).padEnd(44)} ${e === undefined ? '    n/a' : pct(e).padStart(7)}  load ${(r.loadBuilt ?? NaN).toFixed(0).padStart(6)}/${(r.loadSource ?? NaN).toFixed(0).padStart(6)} ms  path nodes ${s.toFixed(0).padStart(6)} -> ${b.toFixed(0).padStart(6)} (${m.length}/${r.gaps.length} matched)`);
}
const errs = rows.flatMap((r) => (errOf(r) === undefined ? [] : [errOf(r)!]));
console.log(`${errs.length} graphs: signed median ${pct(median(errs))}; late by more than 10%: ${errs.filter((e) => e > 0.1).length}, early: ${errs.filter((e) => e < -0.1).length}; |error| median ${pct(median(errs.map(Math.abs)))}, within 10% on ${errs.filter((e) => Math.abs(e) <= 0.1).length}`);

const all = rows.flatMap((r) => r.gaps.map((g) => ({ ...g, graph: r.graph })));
console.log('\nthe source paths\' nodes by class (matched ones: source -> rebuilt ms, the difference; longer / shorter by 1.5x and 20 ms):');
for (const [cls, t] of durationTotals(all)) {
  const own = t.browser ? `, of it the browser's own waits ${t.browser.toFixed(0)}` : '';
  console.log(`  ${cls.padEnd(22)} ${String(t.nodes).padStart(5)} nodes (${t.matched} matched): ${t.source.toFixed(0).padStart(7)} -> ${t.built.toFixed(0).padStart(7)} ms (${ms(t.built - t.source)}${own}); longer ${t.longer}, shorter ${t.shorter}`);
}
console.log(`\nthe ${top} path nodes whose durations differ most (source -> rebuilt ms):`);
for (const g of all.filter((g) => g.built !== undefined).sort((a, b) => Math.abs(b.built! - b.source) - Math.abs(a.built! - a.source)).slice(0, top)) {
  console.log(`  ${ms(g.built! - g.source).padStart(7)}  ${g.source.toFixed(0).padStart(6)} -> ${g.built!.toFixed(0).padStart(6)}  ${g.cls.padEnd(18)} ${g.graph.slice(0, 24).padEnd(24)} ${g.key.slice(0, 110)}`);
}
if (values.json) writeFileSync(values.json, JSON.stringify(rows, null, 1));
