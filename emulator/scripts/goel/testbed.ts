/**
 * Goel 2017's testbed (§VI-B, VI-C) as a link schedule: every 70 ms its bridge set, on both directions, a
 * delay, a rate and a loss, drawn from distributions measured on an Akamai cluster's cellular connections:
 * - RTT: one distribution for all profiles (§VI-B: "the time to establish TCP connections"); half of it each way;
 * - rate: the profile's per-slice throughput (Fig. 10; §VI-A note: throughput stands in for bandwidth), as
 *   tc's tbf with `buffer 64k limit 128k`, re-issued every slice — Linux refills the bucket on each change,
 *   so each slice also lets 64 KiB through at once (network/link-schedule.ts);
 * - loss: none, except one slice after each time gap (Fig. 9: medians 1.15 s / 350 ms / 165 ms), whose loss is
 *   drawn from the profile's per-slice retransmission rates (Fig. 8; the paper used them as netem's loss).
 * Two families of profiles, as the paper's two emulation scenarios: `frequency` (§VI-B, Good / Median / Poor
 * by the time between loss clusters, one RTT distribution for all; Figs. 16-22) and `quality` (§VI-A, Table I:
 * Good / Fair / Passable / Poor from the p10 / p25 / p50 / p75 retransmission-rate, p90 / p75 / p50 / p25 gap
 * and throughput and p10 / p25 / p50 / p75 RTT distributions of Fig. 7; each its own RTT; Figs. 13-15).
 * The paper prints these distributions only as figures; their values come with its emulation script
 * (github.com/akamai/cell-emulation-util, `cellular_emulation.sh loss_based good|median|poor` and
 * `experience_based good|fair|passable|poor`, cited in §I). We keep the quantiles below (p0, p10, p25, p50,
 * p75, p90, p100 of each of the script's 200-value arrays; its passable loss array has 201) and draw from
 * them by linear interpolation: every draw comes from a seeded Rng, so runs are reproducible.
 * tbf_change refills the bucket but wakes nothing: a packet short of tokens waits for the watchdog tbf armed at
 * the rate of the slice it was found short in (`watchdogWake`, on; emulator/README.md, Goel's experiment, session
 * 17b). On the real bridge netem's hand-overs also wake the queue: `netemPair` (`--netem-wakes`, off) runs the data
 * direction through 3.13's netem/tbf pair event by event (session 18: it moves near the refills' figures).
 * netem re-orders packets when the delay drops between slices (each packet is held for its own slice's delay):
 * on by default (`reorder`), as the bridge did. What the model leaves out: the bridge's own line rate (taken
 * as infinite for the burst).
 * The order of the slices (`order`): the script walks its arrays in lockstep, one index per slice, and its arrays
 * are runs of three or four ascending values (a low, middle and high one), the same position of a run low or high
 * in every array (a short delay with a low rate and a short gap). `iid` (the default) draws every slice's rate,
 * RTT and gap apart; `script` keeps the walk's shape: runs of three slices whose draws are one from each third of
 * the probabilities, ascending, the slice's rate, RTT and gap at the same probability (the loss slices' own loss
 * stays drawn apart, as the script walks that array by a second index). Both give the same distribution per slice.
 */
import { linkSchedule, Rng, type LinkSchedule } from '../../src/index.ts';

/** Quantiles at these probabilities. */
const PROBS = [0, 0.1, 0.25, 0.5, 0.75, 0.9, 1] as const;
type Quantiles = readonly [number, number, number, number, number, number, number];

export const SLICE_MS = 70;
/** The bridge's tbf: `buffer 64k` (bytes per refill) and `limit 128k` (queue bytes). */
export const TBF_BUFFER_BYTES = 64 * 1024;
export const TBF_LIMIT_BYTES = 128 * 1024;
export const TBF_LIMIT_PACKETS = Math.floor(TBF_LIMIT_BYTES / 1500);

/** RTT, ms, of the frequency profiles (the script's `loss_based` latency array; half applied on each of the bridge's interfaces). */
export const RTT_MS: Quantiles = [22, 27, 30, 39, 52, 86.4, 255];

/** The paper's two emulation scenarios: by network quality (§VI-A) or by loss frequency (§VI-B). */
export type ProfileFamily = 'quality' | 'frequency';
export const PROFILE_FAMILIES: readonly ProfileFamily[] = ['quality', 'frequency'];

export interface TestbedProfile {
  name: 'Good' | 'Median' | 'Poor' | 'Fair' | 'Passable';
  family: ProfileFamily;
  /** RTT per slice, ms (Fig. 7 for quality, Fig. 12 for frequency); half of it on each interface. */
  rttMs: Quantiles;
  /** Time between loss slices, s (Fig. 9). */
  gapS: Quantiles;
  /** Retransmitted share of a loss slice's segments, % (Fig. 8), used as the slice's loss. */
  lossPct: Quantiles;
  /** Throughput per slice, kbit/s (Fig. 10). */
  rateKbps: Quantiles;
}

