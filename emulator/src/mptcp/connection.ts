/**
 * An MPTCP connection (thesis §6.2.2): the "meta socket" between the HTTP connection's send buffer and one
 * TCP subflow per path. Each subflow is an unmodified TcpConnection (its own congestion window, RTT
 * estimate, NACK loss recovery and RTO, window validation after idle) on its path's bottleneck; it pulls
 * segments from the meta socket, which numbers them in one connection-level data sequence space (DSN) and
 * lets the scheduler choose which subflow carries what (scheduler.ts). Retransmissions stay on their
 * subflow (baseline MPTCP, no connection-level retransmission).
 *
 * Subflows hand every arriving segment up (as MPTCP subflows do); the client side reorders them by DSN in
 * the connection-level receive buffer and delivers in order (h2 over MPTCP), or at once (quic-lite over
 * two paths: out-of-order delivery, §6.4.3). The sender keeps at most `rcvBuf` bytes past the client's
 * delivered point (flow control read from the receiver's state directly: the Data ACK's half-RTT lag is
 * not modelled).
 *
 * Subflow set-up (§6.3.4, Figure 6.14): the first subflow is the connection's handshake on the first path;
 * the second joins with its own handshake on the second path once the first's data was ACKed, each packet
 * lost and resent on its path's links (join.ts).
 *
 * Window validation (§6.2.2): a subflow counts as window-limited (and so may grow its window) only while
 * data waits in the meta socket and no other subflow has room for it; idle restart stays per subflow.
 */
import type { EventQueue } from '../event-queue.ts';
import { EV_MPTCP } from '../events.ts';
import type { Exchange, SendBuffer } from '../http/send-buffer.ts';
import { TcpConnection, type NetContext, type Segment, type SegmentSource } from '../network/tcp.ts';
import { liaIncrease } from './coupled-cc.ts';
import { joinDuration, joinStart } from './join.ts';
import { InterLossDistance, oliaIncrease, type OliaSubflow } from './olia.ts';
import type { ResolvedMultipath } from './options.ts';
import { minRttChoice, streamChoice, type SubflowView } from './scheduler.ts';

/** EV_MPTCP payloads. */
export const MPTCP_KICK = 0;
export const MPTCP_JOIN = 1;

/** One path's part of a connection: where its segments go and how far the server is. */
export interface SubflowPath {
  /** The path's subflow context (MptcpConnection.subflowContext), shared by every connection on the path. */
  ctx: NetContext;
  /** Client->server one-way delay on this path, ms. */
  up: number;
  /** Round-trip time without queueing, ms (the RTT estimate before the first sample). */
  rtt: number;
}

/** DSN logs handed back by finished connections (recycle): reused, filled by index, as TCP's own logs. */
const dsnPool: number[][] = [];

class Subflow implements SegmentSource {
  readonly tcp: TcpConnection;
  /** DSN of the first byte of each segment, by the subflow's sequence number: dsn[0..nDsn). */
  dsn: number[] = dsnPool.pop() ?? [];
  nDsn = 0;
  bytesSent = 0;
  /** OLIA's l_r, over bytesSent. */
  readonly interLoss = new InterLossDistance();
  readonly view: SubflowView;

  constructor(
    readonly meta: MptcpConnection,
    readonly index: number,
    ctx: NetContext,
    up: number,
    readonly handshakeRtt: number,
    joined: boolean,
  ) {
    this.tcp = new TcpConnection(ctx, up, true, this, handshakeRtt);
    // Numbers start as NaN (refresh() sets them before any read): a field first given a small integer is
    // stored as one, and every later fractional value would then be boxed anew (a heap number per store).
    this.view = { rtt: NaN, cwnd: NaN, ssthresh: NaN, inRecovery: false, available: false, up: joined };
  }

  peek(): Exchange | null {
    return this.meta.pick(this.index);
  }

  take(x: Exchange, max: number): number {
    return this.meta.take(this.index, x, max);
  }

  hasData(): boolean {
    return this.meta.windowLimited(this.index);
  }
}

export interface MptcpStats {
  retransmissions: number;
  /** Bytes that reached the client on each subflow (the meta socket's own count is the simulator's). */
  bytesDelivered: number;
  /** Data bytes sent on the second path (first transmissions). */
  bytesPath2: number;
  /** Most bytes held in one connection's receive buffer waiting for an earlier DSN. */
  maxReorderBytes: number;
}

/** The subflow (and so the MPTCP connection) a subflow's TcpConnection pulls its segments from. */
function subflowOf(c: TcpConnection): Subflow {
  return c.buffer as Subflow;
}

// The subflow contexts' hooks (MptcpConnection.subflowContext).

/** Segment s of a subflow reached the client: to the meta socket's receive buffer. */
function deliverToMeta(_x: Exchange, _bytes: number, now: number, s: Segment): void {
  const f = subflowOf(s.conn);
  f.meta.arrived(f.index, s, now);
}

