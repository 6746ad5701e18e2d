/**
 * `npm run emulate:thesis -- --chapter 6`: the thesis' chapter 6 (multipath web) over the 64 reference graphs,
 * on its grid of 7 rates x 4 RTTs (§6.3), HTTP/2 with one connection per host, critical-path priorities and an
 * out-of-order server (§6.2), each path with its own RED bottleneck of 1.5 BDP, per-run RTT jitter of +-0.1 d,
 * icwnd 4 (as the chapter 4 tables), the thesis' delayed ACKs (Table 3.3: ns-3, 100 ms, every 2nd segment; l.2830).
 * Single-path TCP runs on the best path (B, R); MPTCP connections start on the first path listed and join the
 * second (§6.3.4):
 *  1. equal paths (B,R)+(B,R): mean PLT reduction, 100 x sum(SP - MP) / sum(SP)                    (Figure 6.4)
 *  2. 5x RTT (B,R)+(B,5R): % of sites with MPTCP as fast as TCP, or faster (within 20 ms)           (Figure 6.6)
 *  3. 1/5 bandwidth (B,R)+(B/5,R): the same share                                                  (Figure 6.8)
 *  4. worst path first: (B/5,R)+(B,R) and (B,5R)+(B,R), against TCP on (B,R)                     (Figure 6.15)
 *  5-6. modified MPTCP (MP QUIC: out-of-order delivery, preemption, Stream Scheduler, uncoupled CC, TLP + PSH) against
 *     baseline MPTCP (HTTP/2, min-RTT, LIA), both against single-path TCP with TLP (+ PSH: l.1645, l.3027),
 *     for the delay (the figures' grid) and bandwidth mismatches (1 Mbit/s .. 2.5 Gbit/s)      (Tables 6.1-6.2)
 *  7. the mechanisms one at a time at 50 Mbit/s / 100 ms with 5x RTT                              (Figure 6.24c)
 * Usage: emulate:thesis --chapter 6 [--runs N] [--icwnd N] [--rates 1Mbps,10Mbps] [--min-queue N] [--loss-detection nack|sack]
 *   [--delayed-acks thesis|linux|off] [--no-preloader]. Baseline MPTCP has no PSH (the emulator's `psh` is §6.4.5's whole change).
 */
import { checkedOption, positiveInt } from '@pcp/profiler/script-args';
import { checkedSimulate as simulate, LINUX_DELAYED_ACKS, oneOf, THESIS_DELAYED_ACKS, type DelayedAckPolicy, type EmulatorConfig, type LossDetection } from '../src/index.ts';
import { chapter6Config, MODIFIED, type Chapter6Setup, type Mode } from './chapter6-setup.ts';
import { anovaP, improvement, reduction, shareAsFast } from './chapter6-stats.ts';
import { loadCorpus } from './corpus.ts';

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : undefined;
}
const runs = checkedOption('emulate:thesis', () => positiveInt('runs', arg('runs'), 1));
const icwnd = checkedOption('emulate:thesis', () => positiveInt('icwnd', arg('icwnd'), 4));
const minQueue = checkedOption('emulate:thesis', () => positiveInt('min-queue', arg('min-queue'), 4));
const lossDetection = (arg('loss-detection') ?? 'nack') as LossDetection; // checked by thesis-tables.ts
const DELAYED_ACKS: Record<string, DelayedAckPolicy | false> = { thesis: THESIS_DELAYED_ACKS, linux: LINUX_DELAYED_ACKS, off: false };
const delayedAcksName = checkedOption('emulate:thesis', () => oneOf('delayed-acks', arg('delayed-acks') ?? 'thesis', Object.keys(DELAYED_ACKS)));
const delayedAcks = DELAYED_ACKS[delayedAcksName]!;
// Figures 6.4-6.15 and Table 6.1: 500 kbit/s .. 1 Gbit/s; Table 6.2: 1 Mbit/s .. 2.5 Gbit/s (no 500 kbit/s).
const ALL_RATES: Array<[string, number]> = [['500Kbps', 500e3], ['1Mbps', 1e6], ['10Mbps', 10e6], ['50Mbps', 50e6], ['100Mbps', 100e6], ['500Mbps', 500e6], ['1Gbps', 1e9], ['2.5Gbps', 2.5e9]];
const TABLE_62_ONLY = new Set(['2.5Gbps']);
const NOT_IN_TABLE_62 = new Set(['500Kbps']);
const pick = arg('rates')?.split(',');
const RATES = pick ? ALL_RATES.filter(([n]) => pick.includes(n)) : ALL_RATES;
if (RATES.length === 0) {
  console.error(`--rates: none of ${pick!.join(', ')} is one of ${ALL_RATES.map(([n]) => n).join(', ')}`);
  process.exit(2);
}
const RTTS = [8, 40, 100, 200];

