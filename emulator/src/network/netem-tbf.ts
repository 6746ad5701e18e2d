/**
 * One interface of Goel's bridge as Linux 3.13 ran it: netem at the root (the slice's delay; its loss is drawn
 * by the caller as a packet enters), a tbf as netem's child (the slice's rate, a bucket refilled by every
 * `tc qdisc change`, a FIFO of `limit` bytes). Rules read in 3.13's sch_netem.c, sch_tbf.c and sch_api.c
 * (not copied):
 * - A packet entering netem gets time_to_send = now + the slice's delay and joins the delay line, kept sorted by
 *   that time (equal times in arrival order): a packet entering after the delay dropped overtakes.
 * - netem_dequeue is the only way out, and it runs when a packet is enqueued, when netem's watchdog fires and
 *   when tbf's watchdog fires (that watchdog schedules the root qdisc); it returns at once while netem is
 *   throttled, i.e. while netem's own watchdog is pending. Unthrottled it hands every packet whose time has
 *   come to tbf (tbf_enqueue drops it when the FIFO is full), then asks tbf for a packet; if none and the delay
 *   line still holds one, it arms its watchdog at that packet's time (throttled) and returns nothing. After a
 *   packet left, the device asks again at once.
 * - tbf_dequeue: the head leaves if the bucket holds its bytes; otherwise tbf arms its watchdog at now + the
 *   missing tokens' time at the current rate (re-arming replaces). A `tc change` (every slice start here)
 *   fills the bucket and wakes nothing.
 * - tbf_enqueue drops a packet longer than max_size, which tbf_change computes from the bucket's time capped at
 *   2^32 - 1 ns: 64 KiB takes longer than that below 122 kbit/s, and below 2.8 kbit/s max_size is under a full frame.
 * So a packet short of tokens leaves at the first of: its watchdog, unless netem is throttled then; the next
 * hand-over of a later packet; the next packet entering while netem is not throttled; whichever comes first
 * with enough tokens, a refill counting as soon as anything asks. Bytes for tokens: within a slice the rate is
 * constant, and every change sets the bucket full, so tbf's time-valued tokens are bytes at the slice's rate.
 * Timers go through `arm`; `fire(t)` must be called at every armed time (stale ones are ignored).
 */
import { compactedHead, insertSorted } from './head-queue.ts';
import { SCHEDULE_MIN_BUCKET, type LinkSchedule } from './link-schedule.ts';

const sendAtOf = (p: BridgePacket): number => p.sendAt;

/** One nanosecond, ms: the kernel's clock step. */
const NS = 1e-6;

/** The longest packet tbf passes (3.13's tbf_change): the bytes `bytesPerS` carries in min(bucket time, 2^32 - 1 ns). */
export function maxSize(bytesPerS: number, bucketBytes: number): number {
  const bucketNs = Math.min((bucketBytes / bytesPerS) * 1e9, 2 ** 32 - 1);
  return Math.floor((bucketNs * Math.floor(bytesPerS)) / 1e9);
}

export interface BridgePacket {
  readonly bytes: number;
  /** netem's time_to_send (set as it enters). */
  sendAt: number;
}

export interface NetemTbfHooks<P extends BridgePacket> {
  /** A timer: fire(t) is due at t. */
  arm(t: number): void;
  departed(p: P, t: number): void;
  /** tbf's FIFO was full when netem handed the packet on. */
  dropped(p: P, t: number): void;
}

export class NetemTbf<P extends BridgePacket> {
  /** netem's delay line, sorted by sendAt: [dlHead, length). */
  private line: P[] = [];
  private lineHead = 0;
  /** tbf's FIFO: [fifoHead, length), and its backlog in bytes. */
  private fifo: P[] = [];
  private fifoHead = 0;
  private backlog = 0;
  private readonly cap: number;
  private readonly limitBytes: number;
  /** The bucket after the last departure, that departure's time and slice (a later slice: full again). */
  private tokens = 0;
  private tokensAt = 0;
  private tokensSlice = -1;
  /** netem's watchdog (throttled while armed) and tbf's, NaN when not armed. */
  private netemAt = NaN;
  private tbfAt = NaN;
  drops = 0;
  /** Of the drops, those longer than tbf's max_size. */
  maxSizeDrops = 0;