/** LIA or OLIA's per-ACK increase of a subflow's window. */
function coupledIncreaseOf(c: TcpConnection): number {
  const f = subflowOf(c);
  return f.meta.coupledIncrease(f.index);
}

/** OLIA: a loss on a subflow starts its next inter-loss distance. */
function oliaLossEvent(c: TcpConnection): void {
  const f = subflowOf(c);
  f.interLoss.lossEvent(f.bytesSent);
}

/** A subflow sent the end of an object with PSH: its siblings send a PSH/ACK. */
function pshToSiblings(c: TcpConnection, now: number): void {
  const f = subflowOf(c);
  f.meta.signalPsh(f.index, now);
}

export class MptcpConnection {
  /**
   * A path's context for the subflows of every MPTCP connection on it (`paths[i].ctx` of the constructor):
   * the path's own, with the MPTCP stats and the hooks, which reach each subflow's connection through its
   * TcpConnection. Built once per path and simulation: a context (an object spread) and four closures per
   * connection were a tenth of a two-path simulation, and a context per subflow made every TcpConnection
   * field read of it polymorphic. The hooks capture nothing, so they are functions of this module: under
   * tsx (esbuild's keepNames) a named closure costs a defineProperty each time it is created.
   */
  static subflowContext(path: NetContext, stats: MptcpStats, opts: ResolvedMultipath): NetContext {
    return {
      ...path,
      stats,
      deliver: deliverToMeta,
      coupledIncrease: opts.mptcpCc === 'uncoupled' ? undefined : coupledIncreaseOf,
      lossEvent: opts.mptcpCc === 'olia' ? oliaLossEvent : undefined,
      pshSignal: path.psh ? pshToSiblings : undefined,
    };
  }

  private readonly flows: Subflow[];
  private readonly windows: OliaSubflow[];
  private readonly views: SubflowView[];
  private dsnNext = 0;
  /** Client side: the next DSN to deliver in order (out-of-order delivery: bytes delivered). */
  private rcvNext = 0;
  private readonly pending = new Map<number, Segment>();
  private buffered = 0;
  private rcvBlocked = false;
  private kickPending = false;
  /** Client->server delay of requests: they go on the first subflow. */
  readonly up: number;
  /** When the connection opened (its first SYN left), unless handshakeTime is told. */
  private readonly openedAt: number;

  constructor(
    private readonly q: EventQueue,
    private readonly opts: ResolvedMultipath,
    private readonly buffer: SendBuffer,
    /** quic-lite: deliver each segment at once. */
    private readonly outOfOrder: boolean,
    /** The application (the simulator's deliver) and its byte count. */
    private readonly app: NetContext,
    private readonly stats: MptcpStats,
    paths: readonly [SubflowPath, SubflowPath],
    now: number,
  ) {
    this.up = paths[0].up;
    this.flows = paths.map((p, i) => new Subflow(this, i, p.ctx, p.up, p.rtt, i === 0));
    this.windows = this.flows.map(() => ({ cwnd: NaN, rtt: NaN, interLoss: NaN })); // set before each use (coupledIncrease); NaN: see Subflow.view
    this.views = this.flows.map((f) => f.view);
    this.openedAt = now;
  }

  /** Transport: new data in the send buffer. Subflows are offered it lowest RTT first. */
  kick(now: number): void {
    this.refresh();
    const [a, b] = this.flows as [Subflow, Subflow];
    const first = a.view.rtt <= b.view.rtt ? a : b;
    const second = first === a ? b : a;
    if (first.view.up) first.tcp.kick(now);
    if (second.view.up) second.tcp.kick(now);
  }

  recycle(): void {
    for (const f of this.flows) {
      f.tcp.recycle();
      if (dsnPool.length < 256) dsnPool.push(f.dsn);
      f.dsn = [];
      f.nDsn = 0;
    }
  }

  /** Subflow i sent the end of an object with PSH: every other subflow that is up sends a PSH/ACK (§6.4.5). Called by this module's hooks. */
  signalPsh(i: number, now: number): void {
    for (const f of this.flows) if (f.index !== i && f.view.up) f.tcp.signalPsh(now);
  }

  /**
   * Transport: the connection's handshake (and TLS) is the first subflow's, on the first path (asked once, as
   * the connection opens); the second subflow's join follows it (join.ts).
   */
  handshakeTime(tlsRtts: number, start = this.openedAt): number {
    const [first, second] = this.flows as [Subflow, Subflow];
    const h = first.tcp.handshakeTime(tlsRtts, start);
    const joinAt = start + joinStart(h, tlsRtts, first.handshakeRtt);
    this.q.schedule(joinAt + joinDuration(second.tcp, joinAt), EV_MPTCP, this, MPTCP_JOIN);
    return h;
  }