const setup: Chapter6Setup = { icwnd, minQueue, lossDetection, delayedAcks, preloader: !process.argv.includes('--no-preloader') };
const config = (mode: Mode, B: number, R: number, seed: number): EmulatorConfig => chapter6Config(setup, mode, B, R, seed);
const FIGURE_MODES: Mode[] = ['sp', 'eq', 'rtt', 'bw', 'worstBw', 'worstRtt', 'spTlp', 'modRtt'];
/** The modes a rate runs: the figures and Table 6.1 on their grid, Table 6.2 (spTlp, bw, modBw) on its own. */
function modesAt(rate: string): Mode[] {
  const t62: Mode[] = NOT_IN_TABLE_62.has(rate) ? [] : ['spTlp', 'bw', 'modBw'];
  const figs = TABLE_62_ONLY.has(rate) ? [] : FIGURE_MODES;
  return [...new Set([...figs, ...t62])];
}
const MODES: Mode[] = ['sp', 'spTlp', 'eq', 'rtt', 'bw', 'worstBw', 'worstRtt', 'modRtt', 'modBw'];
const FIGURE_RATES = RATES.map(([n], i) => [n, i] as const).filter(([n]) => !TABLE_62_ONLY.has(n));

const corpus = loadCorpus();
console.log(`${corpus.length} reference graphs, ${runs} run(s) per cell, h2 + critical-path priorities, icwnd ${icwnd}, RED 1.5 BDP per path (at least ${minQueue} packets), NewReno, RTT jitter +-0.1 d${setup.preloader ? '' : ', no preloader'}, delayed ACKs ${delayedAcks ? `${delayedAcksName} (${delayedAcks.timeoutMs} ms, every ${delayedAcks.everyNth}${delayedAcks.countBytes ? ' full' : ''} segments, ${delayedAcks.quickAcks} quick ACKs)` : 'off'}${lossDetection === 'sack' ? ', loss detection sack' : ''}`);
console.log('Figures: TCP and MPTCP without TLP. Tables: TCP with TLP + PSH; MPTCP baseline: h2, min-RTT scheduler, LIA, no TLP/PSH; modified: quic-lite (out-of-order delivery) + preemption + Stream Scheduler + uncoupled + tail-loss probes with PSH (and the PSH/ACK on the other subflow; PTO without the delayed-ACK term)\n');

interface Cell {
  site: number[];
  plt: Record<Mode, number[]>;
}
const cells: Cell[][] = [];
const t0 = performance.now();
let sims = 0;
for (const [name, B] of RATES) {
  const row: Cell[] = [];
  for (const R of RTTS) {
    const cell: Cell = { site: [], plt: Object.fromEntries(MODES.map((m) => [m, [] as number[]])) as Record<Mode, number[]> };
    const modes = modesAt(name);
    corpus.forEach(({ graph }, i) => {
      for (let s = 1; s <= runs; s++) {
        cell.site.push(i);
        for (const m of modes) cell.plt[m].push(simulate(graph, config(m, B, R, s)).loadTime);
        sims += modes.length;
      }
    });
    row.push(cell);
    process.stderr.write(`\r${name} ${R}ms done (${sims} simulations, ${((performance.now() - t0) / 1000).toFixed(0)} s)   `);
  }
  cells.push(row);
}
process.stderr.write('\n');

function heatmap(title: string, f: (c: Cell) => number): void {
  console.log(title);
  console.log(`${'rate \\ RTT'.padEnd(10)}${RTTS.map((r) => `${r}ms`.padStart(9)).join('')}`);
  FIGURE_RATES.forEach(([name, i]) => console.log(`${name.padEnd(10)}${cells[i]!.map((c) => f(c).toFixed(1).padStart(9)).join('')}`));
  console.log('');
}

heatmap('1. equal paths: mean PLT reduction of MPTCP vs TCP, %   [Fig 6.4]', (c) => reduction(c.plt.sp, c.plt.eq));
heatmap('2. 5x RTT on the second path: % of sites with MPTCP as fast or faster (within 20 ms)   [Fig 6.6]', (c) => shareAsFast(c.site, c.plt.sp, c.plt.rtt));
heatmap('3. 1/5 bandwidth on the second path: % of sites as fast or faster   [Fig 6.8]', (c) => shareAsFast(c.site, c.plt.sp, c.plt.bw));
heatmap('4a. worst path first, 1/5 bandwidth: % of sites as fast or faster than TCP on (B,R)   [Fig 6.15a]', (c) => shareAsFast(c.site, c.plt.sp, c.plt.worstBw));
heatmap('4b. worst path first, 5x RTT: % of sites as fast or faster than TCP on (B,R)   [Fig 6.15b]', (c) => shareAsFast(c.site, c.plt.sp, c.plt.worstRtt));

