/**
 * A link whose rate, delay and loss change every time slice, as Goel 2017's bridge did (§VI-C: "modify loss,
 * time to subsequent loss, RTT, and bandwidth every 70 ms"). Slice k (from time 0, repeating after the last)
 * has a token-bucket rate, an extra one-way delay and a loss probability:
 * - **rate** (`ScheduleServer`): a token bucket of `burstBytes` refilled to full at every slice start, then
 *   filling at the slice's rate; a packet leaves (FIFO) as soon as the bucket holds its bytes. Goel's bridge
 *   re-issued `tc qdisc change ... tbf rate R buffer 64k` each slice, and Linux's tbf_change sets the bucket
 *   full on every change, so up to 64 KiB crossed at line rate at each slice's start beside R; a pure rate
 *   is `burstBytes` 0 (the bucket then holds one packet). The bridge's line rate is taken as infinite.
 *   With `watchdogWake` a packet short of tokens leaves only when the tbf's watchdog fires, armed at the rate
 *   of the slice it was found short in (Linux 3.13's tbf_dequeue): tbf_change refills the bucket but wakes
 *   nothing, so a packet waiting across slice starts misses their refills until then (a real bridge is also woken
 *   by any packet netem hands on; see emulator/README.md, Goel's experiment, sessions 17b and 18). With
 *   `netemPair` the downlink is that pair event by event instead (netem-tbf.ts, bridge-link.ts; path.ts).
 * - **delay** (`ScheduleDelay`): the slice in which a packet enters adds its extra delay after the queue
 *   (netem's `delay`), packets kept in order; with `reorder`, each packet keeps its own delay, as netem's
 *   time-sorted queue (tfifo) does, so when the delay drops from one slice to the next, packets entering after
 *   the drop overtake those before it (Goel's bridge: up to 116 ms one way).
 * - **loss** (`ScheduleLoss`): a packet entering in slice k is lost with the slice's probability (netem's
 *   `loss`), drawn from the model's own seeded stream.
 * Build one with `linkSchedule()`; the emulator applies it to both directions (`EmulatorConfig.linkSchedule`).
 */
import { ConfigError } from '../config.ts';
import type { Rng } from '../rng.ts';
import type { LossModel } from './loss-model.ts';

/** The smallest bucket: one full packet on the wire (a tbf buffer below the MTU passes nothing). */
export const SCHEDULE_MIN_BUCKET = 1500;

export interface LinkSchedule {
  /** Slice length, ms. */
  readonly sliceMs: number;
  /** Token bucket refilled at every slice start, bytes (0: a pure rate). */
  readonly burstBytes: number;
  /** Per slice: rate, bits per second (>= 0). */
  readonly rateBps: Float64Array;
  /** Per slice: extra one-way delay, ms (>= 0). */
  readonly delayMs: Float64Array;
  /** Per slice: loss probability in [0, 1). */
  readonly loss: Float64Array;
  /** Queue limit, packets (Goel's tbf: `limit 128k`); default: sized from the mean rate as other links. */
  readonly queuePackets?: number;
  /** Time-average rate, bits per second (of the rate alone, without the per-slice burst). */
  readonly meanBps: number;
  /** Each packet held for its own slice's delay (netem re-orders when the delay drops); false: order kept. */
  readonly reorder: boolean;
  /** A packet short of tokens leaves when the watchdog armed at its slice's rate fires, not at the next refill. */
  readonly watchdogWake: boolean;
  /**
   * The downlink is Linux 3.13's netem root with its tbf child, event-driven (bridge-link.ts, netem-tbf.ts): the
   * delay before the bucket, and a packet short of tokens woken by its watchdog or by netem's later calls.
   */
  readonly netemPair: boolean;
  /** tbf's FIFO limit in bytes for `netemPair` (Goel's `limit 128k`); default queuePackets full-size frames. */
  readonly queueBytes?: number;
}

export interface SliceSpec {
  rateBps: number;
  delayMs?: number;
  loss?: number;
}

/** A schedule from its slices (repeating after the last); one-line ConfigError on bad values. */
export function linkSchedule(o: { sliceMs: number; burstBytes?: number; queuePackets?: number; queueBytes?: number; reorder?: boolean; watchdogWake?: boolean; netemPair?: boolean; slices: readonly SliceSpec[] }): LinkSchedule {
  if (!(o.sliceMs > 0)) throw new ConfigError(`link schedule: slice length must be positive, got ${o.sliceMs}`);
  if (o.slices.length === 0) throw new ConfigError('link schedule: no slices');
  const burst = o.burstBytes ?? 0;
  if (!(burst >= 0) || !Number.isFinite(burst)) throw new ConfigError(`link schedule: burst must be a non-negative number of bytes, got ${o.burstBytes}`);
  if (o.queuePackets !== undefined && !(Number.isInteger(o.queuePackets) && o.queuePackets >= 1)) throw new ConfigError(`link schedule: queue must be a positive number of packets, got ${o.queuePackets}`);
  const n = o.slices.length;
  const rateBps = new Float64Array(n);
  const delayMs = new Float64Array(n);
  const loss = new Float64Array(n);
  o.slices.forEach((s, k) => {
    if (!(s.rateBps >= 0) || !Number.isFinite(s.rateBps)) throw new ConfigError(`link schedule: slice ${k}: rate must be a non-negative number, got ${s.rateBps}`);
    const d = s.delayMs ?? 0;
    if (!(d >= 0) || !Number.isFinite(d)) throw new ConfigError(`link schedule: slice ${k}: delay must be a non-negative number of ms, got ${s.delayMs}`);
    const p = s.loss ?? 0;
    if (!(p >= 0 && p < 1)) throw new ConfigError(`link schedule: slice ${k}: loss must be in [0, 1), got ${s.loss}`);
    rateBps[k] = s.rateBps;
    delayMs[k] = d;
    loss[k] = p;
  });
  const meanBps = rateBps.reduce((a, b) => a + b, 0) / n;
  if (!(meanBps > 0) && !(burst > 0)) throw new ConfigError('link schedule: every slice has rate 0 and there is no burst: nothing can cross');
  // tc rejects a tbf rate of 0 (tbf_change: max_size 0), and the pair's watchdog needs a rate.
  if (o.netemPair === true && rateBps.some((r) => !(r > 0))) throw new ConfigError('link schedule: netemPair needs every slice\'s rate above 0 (tc rejects a tbf rate of 0)');
  if (o.queueBytes !== undefined && !(Number.isInteger(o.queueBytes) && o.queueBytes >= SCHEDULE_MIN_BUCKET)) throw new ConfigError(`link schedule: queue bytes must be an integer of at least ${SCHEDULE_MIN_BUCKET}, got ${o.queueBytes}`);
  return { sliceMs: o.sliceMs, burstBytes: burst, rateBps, delayMs, loss, queuePackets: o.queuePackets, queueBytes: o.queueBytes, meanBps, reorder: o.reorder === true, watchdogWake: o.watchdogWake === true, netemPair: o.netemPair === true };
}

