/**
 * Packet-level TCP between the client and one server (§3.7.7), one object per connection holding both
 * ends: the server's sender (congestion control, loss recovery, RTO, congestion window validation) and the
 * client's receiver (in-order delivery to the application, or per-segment delivery for QUIC-lite).
 *
 * Path model: data leaves the server, reaches the shared bottleneck after dS, leaves it after queueing and
 * serialisation, reaches the client after dC. Requests and ACKs travel client->server in `up` ms, which
 * carries any per-origin extra RTT, so that every server is equidistant from the bottleneck and arrivals
 * there happen in send order (see bottleneck.ts). Base RTT = dS + dC + up.
 *
 * Deliberate simplifications (thesis Table 3.3 parameters otherwise): every segment is ACKed at once (the
 * thesis' PUSH-flag change makes the end of each object ACK immediately; we extend that to all segments),
 * the slow-start increase is one segment per ACKed segment, and ACKs and requests are never lost (§3.7.7.5
 * observed none). Loss detection follows the thesis' NACK scheme (Appendix B): with no reordering, the
 * client knows a segment is lost as soon as a later one arrives, so the sender learns of the loss with that
 * later segment's ACK and retransmits every known hole in one round (SACK-like). A lost tail has no later
 * segment and waits for the RTO (min 200 ms, exponential backoff); a timer that expires while data is
 * merely delayed in the queue is re-armed rather than retransmitting (the thesis' stale-RTO re-arm).
 */
import type { EventQueue } from '../event-queue.ts';
import { EV_ACK_ARRIVES, EV_RTO, EV_SEGMENT_ARRIVES } from '../events.ts';
import type { Exchange } from '../http/send-buffer.ts';
import { HEADER_BYTES, MSS, type BottleneckLink } from './bottleneck.ts';

export const MIN_RTO_MS = 200;
export const INITIAL_RTO_MS = 1000;
const CUBIC_C = 0.4;
const CUBIC_BETA = 0.7;

export interface Segment {
  conn: TcpConnection;
  seq: number;
  x: Exchange;
  len: number;
  /** Transmission order (a retransmission gets a new one). */
  order: number;
  sendT: number;
  lost: boolean;
  arrived: boolean;
  acked: boolean;
  retx: number;
}

/** Segments are recycled across simulations for the same reason as events (see event-queue.ts). */
const segmentPool: Segment[] = [];
const SEGMENT_POOL_MAX = 1 << 17;

export interface NetContext {
  q: EventQueue;
  /** FIFO lane for segment arrivals at the client (the bottleneck keeps them in order). */
  arrivalLane: number;
  /** FIFO lane for the ACKs of connections with a given client->server delay. */
  ackLane(up: number): number;
  link: BottleneckLink;
  dS: number;
  dC: number;
  icwnd: number;
  cubic: boolean;
  stats: { retransmissions: number; bytesDelivered: number };
  /** The client application receives `bytes` of exchange x (in segment s). */
  deliver(x: Exchange, bytes: number, now: number, s: Segment): void;
  /** Congestion-avoidance increase per ACK, in segments, when coupled with other subflows (MPTCP LIA); default 1/cwnd. */
  coupledIncrease?: (c: TcpConnection) => number;
}

/** Where a connection's segments come from: the server's send buffer, or an MPTCP subflow's share of one. */
export interface SegmentSource {
  peek(): Exchange | null;
  take(x: Exchange, max: number): number;
  hasData(): boolean;
}

export class TcpConnection {
  private segs: Segment[] = [];
  private rcvNext = 0;
  cwnd: number;
  ssthresh = Infinity;
  /** Segments in flight (sent, neither ACKed nor known lost). */
  pipe = 0;
  inRecovery = false;
  private recoverOrder = 0;
  private retxQueue: Segment[] = [];
  private retxHead = 0;
  private undetected: Segment[] = [];
  private udHead = 0;
  srtt = NaN;
  private rttvar = 0;
  private rto = INITIAL_RTO_MS;
  private backoff = 1;
  private rtoDeadline = Infinity;
  private rtoScheduledAt = Infinity;
  private rtoGen = 0;
  private lastActive = -1;
  private cwndLimited = false;
  private orderSeq = 0;
  private wMax = 0;
  private epochStart = -1;
  private cubicK = 0;

