/**
 * Accuracy of the link models against ground truth (root script "emulate:link-check"):
 * 1. loss models: the loss rate and mean loss-run length the simulator's links produce vs the analytic
 *    values (Bernoulli p and run 1/(1-p); Gilbert-Elliott's stationary rate and 1/P_BG runs when LOSS_B ~ 1);
 * 2. TCP under random loss: a 10 MB NewReno transfer on an uncongested 100 Mbit/s, 70 ms path vs the Mathis
 *    et al. (1997) formula MSS/RTT x sqrt(3/2) / sqrt(p), the standard model of Reno-style throughput;
 *    With loss detection by ACK clocking (`lossDetection: 'sack'`: three duplicate ACKs, else the RTO) the
 *    same transfer against Padhye et al. (1998)'s formula, which adds the timeouts Mathis leaves out:
 *    1 / (RTT sqrt(2bp/3) + T0 min(1, 3 sqrt(3bp/8)) p (1 + 32p^2)) segments/s, b = 1 (every segment ACKed),
 *    T0 = the 200 ms minimum RTO;
 * 3. link traces: a transfer of two trace periods' worth (at least 10 MB) over each shipped trace vs the
 *    trace's mean rate x 1448/1500 (payload share).
 * Prints each figure beside its target; exits 1 when one misses. `--seeds N` (default 5).
 */
import { checkedOption, positiveInt, scriptArgs } from '@pcp/profiler/script-args';
import { fileURLToPath } from 'node:url';
import { simulate, type EmulatorConfig } from '../src/index.ts';
import { gilbertMeanLoss, makeLossModel, measureLoss, type LossSpec } from '../src/network/loss-model.ts';
import { loadTrace } from '../src/network/link-trace.ts';
import { Rng, STREAM_LOSS_DOWN } from '../src/rng.ts';
import { PageBuilder } from '@pcp/graph-builder/testing';
import { median } from '../src/stats.ts';

const { values } = scriptArgs('emulate:link-check', `
usage: npm run emulate:link-check [-- --seeds N]

Loss models (Bernoulli, Gilbert-Elliott) against their analytic rates and burst lengths, TCP goodput
under random loss against the Mathis formula (and, with --loss-detection sack, Padhye's formula with
timeouts), and link traces against their rates, over N seeds
(default 5). Exit status 1 when a figure misses its target.
`, { seeds: { type: 'string' } });
const seeds = checkedOption('emulate:link-check', () => positiveInt('seeds', values.seeds, 5));
let misses = 0;
const verdict = (ok: boolean): string => {
  if (!ok) misses++;
  return ok ? 'ok' : 'MISSED';
};

console.log('1. loss models, 1,000,000 packets each (rate; mean run of consecutive losses)');
const models: Array<[string, LossSpec, number, number]> = [
  ['bernoulli 1%', { kind: 'bernoulli', p: 0.01 }, 0.01, 1 / 0.99],
  ['gilbert 0.5%,20%,0,~1', { kind: 'gilbert', pGB: 0.005, pBG: 0.2, lossG: 0, lossB: 1 - 1e-9 }, gilbertMeanLoss({ pGB: 0.005, pBG: 0.2, lossG: 0, lossB: 1 }), 1 / 0.2],
];
for (const [name, spec, rate, run] of models) {
  const { rate: r, meanRun: mr } = measureLoss(makeLossModel(spec, new Rng(1, STREAM_LOSS_DOWN))!, 1_000_000);
  console.log(`  ${name.padEnd(24)} rate ${(r * 100).toFixed(3)}% (analytic ${(rate * 100).toFixed(3)}%)  run ${mr.toFixed(2)} (analytic ${run.toFixed(2)})  ${verdict(Math.abs(r - rate) / rate < 0.03 && Math.abs(mr - run) / run < 0.05)}`);
}

