/**
 * Thesis-style tables over the 64 reference graphs (root script "emulate:thesis"), on Table 4.1's grid of
 * rates and RTTs:
 *  1. median load time of HTTP/1.1 with 6 connections per (bandwidth, RTT)        (Figures 4.12-4.14)
 *  2. share of sites where HTTP/2 (one connection, no priorities) is as fast or faster than HTTP/1.1,
 *     "as fast" meaning within 20 ms, comparing each site's mean over runs           (Figure 4.16)
 *  3. mean PLT reduction of HTTP/2 over HTTP/1.1, sum(h1 - h2) / sum(h1)           (Figure 4.15a)
 *  4. packet drop rate of HTTP/1.1 and HTTP/2                                       (Figure 4.17)
 * Usage: emulate:thesis [--runs N] (seeds 1..N per cell; default 1); `--chapter 6` prints chapter 6's multipath
 * tables instead (thesis-chapter6.ts). Thesis defaults otherwise apply:
 * RED queue of 1.5 BDP, NewReno, per-run RTT jitter of +-0.1 d (§3.7.7.1); the thesis used icwnd 4, which we
 * use here too (the emulator's default is 10).
 */
import { checkedOption, positiveInt, scriptArgs } from '@pcp/profiler/script-args';
import { checkedSimulate as simulate, LOSS_DETECTIONS, oneOf, type EmulatorConfig } from '../src/index.ts';
import { median } from '../src/stats.ts';
import { loadCorpus, RATES, RTTS } from './corpus.ts';

const { values } = scriptArgs('emulate:thesis', `
usage: npm run emulate:thesis [-- --runs N] [--icwnd N] [--chapter 4|6] [--rates 10Mbps,50Mbps] [--min-queue N]
                              [--loss-detection nack|sack] [--delayed-acks thesis|linux|off] [--no-preloader]

The thesis' tables over the 64 reference graphs. Chapter 4 (default), on Table 4.1's grid of rates and
RTTs: median load time of HTTP/1.1 (6 connections), share of sites where HTTP/2 is as fast (within 20 ms),
mean PLT reduction of HTTP/2, packet drop rates (Figures 4.12-4.17). Chapter 6: the multipath figures and
tables (6.4, 6.6, 6.8, 6.15, Tables 6.1-6.2; thesis-chapter6.ts). --runs N seeds per cell (default 1),
--icwnd the initial window (default 4, the thesis'), --rates chapter 6's rates (of 500Kbps, 1Mbps,
10Mbps, 50Mbps, 100Mbps, 500Mbps, 1Gbps, 2.5Gbps: Table 6.2 only), --delayed-acks chapter 6's client
(default thesis: ns-3's 100 ms / every 2nd segment, Table 3.3; linux; off), --no-preloader chapter 6
without the browser's preloader (§3.7.5), --min-queue chapter 6's smallest queue in packets (default 4;
Table 6.2's 10 Mbit/s / 8 ms cell depends on it), --loss-detection how senders find RED's drops: the
thesis' NACK scheme (default, Appendix B) or sack (three duplicate ACKs, else the RTO; emulator/README.md).
RED queue of 1.5 BDP, NewReno, RTT jitter +-0.1 d.
`, { runs: { type: 'string' }, icwnd: { type: 'string' }, chapter: { type: 'string' }, rates: { type: 'string' }, 'min-queue': { type: 'string' }, 'loss-detection': { type: 'string' }, 'delayed-acks': { type: 'string' }, 'no-preloader': { type: 'boolean' } });
const lossDetection = checkedOption('emulate:thesis', () => oneOf('loss-detection', values['loss-detection'] ?? 'nack', LOSS_DETECTIONS));
const chapter = checkedOption('emulate:thesis', () => oneOf('chapter', values.chapter ?? '4', ['4', '6']));
if (chapter === '6') {
  await import('./thesis-chapter6.ts'); // the multipath tables (its own file: chapter 6's grid and statistics)
  process.exit(0);
}
const runs = checkedOption('emulate:thesis', () => positiveInt('runs', values.runs, 1));
const icwnd = checkedOption('emulate:thesis', () => positiveInt('icwnd', values.icwnd, 4));