  constructor(
    private readonly ctx: NetContext,
    /** Client->server one-way delay, ms (requests and ACKs). */
    readonly up: number,
    private readonly perSegmentDelivery: boolean,
    readonly buffer: SegmentSource,
  ) {
    this.cwnd = ctx.icwnd;
    this.ackLane = ctx.ackLane(up);
  }

  private readonly ackLane: number;

  /** The simulation is over: hand this connection's segments back for reuse. */
  recycle(): void {
    for (const s of this.segs) {
      if (segmentPool.length >= SEGMENT_POOL_MAX) break;
      (s as { x: unknown }).x = null;
      segmentPool.push(s);
    }
    this.segs = [];
  }

  /** New data in the send buffer at the server. */
  kick(now: number): void {
    this.trySend(now);
  }

  private trySend(now: number): void {
    const retxPending = this.retxHead < this.retxQueue.length;
    if (this.pipe === 0 && !retxPending && this.lastActive >= 0 && now - this.lastActive > this.rto) {
      // Congestion window validation after idle (RFC 2861): halve per idle RTO, not below the restart window.
      const k = Math.floor((now - this.lastActive) / this.rto);
      const restart = Math.min(this.ctx.icwnd, this.cwnd);
      this.ssthresh = Math.max(this.ssthresh === Infinity ? 0 : this.ssthresh, 0.75 * this.cwnd);
      this.cwnd = Math.max(this.cwnd / 2 ** Math.min(k, 30), restart);
    }
    let sent = false;
    while (this.pipe + 1 <= this.cwnd) {
      if (this.retxHead < this.retxQueue.length) {
        const s = this.retxQueue[this.retxHead++]!;
        s.retx++;
        this.ctx.stats.retransmissions++;
        this.transmit(s, now);
        sent = true;
        continue;
      }
      const x = this.buffer.peek();
      if (x === null) {
        this.cwndLimited = false;
        break;
      }
      if (Number.isNaN(x.tFirstByte)) x.tFirstByte = now;
      const len = this.buffer.take(x, MSS);
      let s = segmentPool.pop();
      if (s) {
        s.conn = this;
        s.seq = this.segs.length;
        s.x = x;
        s.len = len;
        s.order = 0;
        s.sendT = 0;
        s.lost = false;
        s.arrived = false;
        s.acked = false;
        s.retx = 0;
      } else s = { conn: this, seq: this.segs.length, x, len, order: 0, sendT: 0, lost: false, arrived: false, acked: false, retx: 0 };
      this.segs.push(s);
      this.transmit(s, now);
      sent = true;
    }
    if (this.pipe + 1 > this.cwnd && (this.buffer.hasData() || this.retxHead < this.retxQueue.length)) this.cwndLimited = true;
    if (sent) {
      this.lastActive = now;
      if (this.rtoDeadline === Infinity) this.armRto(now + this.rto * this.backoff);
    }
  }

  private transmit(s: Segment, now: number): void {
    s.order = ++this.orderSeq;
    s.sendT = now;
    s.lost = false;
    this.pipe++;
    const dep = this.ctx.link.offer(now + this.ctx.dS, s.len + HEADER_BYTES);
    if (dep < 0) {
      s.lost = true;
      this.undetected.push(s);
    } else {
      this.ctx.q.scheduleLane(this.ctx.arrivalLane, dep + this.ctx.dC, EV_SEGMENT_ARRIVES, s);
    }
  }

  /** Client side: a segment arrived; ACK it and hand data to the application. */
  onSegmentArrives(s: Segment, now: number): void {
    if (s.arrived) return;
    s.arrived = true;
    this.ctx.q.scheduleLane(this.ackLane, now + this.up, EV_ACK_ARRIVES, s);
    if (this.perSegmentDelivery) {
      this.ctx.stats.bytesDelivered += s.len;
      this.ctx.deliver(s.x, s.len, now, s);
      return;
    }
    if (s.seq !== this.rcvNext) return; // a hole before it: TCP holds it back (head-of-line blocking)
    const segs = this.segs;
    while (this.rcvNext < segs.length && segs[this.rcvNext]!.arrived) {
      const d = segs[this.rcvNext++]!;
      this.ctx.stats.bytesDelivered += d.len;
      this.ctx.deliver(d.x, d.len, now, d);
    }
  }