const bulk = (bytes: number) => new PageBuilder().resource('r', 'http://a.com/x', bytes, { serverDelay: 0 }).edge('r', 'load').build();
const goodput = (bytes: number, cfg: EmulatorConfig): number[] =>
  Array.from({ length: seeds }, (_, i) => {
    const r = simulate(bulk(bytes), { ...cfg, seed: i + 1 });
    return (bytes * 8) / r.resources[0]!.transfer / 1000; // Mbit/s
  });

console.log(`\n2. NewReno, 10 MB, 100 Mbit/s, 70 ms, random loss on the data path; median goodput over ${seeds} seeds vs Mathis (target within 25%)`);
for (const p of [0.005, 0.01, 0.02]) {
  const g = median(goodput(10e6, { bandwidthBps: 100e6, rttMs: 70, protocol: 'h1', queue: 'droptail', queueBdp: 4, lossModel: { kind: 'bernoulli', p }, uplinkLossModel: { kind: 'list', packets: [] } }));
  const mathis = ((1448 * 8) / 0.07) * Math.sqrt(1.5) / Math.sqrt(p) / 1e6;
  console.log(`  p ${(p * 100).toFixed(1)}%: ${g.toFixed(2)} Mbit/s, Mathis ${mathis.toFixed(2)} (ratio ${(g / mathis).toFixed(2)})  ${verdict(Math.abs(g / mathis - 1) < 0.25)}`);
}

console.log(`\n2b. the same with --loss-detection sack (three duplicate ACKs, else the RTO) vs Padhye et al.'s formula with timeouts (T0 200 ms; target within 25%)`);
for (const p of [0.005, 0.01, 0.02, 0.05]) {
  const g = median(goodput(10e6, { bandwidthBps: 100e6, rttMs: 70, protocol: 'h1', queue: 'droptail', queueBdp: 4, lossModel: { kind: 'bernoulli', p }, uplinkLossModel: { kind: 'list', packets: [] }, lossDetection: 'sack' }));
  const rtt = 0.07;
  const t0 = 0.2;
  const padhye = ((1 / (rtt * Math.sqrt((2 * p) / 3) + t0 * Math.min(1, 3 * Math.sqrt((3 * p) / 8)) * p * (1 + 32 * p * p))) * 1448 * 8) / 1e6;
  console.log(`  p ${(p * 100).toFixed(1)}%: ${g.toFixed(2)} Mbit/s, Padhye ${padhye.toFixed(2)} (ratio ${(g / padhye).toFixed(2)})  ${verdict(Math.abs(g / padhye - 1) < 0.25)}`);
}

console.log(`\n3. link traces, two periods' worth (>= 10 MB); median goodput vs the trace's mean rate x 1448/1500 (target within 5%)`);
for (const name of ['const-12mbit', 'cellular-variable']) {
  const path = fileURLToPath(new URL(`../traces/${name}.trace`, import.meta.url));
  const t = loadTrace(path);
  // A deep queue: the rate, not the queue, should limit; the transfer spans several trace periods for the 12 Mbit/s one.
  const bytes = Math.max(10e6, Math.round(((t.meanBps / 8) * (2 * t.periodMs)) / 1000 * (1448 / 1500)));
  const g = median(goodput(bytes, { bandwidthBps: t.meanBps, rttMs: 40, protocol: 'h1', queue: 'droptail', queueBdp: 40, downlinkTrace: path }));
  const want = (t.meanBps * 1448) / 1500 / 1e6;
  console.log(`  ${name.padEnd(18)} ${(bytes / 1e6).toFixed(1)} MB: ${g.toFixed(2)} Mbit/s, trace ${want.toFixed(2)} (ratio ${(g / want).toFixed(3)})  ${verdict(Math.abs(g / want - 1) < 0.05)}`);
}
console.log(misses ? `\n${misses} figure(s) missed their target` : '\nevery figure within its target');
process.exitCode = misses ? 1 : 0;
