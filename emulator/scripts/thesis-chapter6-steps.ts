/**
 * `node --import tsx emulator/scripts/thesis-chapter6-steps.ts`: one cell of Table 6.1 or 6.2, §6.4's changes
 * added to baseline MPTCP one at a time (and each alone, and each left out of the modified MPTCP), as % PLT
 * improvement over single-path TCP with TLP + PSH over the 64 reference graphs; then the sites that one change
 * moves most, with how many of their resources the preloader requested before and after. How issue 17 found
 * why the modified MPTCP did not beat baseline from 50 Mbit/s (emulator/README.md, chapter 6).
 */
import { checkedOption, positiveInt, scriptArgs, usageExit } from '@pcp/profiler/script-args';
import { checkedSimulate as simulate, parseRate, parseTime, THESIS_DELAYED_ACKS, type EmulatorConfig, type SimResult } from '../src/index.ts';
import { CUMULATIVE_STEPS, chapter6Config, singleChanges, type Chapter6Setup } from './chapter6-setup.ts';
import { improvement } from './chapter6-stats.ts';
import { loadCorpus } from './corpus.ts';

const { values } = scriptArgs('thesis-chapter6-steps', `
usage: node --import tsx emulator/scripts/thesis-chapter6-steps.ts [--bandwidth 50mbit] [--rtt 100ms] [--table 6.1|6.2]
         [--seeds N] [--no-preloader] [--sites N]

Table 6.1 (second path 5x the RTT) or 6.2 (1/5 the bandwidth) at one rate and RTT (ms), the thesis' chapter 6
set-up (tc units; icwnd 4, RED 1.5 BDP, ns-3 delayed ACKs, RTT jitter +-0.1 d): % improvement of each MPTCP variant over
single-path TCP with TLP + PSH, seeds 1..N (default 1); then the --sites (default 8) sites whose load time the
step that costs most moves most. --no-preloader: all of it without the browser's preloader (§3.7.5).
`, { bandwidth: { type: 'string' }, rtt: { type: 'string' }, table: { type: 'string' }, seeds: { type: 'string' }, 'no-preloader': { type: 'boolean' }, sites: { type: 'string' } });

const fail = (msg: string): never => usageExit('thesis-chapter6-steps', msg);
const parsed = <T>(f: () => T): T => checkedOption('thesis-chapter6-steps', f);
const B = parsed(() => parseRate(values.bandwidth ?? '50mbit'));
const R = parsed(() => parseTime(values.rtt ?? '100ms'));
const table = values.table ?? '6.1';
if (!(R > 0)) fail(`--rtt expects a positive time, got '${values.rtt}'`);
const seeds = parsed(() => positiveInt('seeds', values.seeds, 1));
const nSites = Number(values.sites ?? 8);
if (!Number.isInteger(nSites) || nSites < 0) fail(`--sites expects a non-negative integer, got '${values.sites}'`);
if (table !== '6.1' && table !== '6.2') fail(`--table expects 6.1 or 6.2, got '${table}'`);

const setup: Chapter6Setup = { icwnd: 4, minQueue: 4, lossDetection: 'nack', delayedAcks: THESIS_DELAYED_ACKS, preloader: !values['no-preloader'] };
const mode = table === '6.1' ? 'rtt' : 'bw';
const variants: Array<readonly [string, Partial<EmulatorConfig>]> = [...CUMULATIVE_STEPS, ...singleChanges()];
const corpus = loadCorpus();
const slugs: string[] = [];
const sp: number[] = [];
const runs: SimResult[][] = variants.map(() => []);
for (const { slug, graph } of corpus) {
  for (let s = 1; s <= seeds; s++) {
    slugs.push(slug);
    sp.push(simulate(graph, chapter6Config(setup, 'spTlp', B, R, s)).loadTime);
    variants.forEach(([, over], k) => runs[k]!.push(simulate(graph, { ...chapter6Config(setup, mode, B, R, s), ...over })));
  }
}
const loads = runs.map((rs) => rs.map((r) => r.loadTime));
console.log(`Table ${table} at ${B / 1e6} Mbit/s / ${R} ms, ${corpus.length} sites x ${seeds} seed(s)${setup.preloader ? '' : ', no preloader'}: % improvement over TCP (TLP + PSH)`);
variants.forEach(([name], k) => {
  if (k === CUMULATIVE_STEPS.length) console.log('');
  console.log(`  ${name.padEnd(30)}${improvement(sp, loads[k]!).pct.toFixed(2).padStart(7)}%`);
});

// The cumulative step that costs most, and the sites it moves most.
let worst = 1;
for (let k = 2; k < CUMULATIVE_STEPS.length; k++) {
  const cost = (k: number): number => improvement(sp, loads[k - 1]!).pct - improvement(sp, loads[k]!).pct;
  if (cost(k) > cost(worst)) worst = k;
}
const before = runs[worst - 1]!;
const after = runs[worst]!;
const preloaded = (r: SimResult): number => r.resources.filter((x) => x.preloaded).length;
const order = slugs.map((_, i) => i).sort((i, j) => Math.abs(after[j]!.loadTime - before[j]!.loadTime) - Math.abs(after[i]!.loadTime - before[i]!.loadTime));
console.log(`\nsites '${CUMULATIVE_STEPS[worst]![0]}' moves most: load ms before -> after, resources the preloader requested before -> after`);
for (const i of order.slice(0, nSites)) {
  const a = before[i]!;
  const b = after[i]!;
  console.log(`  ${slugs[i]!.padEnd(28)}${a.loadTime.toFixed(0).padStart(7)} -> ${b.loadTime.toFixed(0).padStart(6)}   preloaded ${preloaded(a)} -> ${preloaded(b)} of ${a.resources.length}`);
}