  /** Server side: the ACK for segment s arrived. */
  onAck(s: Segment, now: number): void {
    if (s.acked) return;
    s.acked = true;
    this.pipe--;
    if (s.retx === 0) {
      const r = now - s.sendT;
      if (Number.isNaN(this.srtt)) {
        this.srtt = r;
        this.rttvar = r / 2;
      } else {
        this.rttvar = 0.75 * this.rttvar + 0.25 * Math.abs(this.srtt - r);
        this.srtt = 0.875 * this.srtt + 0.125 * r;
      }
      this.rto = Math.max(MIN_RTO_MS, this.srtt + 4 * this.rttvar);
      this.backoff = 1;
    }
    let newLoss = false;
    const ud = this.undetected;
    while (this.udHead < ud.length && ud[this.udHead]!.order < s.order) {
      const lost = ud[this.udHead++]!;
      this.pipe--;
      this.retxQueue.push(lost);
      newLoss = true;
    }
    if (newLoss && !this.inRecovery) this.enterRecovery(now);
    else if (this.inRecovery && s.order >= this.recoverOrder) this.inRecovery = false;
    if (!this.inRecovery && !newLoss) this.grow(now);
    this.lastActive = now;
    this.rtoDeadline = Infinity;
    this.trySend(now);
    if (this.pipe > 0 && this.rtoDeadline === Infinity) this.armRto(now + this.rto * this.backoff);
  }

  private enterRecovery(now: number): void {
    this.inRecovery = true;
    this.recoverOrder = this.orderSeq;
    if (this.ctx.cubic) {
      this.wMax = this.cwnd;
      this.cwnd = Math.max(this.cwnd * CUBIC_BETA, 2);
      this.epochStart = -1;
    } else {
      this.cwnd = Math.max(this.cwnd / 2, 2);
    }
    this.ssthresh = this.cwnd;
    void now;
  }

  private grow(now: number): void {
    // Application-limited flows do not grow the window (RFC 2861 / Linux's is_cwnd_limited).
    if (!this.cwndLimited && 2 * (this.pipe + 1) < this.cwnd) return;
    if (this.cwnd < this.ssthresh) {
      this.cwnd += 1;
      return;
    }
    if (!this.ctx.cubic) {
      this.cwnd += this.ctx.coupledIncrease ? this.ctx.coupledIncrease(this) : 1 / this.cwnd;
      return;
    }
    if (this.epochStart < 0) {
      this.epochStart = now;
      if (this.cwnd < this.wMax) this.cubicK = Math.cbrt((this.wMax - this.cwnd) / CUBIC_C);
      else {
        this.cubicK = 0;
        this.wMax = this.cwnd;
      }
    }
    const t = (now - this.epochStart + (Number.isNaN(this.srtt) ? 0 : this.srtt)) / 1000;
    const target = this.wMax + CUBIC_C * (t - this.cubicK) ** 3;
    this.cwnd += target > this.cwnd ? (target - this.cwnd) / this.cwnd : 0.01 / this.cwnd;
  }

  private armRto(deadline: number): void {
    this.rtoDeadline = deadline;
    if (deadline < this.rtoScheduledAt) {
      this.rtoScheduledAt = deadline;
      this.ctx.q.schedule(deadline, EV_RTO, this, ++this.rtoGen);
    }
  }

  onRto(gen: number, now: number): void {
    if (gen !== this.rtoGen) return;
    this.rtoScheduledAt = Infinity;
    if (this.rtoDeadline === Infinity) return;
    if (now < this.rtoDeadline) {
      this.armRto(this.rtoDeadline);
      return;
    }
    if (this.udHead >= this.undetected.length) {
      // Nothing was lost: the data is only delayed in the queue. Re-arm (stale-estimate rule, §3.7.7.2).
      this.armRto(now + this.rto * this.backoff);
      return;
    }
    const ud = this.undetected;
    while (this.udHead < ud.length) {
      this.pipe--;
      this.retxQueue.push(ud[this.udHead++]!);
    }
    if (this.ctx.cubic) {
      this.wMax = this.cwnd;
      this.epochStart = -1;
    }
    this.ssthresh = Math.max(this.cwnd / 2, 2);
    this.cwnd = 1;
    this.inRecovery = false;
    this.backoff = Math.min(this.backoff * 2, 64);
    this.rtoDeadline = Infinity;
    this.trySend(now);
    if (this.rtoDeadline === Infinity && this.pipe > 0) this.armRto(now + this.rto * this.backoff);
  }
}