const corpus = loadCorpus();
const resources = corpus.reduce((s, c) => s + c.graph.nodes.filter((n) => n.kind === 'resource' && !n.disabled).length, 0);
const measured = corpus.reduce((s, c) => s + c.measuredDelays, 0);
console.log(`${corpus.length} reference graphs, ${runs} run(s) per cell, icwnd ${icwnd}, RED queue 1.5 BDP, NewReno, RTT jitter +-0.1 d${lossDetection === 'sack' ? ', loss detection sack' : ''}`);
console.log(`server delays: ${measured} of ${resources} resources measured (corpus delays/), the rest drawn from the per-MIME CDFs\n`);

interface Cell {
  h1Median: number;
  share: number;
  reduction: number;
  dropH1: number;
  dropH2: number;
}

const cells: Cell[][] = [];
const t0 = performance.now();
let failures = 0;
for (const [, bw] of RATES) {
  const row: Cell[] = [];
  for (const rtt of RTTS) {
    const h1Loads: number[] = [];
    let sumH1 = 0;
    let sumH2 = 0;
    let better = 0;
    let sites = 0;
    const drops = { h1: 0, h2: 0, p1: 0, p2: 0 };
    for (const { slug, graph } of corpus) {
      let m1 = 0;
      let m2 = 0;
      try {
        for (let s = 1; s <= runs; s++) {
          const base: EmulatorConfig = { bandwidthBps: bw, rttMs: rtt, protocol: 'h1', icwnd, rttJitter: 0.1, seed: s, lossDetection };
          const a = simulate(graph, base);
          const b = simulate(graph, { ...base, protocol: 'h2' });
          h1Loads.push(a.loadTime);
          m1 += a.loadTime / runs;
          m2 += b.loadTime / runs;
          drops.h1 += a.drops;
          drops.p1 += a.packets;
          drops.h2 += b.drops;
          drops.p2 += b.packets;
        }
      } catch (e) {
        failures++;
        console.error(`${slug} at ${bw} bit/s ${rtt} ms: ${(e as Error).message}`);
        continue;
      }
      sites++;
      sumH1 += m1;
      sumH2 += m2;
      if (m2 <= m1 + 20) better++;
    }
    row.push({
      h1Median: median(h1Loads),
      share: sites ? (100 * better) / sites : NaN,
      reduction: sumH1 ? (100 * (sumH1 - sumH2)) / sumH1 : NaN,
      dropH1: drops.p1 ? (100 * drops.h1) / drops.p1 : 0,
      dropH2: drops.p2 ? (100 * drops.h2) / drops.p2 : 0,
    });
  }
  cells.push(row);
}

function table(title: string, f: (c: Cell) => string, width = 9): void {
  console.log(title);
  console.log(`${'rate \\ RTT'.padEnd(10)}${RTTS.map((r) => `${r}ms`.padStart(width)).join('')}`);
  RATES.forEach(([name], i) => console.log(`${name.padEnd(10)}${cells[i]!.map((c) => f(c).padStart(width)).join('')}`));
  console.log('');
}

table('1. median load time, HTTP/1.1 with 6 connections (s)   [Fig 4.12-4.14]', (c) => (c.h1Median / 1000).toFixed(2));
table('2. % of sites where HTTP/2 is as fast or faster than HTTP/1.1 (within 20 ms)   [Fig 4.16]', (c) => c.share.toFixed(1));
table('3. mean PLT reduction of HTTP/2 vs HTTP/1.1, % = sum(h1-h2)/sum(h1)   [Fig 4.15a]', (c) => c.reduction.toFixed(1));
table('4. packet drop rate %, HTTP/1.1 / HTTP/2   [Fig 4.17]', (c) => `${c.dropH1.toFixed(1)}/${c.dropH2.toFixed(1)}`, 12);
console.log(`${(performance.now() - t0) / 1000 | 0} s${failures ? `, ${failures} failed simulations (reported above)` : ''}`);