/** §VI-B, by loss frequency (the script's `loss_based`). */
export const FREQUENCY_PROFILES: readonly TestbedProfile[] = [
  { name: 'Good', family: 'frequency', rttMs: RTT_MS, gapS: [0.07, 0.175, 0.56, 1.155, 1.96, 3.0625, 5.425], lossPct: [0.5556, 1.5385, 5.8824, 33.3333, 50, 50, 75], rateKbps: [1.326, 11.54, 97.92, 1128.96, 4700, 9297.19, 14687.5] },
  { name: 'Median', family: 'frequency', rttMs: RTT_MS, gapS: [0.07, 0.07, 0.21, 0.35, 0.56, 0.9135, 3.5], lossPct: [0.7042, 2.5, 14.2857, 50, 50, 66.6667, 80], rateKbps: [1.646, 10.41, 28.35, 432.7, 1912.28, 5619.35, 13885.71] },
  { name: 'Poor', family: 'frequency', rttMs: RTT_MS, gapS: [0.07, 0.07, 0.07, 0.165, 0.245, 0.3885, 2.31], lossPct: [0.8403, 1.6949, 12.5, 50, 66.6667, 71.7857, 88.8889], rateKbps: [2.846, 20.42, 25.22, 256.58, 1784.43, 4516.45, 11456.25] },
];

/** §VI-A, by network quality (the script's `experience_based`; Table I). */
export const QUALITY_PROFILES: readonly TestbedProfile[] = [
  { name: 'Good', family: 'quality', rttMs: [20.2346, 23.88, 30.16, 39.34, 59.082, 128.8513, 672.2598], gapS: [0.07, 0.21, 0.28, 0.42, 0.91, 2.191, 6.9167], lossPct: [1.7241, 6.25, 16.6667, 33.3333, 50, 50, 73.4286], rateKbps: [205.3672, 4147.655, 6429.107, 7170.48, 7521.429, 8238.2887, 9828.482] },
  { name: 'Fair', family: 'quality', rttMs: [22.6184, 32.1504, 39.4232, 55.12, 81.9986, 200.7325, 704.6982], gapS: [0.07, 0.21, 0.28, 0.42, 0.77, 1.904, 6.9167], lossPct: [2.5892, 7.6923, 20, 38.4615, 50, 65.6167, 80], rateKbps: [195.9141, 1199.652, 2603.571, 3131.138, 3811.593, 4135.036, 5427.866] },
  { name: 'Passable', family: 'quality', rttMs: [24.109, 36.5865, 41.322, 65.78, 106.979, 255.2142, 720.645], gapS: [0.07, 0.14, 0.28, 0.42, 0.7, 1.694, 6.9146], lossPct: [0, 7.6923, 20, 50, 62.5, 75, 83.3333], rateKbps: [95.1987, 289.2857, 433.9286, 479.6317, 587.5, 608.6303, 1294.554] },
  { name: 'Poor', family: 'quality', rttMs: [23.582, 35.91, 42.6192, 68.76, 123.3224, 273.679, 720.87], gapS: [0.07, 0.14, 0.21, 0.42, 0.7, 1.5534, 6.9167], lossPct: [2.7357, 8.3333, 20, 50, 66.6667, 83.3333, 85.7143], rateKbps: [6.0145, 27.625, 144.6429, 146.875, 146.875, 187.2156, 282.6049] },
];

/** Every testbed profile of a family. */
export function familyProfiles(family: ProfileFamily): readonly TestbedProfile[] {
  return family === 'quality' ? QUALITY_PROFILES : FREQUENCY_PROFILES;
}

/** The value at probability u of a distribution given by its quantiles, linear in between. */
export function quantileDraw(q: Quantiles, u: number): number {
  for (let i = 1; i < PROBS.length; i++) {
    if (u <= PROBS[i]!) {
      const f = (u - PROBS[i - 1]!) / (PROBS[i]! - PROBS[i - 1]!);
      return q[i - 1]! + f * (q[i]! - q[i - 1]!);
    }
  }
  return q[q.length - 1]!;
}

/** The mean of the interpolated distribution (to print beside the script's own). */
export function quantileMean(q: Quantiles): number {
  let m = 0;
  for (let i = 1; i < PROBS.length; i++) m += ((PROBS[i]! - PROBS[i - 1]!) * (q[i - 1]! + q[i]!)) / 2;
  return m;
}

/** A profile's base path RTT: the smallest its bridge set; each slice adds (its RTT - this) / 2 each way. */
export function baseRttMs(p: TestbedProfile): number {
  return p.rttMs[0];
}