  constructor(private readonly s: LinkSchedule, limitBytes: number, private readonly hooks: NetemTbfHooks<P>) {
    this.cap = Math.max(s.burstBytes, SCHEDULE_MIN_BUCKET);
    this.limitBytes = limitBytes;
  }

  /** A packet enters netem at t (not lost). */
  enter(p: P, t: number): void {
    const s = this.s;
    p.sendAt = t + s.delayMs[Math.floor(t / s.sliceMs) % s.delayMs.length]!;
    insertSorted(this.line, this.lineHead, p, sendAtOf);
    this.run(t);
  }

  /** A timer armed for t fired. */
  fire(t: number): void {
    let wake = false;
    if (this.netemAt === t) {
      this.netemAt = NaN;
      wake = true;
    }
    if (this.tbfAt === t) {
      this.tbfAt = NaN;
      wake = true;
    }
    if (wake) this.run(t);
  }

  /** netem_dequeue, called until it returns nothing. */
  private run(now: number): void {
    if (!Number.isNaN(this.netemAt)) return; // throttled: netem's watchdog is pending
    const line = this.line;
    for (;;) {
      while (this.lineHead < line.length && line[this.lineHead]!.sendAt <= now) this.handOver(line[this.lineHead++]!, now);
      this.lineHead = compactedHead(line, this.lineHead);
      const p = this.dequeue(now);
      if (p) {
        this.hooks.departed(p, now);
        continue;
      }
      if (this.lineHead < line.length) {
        this.netemAt = line[this.lineHead]!.sendAt;
        this.hooks.arm(this.netemAt);
      }
      return;
    }
  }

  /**
   * tbf_enqueue: dropped when longer than max_size (the bytes the rate carries in the bucket's time, that time
   * capped at 2^32 - 1 ns: under a full-size frame below 2.8 kbit/s), or when its bytes would pass the FIFO's
   * limit; else into the FIFO.
   */
  private handOver(p: P, now: number): void {
    const s = this.s;
    const bytesPerS = s.rateBps[Math.floor(now / s.sliceMs) % s.rateBps.length]! / 8;
    if (p.bytes > maxSize(bytesPerS, this.cap)) {
      this.drops++;
      this.maxSizeDrops++;
      this.hooks.dropped(p, now);
      return;
    }
    if (this.backlog + p.bytes > this.limitBytes) {
      this.drops++;
      this.hooks.dropped(p, now);
      return;
    }
    this.backlog += p.bytes;
    this.fifo.push(p);
  }

  /** tbf_dequeue. */
  private dequeue(now: number): P | undefined {
    const fifo = this.fifo;
    if (this.fifoHead === fifo.length) return undefined;
    const p = fifo[this.fifoHead]!;
    const s = this.s;
    const k = Math.floor(now / s.sliceMs);
    const perMs = s.rateBps[k % s.rateBps.length]! / 8000;
    const toks = k === this.tokensSlice ? Math.min(this.cap, this.tokens + perMs * (now - this.tokensAt)) : this.cap;
    // The watchdog's time; one under a nanosecond away is now (the kernel counts whole nanoseconds).
    const at = now + (p.bytes - toks) / perMs;
    if (toks >= p.bytes || at - now < NS) {
      this.tokens = Math.max(0, toks - p.bytes);
      this.tokensAt = now;
      this.tokensSlice = k;
      this.backlog -= p.bytes;
      this.fifoHead = compactedHead(fifo, this.fifoHead + 1);
      return p;
    }
    if (at !== this.tbfAt) {
      this.tbfAt = at;
      this.hooks.arm(at);
    }
    return undefined;
  }
}
