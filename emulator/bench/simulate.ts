/**
 * Benchmark (root script "bench:emulate"): simulations per second on one core for the median-size reference
 * graph at 10 Mbit/s, 40 ms, for HTTP/2 and HTTP/1.1 (target >= 1,000/s), two-path MPTCP (target >= 300/s), and the wall time of the
 * Table 4.1 rate x RTT grid (h1 with 6 connections and h2, one run per cell) over all reference graphs.
 */
import { scriptArgs } from '@pcp/profiler/script-args';
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';
import { simulate, type EmulatorConfig } from '../src/index.ts';
import { loadCorpus, medianGraph, RATES, RTTS, type CorpusGraph } from '../scripts/corpus.ts';

const { values } = scriptArgs('bench:emulate', `
usage: npm run bench:emulate [-- --baseline DIR]

Simulations per CPU-second on one core for the median-size reference graph at 10 Mbit/s, 40 ms (HTTP/2,
HTTP/1.1, two-path MPTCP; target >= 1,000/s single path, >= 300/s two paths) and the CPU time of the
Table 4.1 rate x RTT grid over all reference graphs (a benchmark).

  --baseline DIR   A/B in the same run: also time the emulator of another checkout of this repository (e.g.
                   a temporary git worktree of the commit before a change), alternating the two in rounds,
                   and print this one's speed as a ratio of that one's for each configuration
`, { baseline: { type: 'string' } });

/** With --baseline: the old emulator, loaded from the other checkout's sources (before any work). */
let baseline: typeof simulate | null = null;
if (values.baseline !== undefined) {
  const entry = resolve(values.baseline, 'emulator/src/index.ts');
  try {
    baseline = ((await import(pathToFileURL(entry).href)) as { simulate: typeof simulate }).simulate;
  } catch (e) {
    console.error(`bench:emulate: --baseline: cannot load ${entry}: ${(e as Error).message.split('\n')[0]}`);
    process.exit(2);
  }
}

// Pick the median-size graph, then let the other 63 go before timing: a heap full of unrelated graphs makes
// every major GC slower and is not part of simulating one page.
let corpus: CorpusGraph[] | null = loadCorpus();
const med = medianGraph(corpus);
corpus = null;
const nodes = med.graph.nodes.filter((n) => !n.disabled).length;
console.log(`median-size reference graph: ${med.slug} (${nodes} nodes, ${med.graph.edges.length} edges)`);

/** Process CPU seconds: on a shared machine wall time also counts other processes' turns on the core. */
function cpuSeconds(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
}

type Simulate = typeof simulate;
function rate(config: EmulatorConfig, ms = 3000, sim: Simulate = simulate): { cpu: number; wall: number } {
  for (let i = 0; i < 200; i++) sim(med.graph, { ...config, seed: i }); // warm up the JIT and the compiled-graph cache
  const t0 = performance.now();
  const c0 = cpuSeconds();
  let n = 0;
  while (performance.now() - t0 < ms) sim(med.graph, { ...config, seed: n++ });
  return { cpu: n / (cpuSeconds() - c0), wall: n / ((performance.now() - t0) / 1000) };
}

if (values.baseline !== undefined) {
  // The old emulator's rate is the mean over ROUNDS rounds of 2 s each, as this one's.
  const old = baseline!;
  const ROUNDS = 4;
  const configs: Array<[string, EmulatorConfig]> = [
    ['h2', { bandwidthBps: 10e6, rttMs: 40, protocol: 'h2' }],
    ['h1', { bandwidthBps: 10e6, rttMs: 40, protocol: 'h1' }],
    ['MPTCP min-RTT + LIA', { bandwidthBps: 10e6, rttMs: 40, protocol: 'h2', path2: { bandwidthBps: 10e6, rttMs: 200 } }],
    ['MP QUIC Stream', { bandwidthBps: 10e6, rttMs: 40, protocol: 'quic-lite', mptcpScheduler: 'stream', mptcpCc: 'uncoupled', path2: { bandwidthBps: 10e6, rttMs: 200 } }],
  ];
  console.log(`A/B against ${values.baseline}: ${ROUNDS} rounds of 2 s each, alternating which goes first, simulations per CPU-second`);
  for (const [label, config] of configs) {
    let a = 0;
    let b = 0;
    for (let r = 0; r < ROUNDS; r++) {
      // Alternate which goes first, so neither always runs on a heap the other just filled.
      const first = r % 2 === 0;
      if (first) b += rate(config, 2000, old).cpu / ROUNDS;
      a += rate(config, 2000).cpu / ROUNDS;
      if (!first) b += rate(config, 2000, old).cpu / ROUNDS;
    }
    console.log(`${label.padEnd(20)} this ${a.toFixed(0).padStart(6)}  baseline ${b.toFixed(0).padStart(6)}  ratio ${(a / b).toFixed(3)}`);
  }
  process.exit(0);
}

const TARGET = 1000;
const results: Array<[string, number]> = [];
for (const protocol of ['h2', 'h1'] as const) {
  const r = rate({ bandwidthBps: 10e6, rttMs: 40, protocol });
  results.push([protocol, r.cpu]);
  console.log(`${protocol.padEnd(3)} 10 Mbit/s 40 ms: ${r.cpu.toFixed(0)} simulations per CPU-second (${(r.cpu / TARGET).toFixed(2)}x the ${TARGET}/s target; ${r.wall.toFixed(0)}/s wall clock)`);
}
console.log(`h2/h1 speed ratio: ${(results[0]![1] / results[1]![1]).toFixed(2)}`);
// Two-path MPTCP (thesis chapter 6): HTTP/2 over a second 10 Mbit/s path with 5x the RTT (target >= 300/s).
const MP_TARGET = 300;
for (const [label, extra] of [['MPTCP min-RTT + LIA', {}], ['MP QUIC Stream', { protocol: 'quic-lite', mptcpScheduler: 'stream', mptcpCc: 'uncoupled' }]] as const) {
  const r = rate({ bandwidthBps: 10e6, rttMs: 40, protocol: 'h2', path2: { bandwidthBps: 10e6, rttMs: 200 }, ...extra });
  console.log(`${label}, 10 Mbit/s 40 ms + 10 Mbit/s 200 ms: ${r.cpu.toFixed(0)} simulations per CPU-second (${(r.cpu / MP_TARGET).toFixed(2)}x the ${MP_TARGET}/s target; ${r.wall.toFixed(0)}/s wall clock)`);
}

corpus = loadCorpus();
const t0 = performance.now();
const c0 = cpuSeconds();
let sims = 0;
for (const { graph } of corpus) {
  for (const [, bw] of RATES) {
    for (const rtt of RTTS) {
      simulate(graph, { bandwidthBps: bw, rttMs: rtt, protocol: 'h1' });
      simulate(graph, { bandwidthBps: bw, rttMs: rtt, protocol: 'h2' });
      sims += 2;
    }
  }
}
const secs = (performance.now() - t0) / 1000;
const cpu = cpuSeconds() - c0;
console.log(`full grid: ${RATES.length} rates x ${RTTS.length} RTTs x {h1, h2} x ${corpus.length} graphs = ${sims} simulations in ${secs.toFixed(1)} s wall, ${cpu.toFixed(1)} CPU-s on one core (${(sims / cpu).toFixed(0)} per CPU-second)`);
