/**
 * The one shared bottleneck link (§3.7.7.1): server-to-client traffic of every connection crosses it.
 * A FIFO with a fixed service rate, so a packet's departure time is known the moment it arrives:
 * departure = max(arrival, previous departure) + serialisation. The link therefore needs no events of its
 * own: arrivals are offered in time order (every server sits the same distance from the switch; per-origin
 * extra delay is placed on the client-to-server direction, see tcp.ts), and the queue length at an arrival
 * is the number of accepted packets still to depart.
 * Queue: drop-tail, or RED with Table 3.4's settings (max_q = queueBdp x BDP, min_th = 0.66 max_q,
 * max_th = 0.8 max_q, max_p = 10%, w_a = 1 so the instantaneous queue is used, gentle, no wait).
 *
 * Issue 17 makes the link a reusable part (a second path instantiates its own): the service is a constant
 * rate, a Mahimahi trace (link-trace.ts) or a per-slice schedule (link-schedule.ts: a token bucket, and an
 * extra delay after the queue that keeps packets in order unless the schedule re-orders), a loss model drops packets at random after the queue admitted
 * them (netem's loss sits on the link; a lost packet took no service), and latency spikes (spikes.ts) hold
 * departures. A link used without these options behaves exactly as before.
 */
import { MIN_QUEUE_PACKETS } from '../config.ts';
import type { Rng } from '../rng.ts';
import { ScheduleDelay, ScheduleServer, scheduleCapacityBps, type LinkSchedule } from './link-schedule.ts';
import { TraceServer, type LinkTrace } from './link-trace.ts';
import type { LossModel } from './loss-model.ts';
import type { LatencySpikes } from './spikes.ts';

export interface LinkOptions {
  /** Serve by a delivery-opportunity trace instead of the constant rate (the queue is sized by its mean rate). */
  trace?: LinkTrace;
  /** Serve by a per-slice schedule (rate as a token bucket, extra delay; its loss comes as `loss`): link-schedule.ts. */
  schedule?: LinkSchedule;
  loss?: LossModel;
  spikes?: LatencySpikes;
  /** The smallest queue, packets (default MIN_QUEUE_PACKETS). */
  minQueuePackets?: number;
}

/** One direction of a path as the transport sees it: offer a packet, learn when it leaves, or -1 if dropped. */
export interface PacketLink {
  offer(t: number, wireBytes: number): number;
  /**
   * A packet outside the queue's timeline (a handshake or TLS flight, timed apart from the data) meets the
   * loss model: true when it is lost.
   */
  drawLoss(t?: number): boolean;
  /** Extra one-way delay for a packet entering at t beyond the path's base (a link schedule's); 0 without one. */
  extraDelay(t: number): number;
  /** Whether the link loses packets at random at all. */
  readonly lossy: boolean;
  /** Whether packets can leave it out of order (a link schedule with `reorder`). */
  readonly reorders?: boolean;
  readonly drops: number;
  readonly losses: number;
  readonly packets: number;
}

/** Bytes on the wire per packet beyond its payload: 1500-byte MTU for a 1448-byte MSS (Table 3.3). */
export const HEADER_BYTES = 52;
export const MSS = 1448;

export class BottleneckLink implements PacketLink {
  /** A departure is known when the packet is offered (bridge-link.ts's is not). */
  readonly deferred = false;
  /** Bytes per ms. */
  readonly rate: number;
  readonly maxQueue: number;
  private readonly minTh: number;
  private readonly maxTh: number;
  private readonly maxP = 0.1;
  /**
   * Departure times of the accepted packets still in the system, a ring buffer: [head, head + count) modulo
   * its length (a power of two). At most maxQueue packets are ever in it, so it grows a few times at most
   * instead of keeping every packet's departure.
   */
  private departures = new Float64Array(64);
  private head = 0;
  private count = 0;
  private lastDeparture = 0;
  /** Packets the queue dropped (drop-tail or RED). */
  drops = 0;
  /** Packets the loss model dropped. */
  losses = 0;
  packets = 0;
  private readonly traceServer: TraceServer | undefined;
  private readonly scheduleServer: ScheduleServer | undefined;
  private readonly scheduleDelay: ScheduleDelay | undefined;
  private readonly loss: LossModel | undefined;
  private readonly spikes: LatencySpikes | undefined;
  readonly lossy: boolean;
  readonly reorders: boolean;