  /** Transport: requests go on the first subflow. */
  requestTrip(now: number, wireBytes: number): number {
    return this.flows[0]!.tcp.requestTrip(now, wireBytes);
  }

  onEvent(kind: number, now: number): void {
    if (kind === MPTCP_JOIN) this.flows[1]!.view.up = true;
    else this.kickPending = false;
    this.kick(now);
  }

  private refresh(): void {
    for (const f of this.flows) {
      const t = f.tcp;
      const v = f.view;
      v.rtt = Number.isNaN(t.srtt) ? f.handshakeRtt : t.srtt;
      v.cwnd = t.cwnd;
      v.ssthresh = t.ssthresh;
      v.inRecovery = t.inRecovery;
      v.available = v.up && t.hasRoom();
    }
  }

  /** The scheduler's answer to subflow i asking for its next segment's exchange (null: send nothing now). */
  pick(i: number): Exchange | null {
    const head = this.buffer.peek();
    if (head === null) return null;
    if (this.dsnNext - this.rcvNext >= this.opts.mptcpRcvBuf) {
      this.rcvBlocked = true;
      return null;
    }
    this.refresh();
    const views = this.views;
    let chosen: number;
    let x: Exchange | undefined = head;
    if (this.opts.mptcpScheduler === 'minrtt') chosen = minRttChoice(views);
    else {
      let c = streamChoice(1, () => head.bytes - head.sent, views, false);
      if (c === null && this.opts.mptcpLookahead) {
        const order = this.buffer.inSendOrder();
        c = streamChoice(order.length, (k) => order[k]!.bytes - order[k]!.sent, views, true);
        if (c !== null) x = order[c[0]];
      }
      chosen = c === null ? -1 : c[1];
    }
    if (chosen === i) return x!;
    if (chosen >= 0) this.scheduleKick();
    return null;
  }

  take(i: number, x: Exchange, max: number): number {
    const len = this.buffer.take(x, max);
    const f = this.flows[i]!;
    if (f.nDsn < f.dsn.length) f.dsn[f.nDsn++] = this.dsnNext;
    else {
      f.dsn.push(this.dsnNext);
      f.nDsn++;
    }
    this.dsnNext += len;
    f.bytesSent += len;
    if (i === 1) this.stats.bytesPath2 += len;
    return len;
  }

  /** Subflow i may grow its window: data waits and no other subflow has room for it. */
  windowLimited(i: number): boolean {
    if (!this.buffer.hasData()) return false;
    for (const f of this.flows) if (f.index !== i && f.view.up && f.tcp.hasRoom()) return false;
    return true;
  }

  /** The coupled (LIA or OLIA) increase of subflow i per ACK; NewReno's 1/w until the second subflow is up. Called by this module's hooks. */
  coupledIncrease(i: number): number {
    const cwnd = this.flows[i]!.tcp.cwnd;
    if (!this.flows[1]!.view.up) return 1 / cwnd;
    for (const f of this.flows) {
      const w = this.windows[f.index]!;
      w.cwnd = f.tcp.cwnd;
      w.rtt = Number.isNaN(f.tcp.srtt) ? f.handshakeRtt : f.tcp.srtt;
      w.interLoss = f.interLoss.distance(f.bytesSent);
    }
    if (this.opts.mptcpCc === 'lia') return liaIncrease(this.windows, i);
    return Math.max(oliaIncrease(this.windows, i), 1 - cwnd); // OLIA may shrink a window, not below one segment
  }

  private scheduleKick(): void {
    if (this.kickPending) return;
    this.kickPending = true;
    this.q.schedule(this.q.now, EV_MPTCP, this, MPTCP_KICK);
  }

  /** Client side: segment s of subflow i arrived (this module's deliverToMeta). */
  arrived(i: number, s: Segment, now: number): void {
    if (this.outOfOrder) {
      this.rcvNext += s.len;
      this.toApp(s, now);
    } else {
      const dsn = this.flows[i]!.dsn[s.seq]!;
      if (dsn !== this.rcvNext) {
        this.pending.set(dsn, s);
        this.buffered += s.len;
        if (this.buffered > this.stats.maxReorderBytes) this.stats.maxReorderBytes = this.buffered;
        return;
      }
      this.rcvNext += s.len;
      this.toApp(s, now);
      for (let p = this.pending.get(this.rcvNext); p; p = this.pending.get(this.rcvNext)) {
        this.pending.delete(this.rcvNext);
        this.buffered -= p.len;
        this.rcvNext += p.len;
        this.toApp(p, now);
      }
    }
    if (this.rcvBlocked) {
      this.rcvBlocked = false;
      this.scheduleKick();
    }
  }

  private toApp(s: Segment, now: number): void {
    this.app.stats.bytesDelivered += s.len;
    this.app.deliver(s.x, s.len, now, s);
  }
}