/** A loss slice's probability: its drawn share times `lossScale` (the calibration), kept below 1. */
const MAX_SLICE_LOSS = 0.95;

/** Slices generated; the schedule repeats after them (7 minutes). */
const SLICES = 6000;

/** Stream numbers of the schedule's draws (apart from the emulator's own, which the seed also feeds). */
const STREAM_RATE = 101;
const STREAM_RTT = 102;
const STREAM_GAP = 103;
const STREAM_LOSS = 104;
const STREAM_ORDER = 105;

/** Slices per run of the script's walk (its arrays' runs are of three, now and then four). */
export const SCRIPT_RUN = 3;

/** The order of the bridge's slices: drawn apart, or walked as the script's arrays are (see above). */
export type SliceOrder = 'iid' | 'script';
export const SLICE_ORDERS: readonly SliceOrder[] = ['iid', 'script'];

/** How the bridge is run beside its drawn slices (`emulate:goel`'s --no-refill, --refill-wakes, --no-reorder). */
export interface BridgeOptions {
  /** The tbf bucket refilled with 64 KiB every slice, as the bridge's `tc change` did; default true. False: the rate alone. */
  refill?: boolean;
  /** netem's re-ordering when a slice's delay drops below the last one's, as the bridge did; default true. */
  reorder?: boolean;
  /** The slices' order: drawn apart (`iid`, the default) or as the script walks its arrays (`script`). */
  order?: SliceOrder;
  /**
   * A packet short of tokens waits for tbf's watchdog, armed at its slice's rate, instead of leaving on the next
   * slice's refill (3.13's tbf_change refills without waking the queue; a bound: see link-schedule.ts); default
   * true since session 17b. False: every refill wakes the queue (sessions 8-17).
   */
  watchdogWake?: boolean;
  /**
   * The data direction is Linux 3.13's netem root with its tbf child, event-driven (the emulator's `netemPair`):
   * netem's delay before the bucket, a packet short of tokens woken by its watchdog (unless netem is throttled)
   * or by netem's next call (a later packet's hand-over or entry); default false. The ACK direction keeps the
   * closed form.
   */
  netemPair?: boolean;
}

/**
 * The probabilities of the script's walk: runs of `SCRIPT_RUN` slices, the k-th of a run drawn in the k-th
 * `1 / SCRIPT_RUN` of [0, 1), so that each run ascends and every slice is still uniform on [0, 1).
 */
export function scriptWalk(n: number, rng: Rng): Float64Array {
  const u = new Float64Array(n);
  for (let k = 0; k < n; k++) u[k] = ((k % SCRIPT_RUN) + rng.next()) / SCRIPT_RUN;
  return u;
}

export interface TestbedOptions extends BridgeOptions {
  /** Multiplies every loss slice's probability (the calibration); default 1. */
  lossScale?: number;
}

/** One seeded run of Goel's bridge for a profile. */
export function testbedSchedule(p: TestbedProfile, seed: number, opts: TestbedOptions = {}): LinkSchedule {
  const lossScale = opts.lossScale ?? 1;
  const rate = new Rng(seed, STREAM_RATE);
  const rtt = new Rng(seed, STREAM_RTT);
  const gap = new Rng(seed, STREAM_GAP);
  const loss = new Rng(seed, STREAM_LOSS);
  // The script's walk: one probability per slice for its rate, RTT and gap; else each drawn apart.
  const walk = opts.order === 'script' ? scriptWalk(SLICES, new Rng(seed, STREAM_ORDER)) : undefined;
  const u = (k: number, own: Rng): number => (walk ? walk[k]! : own.next());
  const gapAt = (k: number): number => Math.max(1, Math.round((quantileDraw(p.gapS, u(k, gap)) * 1000) / SLICE_MS));
  let nextLoss = gapAt(0);
  const slices = Array.from({ length: SLICES }, (_, k) => {
    let l = 0;
    if (k === nextLoss) {
      l = Math.min(MAX_SLICE_LOSS, (lossScale * quantileDraw(p.lossPct, loss.next())) / 100);
      nextLoss += gapAt(k);
    }
    return {
      rateBps: quantileDraw(p.rateKbps, u(k, rate)) * 1000,
      delayMs: (quantileDraw(p.rttMs, u(k, rtt)) - baseRttMs(p)) / 2,
      loss: l,
    };
  });
  return linkSchedule({ sliceMs: SLICE_MS, burstBytes: opts.refill === false ? 0 : TBF_BUFFER_BYTES, queuePackets: TBF_LIMIT_PACKETS, reorder: opts.reorder !== false, watchdogWake: opts.watchdogWake !== false, netemPair: opts.netemPair === true, queueBytes: TBF_LIMIT_BYTES, slices });
}
