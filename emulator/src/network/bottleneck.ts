/**
 * The one shared bottleneck link (§3.7.7.1): server-to-client traffic of every connection crosses it.
 * A FIFO with a fixed service rate, so a packet's departure time is known the moment it arrives:
 * departure = max(arrival, previous departure) + serialisation. The link therefore needs no events of its
 * own: arrivals are offered in time order (every server sits the same distance from the switch; per-origin
 * extra delay is placed on the client-to-server direction, see tcp.ts), and the queue length at an arrival
 * is the number of accepted packets still to depart.
 * Queue: drop-tail, or RED with Table 3.4's settings (max_q = queueBdp x BDP, min_th = 0.66 max_q,
 * max_th = 0.8 max_q, max_p = 10%, w_a = 1 so the instantaneous queue is used, gentle, no wait).
 */
import type { Rng } from '../rng.ts';

/** Bytes on the wire per packet beyond its payload: 1500-byte MTU for a 1448-byte MSS (Table 3.3). */
export const HEADER_BYTES = 52;
export const MSS = 1448;
/** A queue shorter than this many packets cannot absorb even the SYN-ACK burst of a page; floor it. */
export const MIN_QUEUE_PACKETS = 4;

export class BottleneckLink {
  /** Bytes per ms. */
  readonly rate: number;
  readonly maxQueue: number;
  private readonly minTh: number;
  private readonly maxTh: number;
  private readonly maxP = 0.1;
  private departures: number[] = [];
  private head = 0;
  private lastDeparture = 0;
  drops = 0;
  packets = 0;

  constructor(
    bandwidthBps: number,
    rttMs: number,
    queueBdp: number,
    private readonly red: boolean,
    private readonly rng: Rng,
  ) {
    this.rate = bandwidthBps / 8 / 1000;
    const bdpPackets = (bandwidthBps / 8) * (rttMs / 1000) / (MSS + HEADER_BYTES);
    this.maxQueue = Math.max(MIN_QUEUE_PACKETS, Math.round(queueBdp * bdpPackets));
    this.minTh = 0.66 * this.maxQueue;
    this.maxTh = 0.8 * this.maxQueue;
  }

  /** Packets in the system (waiting or being sent) at time t. */
  private occupancy(t: number): number {
    const d = this.departures;
    let h = this.head;
    while (h < d.length && d[h]! <= t) h++;
    if (h > 4096 && h * 2 > d.length) {
      this.departures = d.slice(h);
      h = 0;
    }
    this.head = h;
    return this.departures.length - h;
  }

  /** Offers a packet arriving at time t; returns its departure time, or -1 when the queue drops it. */
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
    const dep = Math.max(t, this.lastDeparture) + wireBytes / this.rate;
    this.lastDeparture = dep;
    this.departures.push(dep);
    return dep;
  }
}