/** The slice a time falls in (counted over repetitions), and that slice's index in the schedule. */
function sliceAt(s: LinkSchedule, t: number): number {
  return Math.floor(t / s.sliceMs);
}
function entry(s: LinkSchedule, k: number): number {
  return k % s.rateBps.length;
}

/** The bytes per second a schedule delivers on average, the per-slice burst included (to size queues). */
export function scheduleCapacityBps(s: LinkSchedule): number {
  return s.meanBps + (s.burstBytes * 8 * 1000) / s.sliceMs;
}

/**
 * The earliest time the schedule can have carried `bytes` from time 0 (a lower bound for any load over it):
 * slice k adds its full bucket at its start, then its rate until its end.
 */
export function scheduleMinTime(s: LinkSchedule, bytes: number): number {
  const cap = Math.max(s.burstBytes, SCHEDULE_MIN_BUCKET);
  let carried = 0;
  for (let k = 0; ; k++) {
    const start = k * s.sliceMs;
    carried += cap;
    if (carried >= bytes) return start;
    const perMs = s.rateBps[entry(s, k)]! / 8000;
    if (carried + perMs * s.sliceMs >= bytes) return start + (bytes - carried) / perMs;
    carried += perMs * s.sliceMs;
  }
}

/** FIFO service under the schedule's token bucket: for packets offered in time order, when each leaves. */
export class ScheduleServer {
  private readonly cap: number;
  /** When the last packet left (the server is busy until then), its slice, and the tokens left then. */
  private free = -Infinity;
  private slice = -1;
  private tokens = 0;

  constructor(private readonly s: LinkSchedule) {
    this.cap = Math.max(s.burstBytes, SCHEDULE_MIN_BUCKET);
  }

  serve(t: number, bytes: number): number {
    const s = this.s;
    let now = Math.max(t, this.free);
    let k = sliceAt(s, now);
    // Tokens at `now`: full after a slice start (a change refills the bucket), else what was left plus the fill.
    let tokens = k === this.slice ? Math.min(this.cap, this.tokens + ((s.rateBps[entry(s, k)]! / 8000) * (now - this.free))) : this.cap;
    for (;;) {
      if (tokens >= bytes) {
        tokens -= bytes;
        break;
      }
      const perMs = s.rateBps[entry(s, k)]! / 8000;
      const end = (k + 1) * s.sliceMs;
      const wait = perMs > 0 ? (bytes - tokens) / perMs : Infinity;
      if (now + wait <= end) {
        now += wait;
        tokens = 0;
        break;
      }
      // Not enough before the slice ends: the next slice starts with a full bucket; with `watchdogWake` the
      // packet waits for the watchdog armed at this slice's rate, and leaves on the bucket refilled since.
      now = s.watchdogWake && Number.isFinite(wait) ? now + wait : end;
      k = s.watchdogWake && Number.isFinite(wait) ? sliceAt(s, now) : k + 1;
      tokens = this.cap;
    }
    this.free = now;
    this.slice = k;
    this.tokens = tokens;
    return now;
  }
}

/**
 * The schedule's extra delay after the queue, by the slice a packet entered in: order kept (a FIFO line), or
 * with the schedule's `reorder` each packet on its own (netem's tfifo sorts by the time to send).
 */
export class ScheduleDelay {
  private last = -Infinity;
  constructor(private readonly s: LinkSchedule) {}

  /** The extra one-way delay for a packet entering at t. */
  at(t: number): number {
    return this.s.delayMs[entry(this.s, sliceAt(this.s, Math.max(0, t)))]!;
  }

  /** A packet that entered at `entered` and left the queue at `departed` (non-decreasing across calls) arrives then. */
  hold(entered: number, departed: number): number {
    const own = departed + this.at(entered);
    if (this.s.reorder) return own;
    const out = Math.max(this.last, own);
    this.last = out;
    return out;
  }
}

/** Loss by the slice a packet enters in (netem's `loss` changed every slice). */
export class ScheduleLoss implements LossModel {
  constructor(private readonly s: LinkSchedule, private readonly rng: Rng) {}
  lost(t = 0): boolean {
    const p = this.s.loss[entry(this.s, sliceAt(this.s, Math.max(0, t)))]!;
    return p > 0 && this.rng.next() < p;
  }
}