function comparison(title: string, mod: Mode, baseline: Mode, skip: Set<string>): void {
  console.log(title);
  console.log(`${'rate'.padEnd(9)}${'RTT'.padStart(6)}${'PLT_tcp'.padStart(9)} | ${'modified x'.padStart(10)}${'sd'.padStart(8)}${'% imp'.padStart(7)} | ${'baseline x'.padStart(10)}${'sd'.padStart(8)}${'% imp'.padStart(7)} | ${'p'.padStart(6)}`);
  RATES.forEach(([name], i) => skip.has(name) || cells[i]!.forEach((c, j) => {
    const sp = c.plt.spTlp;
    const a = improvement(sp, c.plt[mod]);
    const b = improvement(sp, c.plt[baseline]);
    const mean = sp.reduce((s, v) => s + v, 0) / sp.length;
    const s = (v: number): string => (v / 1000).toFixed(3);
    console.log(`${name.padEnd(9)}${`${RTTS[j]}ms`.padStart(6)}${s(mean).padStart(9)} | ${s(a.mean).padStart(10)}${s(a.sd).padStart(8)}${a.pct.toFixed(1).padStart(7)} | ${s(b.mean).padStart(10)}${s(b.sd).padStart(8)}${b.pct.toFixed(1).padStart(7)} | ${anovaP(c.plt[mod], c.plt[baseline]).toFixed(3).padStart(6)}`);
  }));
  console.log('  (x: mean of PLT_tcp - PLT_mptcp in s, sd its sample standard deviation, % imp = sum(tcp - mptcp) / sum(tcp), p: one-way ANOVA of modified vs baseline PLTs)\n');
}
comparison('5. delay mismatch (5x RTT): modified vs baseline MPTCP against TCP (TLP) on the best path   [Table 6.1]', 'modRtt', 'rtt', TABLE_62_ONLY);
comparison('6. bandwidth mismatch (1/5 bandwidth): modified vs baseline MPTCP against TCP (TLP) on the best path   [Table 6.2]', 'modBw', 'bw', NOT_IN_TABLE_62);

// 7. The mechanisms added one at a time (Figure 6.24c's curves) at 50 Mbit/s, 100 ms, 5x RTT on the second path.
const steps: Array<[string, Partial<EmulatorConfig>]> = [
  ['MPTCP HTTP/2 RTT', {}],
  ['MP QUIC RTT', { protocol: 'quic-lite', preemption: false }],
  ['MP QUIC RTT Preempt', { protocol: 'quic-lite', preemption: true }],
  ['MPTCP HTTP/2 Stream (preempt)', { preemption: true, mptcpScheduler: 'stream' }],
  ['MP QUIC Stream', { protocol: 'quic-lite', preemption: true, mptcpScheduler: 'stream' }],
  ['MP QUIC Stream No LIA', { ...MODIFIED, tlp: false, psh: false }],
  ['MP QUIC Stream No LIA TLP', { ...MODIFIED }],
];
console.log('7. mechanisms one at a time, 50 Mbit/s / 100 ms, 5x RTT on the second path: % of sites as fast as TCP or faster, mean PLT reduction   [Fig 6.24c]');
const sp50: number[] = [];
const site50: number[] = [];
corpus.forEach(({ graph }, i) => {
  for (let s = 1; s <= runs; s++) {
    site50.push(i);
    sp50.push(simulate(graph, config('sp', 50e6, 100, s)).loadTime);
  }
});
for (const [label, over] of steps) {
  const mp: number[] = [];
  corpus.forEach(({ graph }) => {
    for (let s = 1; s <= runs; s++) mp.push(simulate(graph, { ...config('rtt', 50e6, 100, s), ...over }).loadTime);
  });
  console.log(`  ${label.padEnd(32)}${shareAsFast(site50, sp50, mp).toFixed(1).padStart(6)}% of sites${reduction(sp50, mp).toFixed(1).padStart(7)}% reduction`);
}
console.log(`\n${((performance.now() - t0) / 1000).toFixed(0)} s, ${sims} grid simulations`);