  constructor(
    bandwidthBps: number,
    rttMs: number,
    queueBdp: number,
    private readonly red: boolean,
    private readonly rng: Rng,
    opts: LinkOptions = {},
  ) {
    if (opts.trace) {
      bandwidthBps = opts.trace.meanBps;
      this.traceServer = new TraceServer(opts.trace);
    }
    if (opts.schedule) {
      bandwidthBps = scheduleCapacityBps(opts.schedule);
      this.scheduleServer = new ScheduleServer(opts.schedule);
      this.scheduleDelay = new ScheduleDelay(opts.schedule);
    }
    this.loss = opts.loss;
    this.lossy = opts.loss !== undefined;
    this.reorders = opts.schedule?.reorder === true;
    this.spikes = opts.spikes;
    this.rate = bandwidthBps / 8 / 1000;
    const bdpPackets = (bandwidthBps / 8) * (rttMs / 1000) / (MSS + HEADER_BYTES);
    this.maxQueue = opts.schedule?.queuePackets ?? Math.max(opts.minQueuePackets ?? MIN_QUEUE_PACKETS, Math.round(queueBdp * bdpPackets));
    this.minTh = 0.66 * this.maxQueue;
    this.maxTh = 0.8 * this.maxQueue;
  }

  /** Packets in the system (waiting or being sent) at time t. */
  private occupancy(t: number): number {
    const d = this.departures;
    const mask = d.length - 1;
    while (this.count > 0 && d[this.head]! <= t) {
      this.head = (this.head + 1) & mask;
      this.count--;
    }
    return this.count;
  }

  /** Appends a departure time to the ring, doubling it when full. */
  private pushDeparture(dep: number): void {
    let d = this.departures;
    if (this.count === d.length) {
      const grown = new Float64Array(d.length * 2);
      for (let i = 0; i < this.count; i++) grown[i] = d[(this.head + i) & (d.length - 1)]!;
      this.departures = d = grown;
      this.head = 0;
    }
    d[(this.head + this.count++) & (d.length - 1)] = dep;
  }

  drawLoss(t?: number): boolean {
    if (!this.loss?.lost(t)) return false;
    this.losses++;
    return true;
  }

  extraDelay(t: number): number {
    return this.scheduleDelay?.at(t) ?? 0;
  }

  /** Offers a packet arriving at time t; returns its departure time, or -1 when the queue drops it (or the loss model). */
  offer(t: number, wireBytes: number): number {
    this.packets++;
    const q = this.occupancy(t);
    if (q >= this.maxQueue) {
      this.drops++;
      return -1;
    }
    if (this.red && q >= this.minTh) {
      const p = q < this.maxTh
        ? (this.maxP * (q - this.minTh)) / (this.maxTh - this.minTh)
        : this.maxP + ((1 - this.maxP) * (q - this.maxTh)) / (this.maxQueue - this.maxTh);
      if (this.rng.next() < p) {
        this.drops++;
        return -1;
      }
    }
    if (this.loss?.lost(t)) {
      this.losses++;
      return -1;
    }
    const dep = this.traceServer
      ? this.traceServer.serve(t, wireBytes)
      : this.scheduleServer
        ? this.scheduleServer.serve(t, wireBytes)
        : Math.max(t, this.lastDeparture) + wireBytes / this.rate;
    this.lastDeparture = dep;
    this.pushDeparture(dep);
    const out = this.scheduleDelay ? this.scheduleDelay.hold(t, dep) : dep;
    return this.spikes ? this.spikes.hold(out) : out;
  }
}

/**
 * A direction with no bottleneck (the uplink unless it has a trace): packets leave as they come, unless the
 * loss model drops them.
 */
export class LossyWire implements PacketLink {
  drops = 0;
  losses = 0;
  packets = 0;
  readonly lossy = true;
  constructor(private readonly loss: LossModel) {}
  drawLoss(t?: number): boolean {
    if (!this.loss.lost(t)) return false;
    this.losses++;
    return true;
  }
  extraDelay(): number {
    return 0;
  }
  offer(t: number): number {
    this.packets++;
    if (this.loss.lost(t)) {
      this.losses++;
      return -1;
    }
    return t;
  }
}
