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
 * The RTT estimator (either loss detection) starts from the handshake's sample (Linux's tcp_synack_rtt_meas;
 * a first-flight loss waits max(200 ms, 3 RTT), not the initial 1 s), and takes a sample from every ACK
 * that acknowledges new data, retransmissions included (timestamps, RFC 7323; the thesis enabled them,
 * Table 3.3's text), which ends an RTO backoff; only a segment sent twice at once (a probe or a resend
 * after lost ACKs) gives none. The RTO is RFC 6298's, max(200 ms, SRTT + 4 RTTVAR) (ns-3, the thesis), or with
 * `linuxRto` Linux's (__tcp_set_rto: SRTT + max(4 RTTVAR, tcp_rto_min)), at least 200 ms above SRTT; Linux has
 * one RTO (icsk_rto) for the retransmission timer, the client's and the idle check of window validation
 * (tcp_slow_start_after_idle_check), and so does the model: `rtoOf` sets all of them.
 *
 * Loss detection by ACK clocking (`sack`, config lossDetection 'sack'), as Linux with SACK: the ACKs tell
 * the sender which segments arrived (the client's arrivals, SACK-like), and a lost segment is known once
 * DUP_THRESH (3) segments above it were acknowledged (RFC 6675's IsLost; RFC 5681's third duplicate ACK),
 * counted by sequence number for TCP — a lost retransmission, with everything above it acknowledged
 * already, then waits for the timeout — and by packet number for QUIC-lite (RFC 9002's packet threshold,
 * which a retransmission meets again). Recovery ends when the cumulative ACK passes what was sent when it
 * began (RFC 6675's RecoveryPoint). The RTO (RFC 6298: SRTT + 4 RTTVAR, min 200 ms, doubling) restarts
 * only on an ACK that moves the cumulative point or when the oldest unacknowledged segment is resent
 * (Linux), so a loss with fewer than
 * three segments after it, or a lost retransmission, costs an RTO. At the timeout the segments really lost
 * are resent (Linux marks every unacknowledged one lost, but after an RTO the others have normally arrived);
 * a timeout while nothing was lost (data held in a queue or a spike) is re-armed, as F-RTO (RFC 5682, on in
 * Linux) would undo it. The tail-loss probe's ACK reveals the losses sent before it (RACK after a probe).
 * Switches beside `sack`, each off by default (Linux 3.13's, Goel's hosts; emulator/README.md): early retransmit
 * (`earlyRetransmit`, early-retransmit.ts), FACK (`fack`: a segment is lost once one DUP_THRESH above it is
 * SACKed, and in recovery a retransmission once a segment first sent after it is SACKed), QUIC-lite's probe
 * timeout (`quicPto`, quic-pto.ts); and F-RTO (`frto`, either scheme): the window cut of a timeout that only
 * lost ACKs caused is undone by the next ACK. CUBIC's increase, its TCP-friendly region included, is cubic.ts.
 *
 * Lossy links (issue 17): when the context has an uplink (a loss model or a trace on client->server), ACKs
 * cross it and can be lost. ACKs are cumulative: each one covers every segment that reached the client
 * before it was sent, so a lost ACK is repaired by the next. When the last ACKs of a flight are lost and
 * nothing else is on its way, the RTO fires and the sender retransmits the oldest unacknowledged segment
 * (as Linux would); the client ACKs a duplicate at once. Delayed ACKs (`delayedAcks`, Linux's
 * __tcp_ack_snd_check): the client ACKs at once while in quick-ACK mode (the first 16 segments of a
 * connection, and again after it was idle for an RTO), for out-of-order data, for duplicates and when more
 * than one full segment is unacknowledged; otherwise the delayed-ACK timer sends the ACK after ATO_MIN
 * (40 ms). `THESIS_DELAYED_ACKS` is the thesis' ns-3 instead (Table 3.3): an ACK every 2nd segment, else
 * after 100 ms, no quick-ACK mode (out-of-order data and duplicates still ACKed at once).
 *
 * PSH (`psh`, thesis §6.4.5): the last segment of each response carries PSH and the client ACKs it at once,
 * outside the delayed-ACK rules. On an MPTCP connection the subflow that sends it also has every other
 * subflow send a PSH/ACK control packet (`pshSignal`): it follows that subflow's data through its path
 * and makes the client ACK at once on that subflow too, so the end of an object is ACKed without delay on
 * both. Without delayed ACKs every segment is ACKed at once anyway and PSH changes nothing.
 *
 * Tail-loss probe (`tlp`, RFC 8985 as Linux's tcp_schedule_loss_probe / tcp_send_loss_probe): in the open
 * state (not in recovery, no RTO backoff) the timer armed after sending or on an ACK is the probe timeout
 * PTO = 2 SRTT + 2 ms, or + 200 ms (the worst-case delayed ACK) when one segment is in flight — without
 * that term when `psh` is on (the thesis' change: PSH makes the last ACK immediate) — capped by the RTO.
 * When it fires the sender sends one new segment if it has one (ignoring the window), else the highest
 * sent segment again; then the RTO is armed. One probe per tail: no other until an ACK covers the probe.
 * The probe's ACK reveals any hole before it (our NACK scheme, as RACK would with SACK); a probe that
 * itself repaired the only loss halves the window when it is ACKed (RFC 8985 §7.4's TLP loss detection).
 * With `sack` the probe is Linux 3.13's (Goel's hosts; `linuxProbeTimeout`): PTO = max(2 SRTT, 10 ms), with
 * one segment outstanding at least 1.5 SRTT + 200 ms; when that comes after the RTO the probe is sent at the
 * RTO's time in its place. It is armed only in the open state with nothing SACKed above the cumulative point
 * and when the sender cannot send (window full or no data), re-decided on every ACK; while data waits it is
 * one new segment (none when the receive window is full, and no retransmission); the probe's ACK declares no
 * hole by itself (3.13 has no RACK: DUP_THRESH, FACK, early retransmit or the RTO find them).
 *
 * Re-ordering links (a link schedule with `reorder`; reordering.ts): a segment only late is deemed lost once
 * the reordering degree of segments above it were acknowledged, resent and the window cut; with `sack` the
 * degree rises with the reordering seen (turning FACK and early retransmit off) and a cut is undone when the
 * original filled the hole (timestamps) or when every retransmission of the episode was D-SACKed (Linux 3.13's
 * undo_retrans reaching 0: the retransmission got there first and the late original came in as a duplicate,
 * whose immediate ACK carries the D-SACK; lost with that ACK). As 3.13: in recovery the undo waits for an ACK
 * that moves the cumulative point (tcp_try_undo_partial / tcp_try_undo_recovery), after it the ACK carrying the
 * last D-SACK undoes (tcp_try_undo_dsack); the episode's undo state lasts until the next recovery or timeout.
 * Without `reorder` none of this runs.
 */
import type { EventQueue } from '../event-queue.ts';
import { EV_ACK_ARRIVES, EV_DELACK, EV_RTO, EV_SEGMENT_ARRIVES } from '../events.ts';
import type { Exchange } from '../http/send-buffer.ts';
import { removeAt } from '../remove-at.ts';
import { HEADER_BYTES, MSS, type BottleneckLink, type PacketLink } from './bottleneck.ts';
import { insertSorted } from './head-queue.ts';
import { CUBIC_BETA, cubicIncrease, cubicReduced, newCubicState, type CubicState } from './cubic.ts';
import type { BridgeLink, LinkSink } from './bridge-link.ts';
import { earlyRetransmitDelay, earlyRetransmitDue } from './early-retransmit.ts';
import { MINIMUM_WINDOW, persistentCongestion, probeTimeout } from './quic-pto.ts';
import { lateSegmentLost, raisedReordering, reorderingMetric } from './reordering.ts';
import type { RetransmissionSlices } from './retransmission-slices.ts';
import { limitedRecoveryDue } from './limited-recovery.ts';
import { newReceiveWindow, onInOrderSegment } from './receive-window.ts';
import { delayedAckState, FrtoUndo, GrowingWindow, HeldRetransmit, ProbeState, ReorderingState, type DelayedAckPolicy, type DelayedAckState } from './tcp-state.ts';

export const MIN_RTO_MS = 200;
export const INITIAL_RTO_MS = 1000;
/** Linux's TCP_ATO_MIN: the delayed-ACK timer. */
export const DELACK_MS = 40;
/** Linux's TCP_MAX_QUICKACKS: segments ACKed at once at a connection's start (and after idle). */
export const QUICKACKS = 16;

export type { DelayedAckPolicy } from './tcp-state.ts';
/** Linux: ATO_MIN 40 ms, more than one full segment unacknowledged, 16 quick ACKs, TCP_DELACK_MAX in the PTO. */
export const LINUX_DELAYED_ACKS: DelayedAckPolicy = { timeoutMs: DELACK_MS, everyNth: 2, countBytes: true, quickAcks: QUICKACKS, probeAllowanceMs: MIN_RTO_MS };
/**
 * The thesis' ns-3 (Table 3.3): timeout 100 ms, count 2, no quick-ACK mode; its PTO adds the delayed-ACK
 * timeout when one segment is in flight (Algorithm 9, line 5).
 */
export const THESIS_DELAYED_ACKS: DelayedAckPolicy = { timeoutMs: 100, everyNth: 2, countBytes: false, quickAcks: 0, probeAllowanceMs: 100 };
/** The policy a context's `delayedAcks` names (`true`: Linux's). */
export function delayedAckPolicy(d: boolean | DelayedAckPolicy | undefined): DelayedAckPolicy | undefined {
  return d === true ? LINUX_DELAYED_ACKS : d || undefined;
}
/** A pure ACK on the wire: 52 bytes of headers (timestamps on), as the data segments' overhead. */
export const ACK_WIRE_BYTES = HEADER_BYTES;
/** Linux's TCP_TIMEOUT_MIN (2 jiffies): added to a probe timeout with more than one segment in flight. */
export const TLP_MIN_MS = 2;
/** Linux 3.13's floor on the probe timeout (msecs_to_jiffies(10)). */
export const TLP_FLOOR_MS = 10;
/** Linux's TCP_DELACK_MAX: the longest a receiver delays an ACK, as a probe timeout allows for it. */
export const DELACK_MAX_MS = 200;

/**
 * Linux 3.13's probe timeout (tcp_schedule_loss_probe): 2 SRTT, at least 10 ms; with one segment outstanding
 * at least 1.5 SRTT + TCP_DELACK_MAX (200 ms) for the delayed ACK — not with `psh` (the last segment is ACKed
 * at once).
 */
export function linuxProbeTimeout(srtt: number, packetsOut: number, psh: boolean): number {
  const pto = Math.max(2 * srtt, TLP_FLOOR_MS);
  return packetsOut === 1 && !psh ? Math.max(pto, 1.5 * srtt + DELACK_MAX_MS) : pto;
}
/** onDelayedAck's generation for a sibling subflow's PSH/ACK signal (MPTCP, §6.4.5). */
const PSH_SIGNAL = -1;
/**
 * RFC 6675's DupThresh (RFC 5681's three duplicate ACKs; RFC 9002's kPacketThreshold for QUIC): with `sack`
 * loss detection a segment is deemed lost once this many segments above it were acknowledged.
 */
export const DUP_THRESH = 3;
/** Segment.sackedAbove of a late segment deemed lost and not yet sent again. */
const LATE_LOST = -1;
/** Backoff cap, as Linux's TCP_RTO_MAX (120 s) / 1 s allows 2^7. */
const MAX_BACKOFF = 64;

/**
 * The RTO from SRTT and RTTVAR. RFC 6298 (ns-3, the thesis): max(200 ms, SRTT + 4 RTTVAR). Linux (`linux`,
 * __tcp_set_rto): SRTT + rttvar_us, and tcp_rtt_estimator never lets rttvar_us (4 RTTVAR) fall below
 * tcp_rto_min: SRTT + max(4 RTTVAR, 200 ms), so the RTO is always at least 200 ms above SRTT. (Linux tracks
 * the deviation's maximum per round trip and lets it decay; the same RFC 6298 estimator is kept here.)
 */
export function rtoOf(srtt: number, rttvar: number, linux = false): number {
  return linux ? srtt + Math.max(4 * rttvar, MIN_RTO_MS) : Math.max(MIN_RTO_MS, srtt + 4 * rttvar);
}

/** The RTO after the first RTT sample r (RFC 6298 (2.2): SRTT = r, RTTVAR = r/2). */
export function firstRto(r: number, linux = false): number {
  return rtoOf(r, r / 2, linux);
}

/**
 * A connection's log of segments by sequence number (segs[n] is its segment n), pooled with the segment objects
 * in its slots (segmentLogPool), the connection using it now, and the exchanges that connection sent from, in
 * the order it first sent from each: xs[0..nXs), a segment naming its own by index. A segment reaches its
 * connection and its exchange through its log, so sending one writes no pointer to this simulation's objects
 * into it: a pooled segment lives in the old generation, and each such pointer (to its connection and its
 * exchange, both young) took the write barrier's slow path, a remembered-set entry, twice per segment. The log
 * takes one per connection and one per exchange.
 */
class SegmentLog {
  conn: TcpConnection | null = null;
  readonly segs: Segment[] = [];
  readonly xs: Array<Exchange | null> = [];
}

export class Segment {
  seq = 0;
  /** Its exchange's index in its log's xs. */
  xi = 0;
  /** Offset of its first byte in its response (the stream offset; the invariants check each byte arrives once). */
  off = 0;
  len = 0;
  /** Transmission order (a retransmission gets a new one). */
  order = 0;
  /** When it was (last) sent; NaN once a copy went out beside a copy still on its way (no unambiguous RTT sample). */
  sendT = 0;
  lost = false;
  arrived = false;
  acked = false;
  retx = 0;
  /** Its place in the client's arrival order (cumulative ACKs cover a prefix of it). */
  arrivalIndex = -1;
  /** The last segment of its response (the PSH flag). */
  psh = false;
  /** The client's in-order point (next sequence number expected) once this segment had arrived: what its ACK tells. */
  rcvUpTo = 0;
  /**
   * `sack` loss detection: segments above it acknowledged since it was (last) sent lost, while undetected; on a
   * re-ordering link, for a segment on its way, those acknowledged above it, and LATE_LOST once it was deemed
   * lost while only late and not yet sent again (out of pipe already).
   */
  sackedAbove = 0;

  constructor(private readonly log: SegmentLog) {}

  /** The connection that sent it. */
  get conn(): TcpConnection {
    return this.log.conn!;
  }

  /** The exchange whose bytes it carries. */
  get x(): Exchange {
    return this.log.xs[this.xi]!;
  }
}

/**
 * Segments are recycled across simulations for the same reason as events (see event-queue.ts), in place: a
 * connection's log of segments by sequence number (SegmentLog) owns the segment objects in its slots, and the
 * next connection that gets the log reuses slot n's object for its segment n. The client's arrival logs only
 * point at segments. Both kinds of log are filled by index up to a count, so a log keeps the capacity it
 * grew to instead of growing afresh in every simulation.
 */
const segmentLogPool: SegmentLog[] = [];
const arrivalLogPool: Segment[][] = [];
const LOG_POOL_MAX = 1024;

/** Sets log[n] = s (appending when the log is that short). */
function put(log: Segment[], n: number, s: Segment): void {
  if (n < log.length) log[n] = s;
  else log.push(s);
}

export interface NetContext {
  q: EventQueue;
  /** FIFO lane for segment arrivals at the client (the bottleneck keeps them in order). */
  arrivalLane: number;
  /** FIFO lane for the ACKs of connections with a given client->server delay. */
  ackLane(up: number): number;
  link: BottleneckLink | BridgeLink;
  dS: number;
  dC: number;
  icwnd: number;
  cubic: boolean;
  stats: { retransmissions: number; bytesDelivered: number };
  /** Goel's per-slice counts of sent and retransmitted segments (connections the pool opened in it). */
  slices?: RetransmissionSlices;
  /** Client->server link for ACKs (a loss model or a trace); none: ACKs take exactly `up` and are never lost. */
  uplink?: PacketLink;
  /** Delayed ACKs at the client (`true`: Linux's, or the parameters); default off (every segment ACKed at once). */
  delayedAcks?: boolean | DelayedAckPolicy;
  /** The PSH flag on each response's last segment: the client ACKs it at once (thesis §6.4.5). */
  psh?: boolean;
  /** Tail-loss probes (RFC 8985 as Linux). */
  tlp?: boolean;
  /** Loss detection by ACK clocking (RFC 6675 / RFC 6298, see the file comment); default the thesis' NACK scheme. */
  sack?: boolean;
  /** With `sack`: early retransmit (RFC 5827, delayed by SRTT / 4 as Linux; early-retransmit.ts). */
  earlyRetransmit?: boolean;
  /**
   * With `sack`, TCP: Linux's forward acknowledgment (tcp_fack, on until 4.15): a segment is lost once one
   * DUP_THRESH above it is SACKed, and in recovery a retransmission once a segment first sent after it is
   * SACKed (tcp_mark_lost_retrans).
   */
  fack?: boolean;
  /** With `sack`, QUIC-lite: RFC 9002's probe timeout instead of the RTO (quic-pto.ts). */
  quicPto?: boolean;
  /** F-RTO (RFC 5682): the window cut of a timeout that only lost ACKs caused is undone when the next ACK shows it. */
  frto?: boolean;
  /**
   * Window validation after idle keeps an unset (infinite) ssthresh, as RFC 2861 and Linux's tcp_cwnd_restart
   * (max(ssthresh, 3/4 cwnd)): a connection that never cut its window slow-starts again without bound. Off:
   * the thesis' Algorithm 11, ssthresh = 3/4 cwnd.
   */
  linuxIdleRestart?: boolean;
  /** Linux's RTO (rtoOf): SRTT + max(4 RTTVAR, 200 ms), at both ends, for timeouts and the idle check alike. Off: RFC 6298's. */
  linuxRto?: boolean;
  /** The client's receive window in segments: no new segment past the acknowledged in-order point + this. Default unlimited. */
  rwndSegments?: number;
  /**
   * The receive window grows from rwndSegments after set-up as Linux 3.13's receiver grows it (receive-window.ts:
   * tcp_grow_window and tcp_rcv_space_adjust); the server learns it from each ACK. Default off: fixed.
   */
  rwndGrowth?: boolean;
  /** MPTCP: connection c sent a PSH segment at `now`; the other subflows send their PSH/ACK signal. */
  pshSignal?: (c: TcpConnection, now: number) => void;
  /** The client application receives `bytes` of exchange x (in segment s). */
  deliver(x: Exchange, bytes: number, now: number, s: Segment): void;
  /** Congestion-avoidance increase per ACK, in segments, when coupled with other subflows (MPTCP LIA); default 1/cwnd. */
  coupledIncrease?: (c: TcpConnection) => number;
  /** The window was cut for a loss (recovery, a probe's loss, a timeout): MPTCP OLIA's inter-loss marks. */
  lossEvent?: (c: TcpConnection) => void;
}

/** Where a connection's segments come from: the server's send buffer, or an MPTCP subflow's share of one. */
export interface SegmentSource {
  peek(): Exchange | null;
  take(x: Exchange, max: number): number;
  hasData(): boolean;
}

/** A copy's tag on an event-driven link (bridge-link.ts): its transmission order, and what it was. */
const TAG_ORIGINAL = 1;
const TAG_COPY = 2;
const TAG_KINDS = 4;
/** A segment's place in transmission order (the undetected-loss list is kept in it). */
const orderOf = (s: Segment): number => s.order;

export class TcpConnection implements LinkSink {
  private log: SegmentLog = segmentLogPool.pop() ?? new SegmentLog();
  /** Every segment sent, by sequence number: segs[0..nSegs); the slots past nSegs hold reusable segments (the log's). */
  private segs: Segment[] = this.log.segs;
  private nSegs = 0;
  /** The exchanges sent from (the log's xs[0..nXs)). */
  private xs: Array<Exchange | null> = this.log.xs;
  private nXs = 0;
  private rcvNext = 0;
  // Read on every ACK or segment: declared first, so these fields share the object's first cache lines.
  /** The client's in-order point as the last ACK told the server (its receive window's left edge), segments. */
  private una = 0;
  /** The receive window the client's latest ACK offered, segments (fixed unless `rwndGrowth`). */
  private rwnd: number;
  /** An event-driven downlink (bridge-link.ts): by sequence number, the copies sent and neither arrived nor dropped yet (null: another link). */
  private readonly copiesOut: number[] | null;
  /**
   * Initialised here, a number from the start: a field declared bare is defined as `undefined` first (class
   * fields), V8 then keeps it tagged, and every fractional window stored into it allocated a heap number.
   */
  cwnd = 0;
  ssthresh = Infinity;
  /** Segments in flight (sent, neither ACKed nor known lost). */
  pipe = 0;
  inRecovery = false;
  private recoverOrder = 0;
  /** `sack`: the highest sequence number sent when recovery began (RFC 6675's RecoveryPoint), exclusive. */
  private recoverSeq = 0;
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
  /** When data was last sent (Linux's lsndtime): an idle spell runs from here. */
  private lastActive = -1;
  /** The lastActive whose idle spell already restarted the window. */
  private restartedAfter = -1;
  private cwndLimited = false;
  private orderSeq = 0;
  private forceRetx = false;
  // Client side: segments in arrival order (ACKs cover a prefix).
  private arrivedLog: Segment[] = arrivalLogPool.pop() ?? [];
  private nArrived = 0;
  /** Highest sequence number arrived (data beyond rcvNext means a hole). */
  private maxArrived = -1;
  // Server side: arrivals the received ACKs covered; segments and ACKs still on the wire.
  private ackRcvdUpTo = 0;
  private onWire = 0;
  private acksInFlight = 0;
  private readonly ackLane: number;
  /** When this subflow's last data segment so far reaches the client (a PSH/ACK signal follows it). */
  private lastDataArrival = 0;
  /** When the client's last ACK sent (sendAck) reaches the server. */
  private ackArrival = 0;
  // Tail-loss probe (or QUIC-lite's probe timeout): the timer is a probe timeout; the probe's transmission order (0: none outstanding).
  private probeArmed = false;
  private tlpOrder = 0;
  /** `quicPto`: probe timeouts expired since the last acknowledgment (RFC 9002's pto_count). */
  private ptoCount = 0;
  /** FACK and early retransmit, until reordering turns them off (tcp_update_reordering). */
  private fackOn: boolean;
  private erOn: boolean;
  /** Timeouts that retransmitted (for instrumentation: scripts/goel/tlp-trace.ts). */
  timeouts = 0;
  // The state only some links and hosts use, each allocated only where its mechanism is on (tcp-state.ts).
  /** Delayed ACKs at the client (null: every segment ACKed at once). */
  private readonly delayed: DelayedAckState | null;
  /** `rwndGrowth`: the client's growing window and its timestamps (null: the window is fixed). */
  private readonly growing: GrowingWindow | null;
  /** The downlink can re-order (reordering.ts): late segments may be deemed lost, cuts undone (null: it keeps order). */
  private readonly reordering: ReorderingState<Segment> | null;
  /** `frto`: a timeout's cut pending its undo. */
  private readonly frto: FrtoUndo | null;
  /** `earlyRetransmit`: the retransmission held on the timer. */
  private readonly held: HeldRetransmit | null;
  /** `tlp` or `quicPto`: the probe's outcome and counts. */
  private readonly probe: ProbeState | null;
  /** CUBIC's epoch (null: NewReno). */
  private readonly cubicState: CubicState | null;

  constructor(
    private readonly ctx: NetContext,
    /** Client->server one-way delay, ms (requests and ACKs). */
    readonly up: number,
    private readonly perSegmentDelivery: boolean,
    readonly buffer: SegmentSource,
    /** Base round-trip time to this server, ms (handshakes; the client's RTO). */
    readonly rtt = 2 * up,
  ) {
    this.cwnd = ctx.icwnd;
    // The server measures the RTT on the handshake (Linux's tcp_synack_rtt_meas): the RTO starts from that
    // sample (RFC 6298 (2.2)), not the initial 1 s, whatever the loss detection.
    this.srtt = rtt;
    this.rttvar = rtt / 2;
    this.rto = firstRto(rtt, ctx.linuxRto);
    this.ackLane = ctx.ackLane(up);
    this.rwnd = ctx.rwndSegments ?? Infinity;
    this.copiesOut = ctx.link.deferred ? [] : null;
    this.fackOn = ctx.fack === true;
    this.erOn = ctx.earlyRetransmit === true;
    this.delayed = delayedAckState(delayedAckPolicy(ctx.delayedAcks));
    this.growing = ctx.rwndGrowth && this.rwnd < Infinity ? new GrowingWindow(newReceiveWindow(this.rwnd)) : null;
    this.reordering = ctx.link.reorders === true ? new ReorderingState<Segment>(DUP_THRESH) : null;
    this.frto = ctx.frto ? new FrtoUndo() : null;
    this.held = ctx.earlyRetransmit ? new HeldRetransmit() : null;
    this.probe = ctx.tlp || ctx.quicPto ? new ProbeState() : null;
    this.cubicState = ctx.cubic ? newCubicState() : null;
    this.log.conn = this;
  }

  /** Tail-loss probes sent (TCP's, not QUIC-lite's PTO); for instrumentation, as the counts below (ProbeState). */
  get probes(): number {
    return this.probe?.probes ?? 0;
  }

  get probesNew(): number {
    return this.probe?.probesNew ?? 0;
  }

  get probesRepairing(): number {
    return this.probe?.probesRepairing ?? 0;
  }

  get probeCuts(): number {
    return this.probe?.probeCuts ?? 0;
  }

  get probeCwndSum(): number {
    return this.probe?.probeCwndSum ?? 0;
  }

  /** Late segments deemed lost, window cuts only they caused, cuts undone, of them by D-SACK (re-ordering links; ReorderingState). */
  get spuriousLosses(): number {
    return this.reordering?.spuriousLosses ?? 0;
  }

  get lateCuts(): number {
    return this.reordering?.lateCuts ?? 0;
  }

  get undoneCuts(): number {
    return this.reordering?.undoneCuts ?? 0;
  }

  get dsackUndos(): number {
    return this.reordering?.dsackUndos ?? 0;
  }

  /** The simulation is over: hand this connection's segments back for reuse. */
  recycle(): void {
    // Drop the log's references to this run (its connection and exchanges): a pooled log lives in the old
    // generation, and a pointer from it would keep the whole finished simulation alive until the log is reused,
    // to be copied by every scavenge and promoted (MPTCP: 3 MB per scavenge). Its segments hold none.
    const log = this.log;
    log.conn = null;
    for (let i = 0; i < this.nXs; i++) log.xs[i] = null; // a loop: fill() is a runtime call
    // The arrival log's slots still point at segments of segment logs, which hold nothing of this run.
    if (segmentLogPool.length < LOG_POOL_MAX) segmentLogPool.push(log);
    if (arrivalLogPool.length < LOG_POOL_MAX) arrivalLogPool.push(this.arrivedLog);
    this.segs = [];
    this.nSegs = 0;
    this.xs = [];
    this.nXs = 0;
    this.arrivedLog = [];
    this.nArrived = 0;
  }

  /** Room for one more new segment: in the congestion window and in the receive window. */
  hasRoom(): boolean {
    return this.pipe + 1 <= this.cwnd && this.nSegs < this.una + this.rwnd;
  }

  /** New data in the send buffer at the server. */
  kick(now: number): void {
    this.trySend(now);
  }

  private trySend(now: number, probe = false): boolean {
    const retxPending = this.retxHead < this.retxQueue.length;
    if (this.pipe === 0 && !retxPending && this.lastActive >= 0 && this.restartedAfter !== this.lastActive && now - this.lastActive > this.rto) {
      // Congestion window validation after idle (RFC 2861; Linux tcp_slow_start_after_idle_check): the idle spell
      // runs from the last data sent (lsndtime), not from the last ACK; halve per idle RTO, not below the restart
      // window, once per spell.
      this.restartedAfter = this.lastActive;
      const k = Math.floor((now - this.lastActive) / this.rto);
      const restart = Math.min(this.ctx.icwnd, this.cwnd);
      this.ssthresh = Math.max(this.ssthresh === Infinity && !this.ctx.linuxIdleRestart ? 0 : this.ssthresh, 0.75 * this.cwnd);
      this.cwnd = Math.max(this.cwnd / 2 ** Math.min(k, 30), restart);
    }
    let sent = false;
    if (this.forceRetx) sent = this.fastRetransmit(now);
    while (this.pipe + 1 <= this.cwnd || probe) {
      if (!probe && this.retxHead < this.retxQueue.length) {
        const r = this.nextRetx();
        if (r !== undefined) {
          this.retransmit(r, now);
          sent = true;
        }
        continue;
      }
      if (this.nSegs >= this.una + this.rwnd) {
        this.cwndLimited = false; // the receive window, not cwnd, holds the sender back
        break;
      }
      const x = this.buffer.peek();
      if (x === null) {
        this.cwndLimited = false;
        break;
      }
      if (Number.isNaN(x.tFirstByte)) x.tFirstByte = now;
      const off = x.sent;
      const len = this.buffer.take(x, MSS);
      let s = this.segs[this.nSegs];
      if (s === undefined) {
        s = new Segment(this.log);
        this.segs.push(s);
      }
      s.seq = this.nSegs;
      s.xi = this.exchangeIndex(x);
      s.off = off;
      s.len = len; // order, sendT and lost: set by transmit
      s.arrived = false;
      s.acked = false;
      s.retx = 0;
      s.arrivalIndex = -1;
      s.psh = false;
      s.rcvUpTo = 0;
      s.sackedAbove = 0;
      this.nSegs++;
      if (this.ctx.psh && x.sent >= x.bytes) {
        s.psh = true;
        this.ctx.pshSignal?.(this, now);
      }
      this.transmit(s, now);
      sent = true;
      if (probe) break;
    }
    if (this.pipe + 1 > this.cwnd && (this.buffer.hasData() || this.retxHead < this.retxQueue.length)) this.cwndLimited = true;
    if (sent) {
      this.lastActive = now;
      if (this.rtoDeadline === Infinity) this.armTimer(now);
    }
    return sent;
  }

  /** Exchange x's index in the log's xs: the last one's when x is still being sent, else a new entry. */
  private exchangeIndex(x: Exchange): number {
    const n = this.nXs;
    if (n > 0 && this.xs[n - 1] === x) return n - 1;
    if (n < this.xs.length) this.xs[n] = x;
    else this.xs.push(x);
    this.nXs = n + 1;
    return n;
  }

  /**
   * Fast retransmit goes out on entering recovery whatever the window (RFC 6582 step 2; Linux's PRR forces
   * one segment when recovery starts).
   */
  private fastRetransmit(now: number): boolean {
    this.forceRetx = false;
    const r = this.nextRetx();
    if (r === undefined) return false;
    this.retransmit(r, now);
    return true;
  }

  /** The next segment to resend, past any the client acknowledged meanwhile (a late one deemed lost). */
  private nextRetx(): Segment | undefined {
    while (this.retxHead < this.retxQueue.length) {
      const r = this.retxQueue[this.retxHead++]!;
      if (!r.acked) return r;
    }
    return undefined;
  }

  /**
   * Sends a segment known lost again. With `sack`, resending the oldest unacknowledged segment restarts the
   * timer (Linux's tcp_xmit_retransmit_queue), which then times out if that retransmission is lost too.
   */
  private retransmit(s: Segment, now: number): void {
    s.retx++;
    this.ctx.stats.retransmissions++;
    this.countUndoRetransmission();
    if (this.ctx.sack && s.seq === this.una) this.rtoDeadline = Infinity;
    const late = s.sackedAbove === LATE_LOST;
    if (late) s.sackedAbove = 0;
    this.transmit(s, now);
    // A late segment sent again: two copies on their way, no unambiguous RTT sample.
    if (late) s.sendT = NaN;
  }

  private transmit(s: Segment, now: number): void {
    this.ctx.slices?.record(this, now, s.retx > 0);
    const g = this.growing;
    if (g !== null) g.tsEcr[s.seq] = g.tsRecent;
    s.order = ++this.orderSeq;
    s.sendT = now;
    s.lost = false;
    this.pipe++;
    const link = this.ctx.link;
    const dep = link.deferred
      ? link.send(now + this.ctx.dS, s.len + HEADER_BYTES, this, s, s.order * TAG_KINDS + (s.retx === 0 ? TAG_ORIGINAL : 0)) ? Infinity : -1
      : link.offer(now + this.ctx.dS, s.len + HEADER_BYTES);
    const ro = this.reordering;
    if (ro !== null && s.retx === 0) ro.origArrives[s.seq] = dep < 0 || dep === Infinity ? Infinity : dep + this.ctx.dC;
    if (dep === Infinity) {
      this.onWire++; // its departure comes by callback (linkDeparted)
      const out = this.copiesOut!;
      out[s.seq] = (out[s.seq] ?? 0) + 1;
    } else if (dep < 0) {
      s.lost = true;
      s.sackedAbove = 0;
      this.undetected.push(s);
    } else {
      this.onWire++;
      if (dep + this.ctx.dC > this.lastDataArrival) this.lastDataArrival = dep + this.ctx.dC;
      this.ctx.q.scheduleLane(this.ctx.arrivalLane, dep + this.ctx.dC, EV_SEGMENT_ARRIVES, s);
    }
  }

  /** An event-driven link let a copy of s out at t (bridge-link.ts): it reaches the client dC later. */
  linkDeparted(item: unknown, tag: number, t: number): void {
    const s = item as Segment;
    const at = t + this.ctx.dC;
    // The original's arrival, unless a retransmission got there first.
    const ro = this.reordering;
    if (ro !== null && (tag & TAG_ORIGINAL) !== 0 && !s.arrived) ro.origArrives[s.seq] = at;
    if (at > this.lastDataArrival) this.lastDataArrival = at;
    this.ctx.q.scheduleLane(this.ctx.arrivalLane, at, EV_SEGMENT_ARRIVES, s);
  }

  /**
   * An event-driven link dropped a copy of s at t (its queue full, or the packet over max_size, at the hand-over).
   * Once no copy of s is left on its way and none arrived, s is lost as one lost on entry is (undetected, in
   * transmission order) — unless acknowledged, known lost already, or deemed lost as late and queued to be resent.
   */
  linkDropped(item: unknown, tag: number): void {
    const s = item as Segment;
    this.onWire--;
    if (--this.copiesOut![s.seq]! > 0 || s.arrived || s.acked || s.lost || s.sackedAbove === LATE_LOST) return;
    s.lost = true;
    // An original on a re-ordering link has counted the segments acknowledged above it since it was sent.
    if (!(this.reordering !== null && s.retx === 0 && (tag & TAG_ORIGINAL) !== 0)) s.sackedAbove = 0;
    insertSorted(this.undetected, this.udHead, s, orderOf); // in transmission order
  }

  /**
   * MPTCP (§6.4.5): a sibling subflow sent the end of an object, and this subflow sends a PSH/ACK at `now`.
   * It takes no service at the bottleneck but stays behind this subflow's data on the path (FIFO); when it
   * reaches the client, the client ACKs at once whatever it holds back on this subflow.
   */
  signalPsh(now: number): void {
    if (this.delayed === null) return;
    const t = Math.max(now + this.ctx.dS + this.ctx.dC, this.lastDataArrival);
    this.ctx.q.schedule(t, EV_DELACK, this, PSH_SIGNAL);
  }

  /** Client side: a segment arrived; ACK it (now or later) and hand data to the application. */
  onSegmentArrives(s: Segment, now: number): void {
    this.onWire--;
    if (this.copiesOut !== null) this.copiesOut[s.seq]!--;
    if (s.arrived) {
      // A duplicate (its ACK was lost, or it was late and its retransmission got there first): Linux ACKs it at
      // once, with a D-SACK block for it (RFC 2883).
      const sent = this.sendAck(now);
      const ro = this.reordering;
      if (ro !== null && this.ctx.sack && sent) {
        ro.dsackSegs.push(s);
        ro.dsackAt.push(this.ackArrival);
      }
      return;
    }
    s.arrived = true;
    const ro = this.reordering;
    if (ro !== null && now < ro.origArrives[s.seq]!) ro.origArrives[s.seq] = Infinity; // a retransmission got there first
    s.arrivalIndex = this.nArrived;
    put(this.arrivedLog, this.nArrived++, s);
    const inOrder = s.seq === this.rcvNext;
    // Out of order, or filling a hole (RFC 5681 §4.2): Linux ACKs at once.
    const urgent = !inOrder || this.rcvNext <= this.maxArrived;
    if (s.seq > this.maxArrived) this.maxArrived = s.seq;
    if (this.perSegmentDelivery) {
      this.ctx.stats.bytesDelivered += s.len;
      this.ctx.deliver(this.xs[s.xi]!, s.len, now, s);
    }
    if (inOrder) {
      const segs = this.segs;
      const xs = this.xs;
      const deliver = !this.perSegmentDelivery;
      while (this.rcvNext < this.nSegs && segs[this.rcvNext]!.arrived) {
        const d = segs[this.rcvNext++]!;
        if (!deliver) continue;
        this.ctx.stats.bytesDelivered += d.len;
        this.ctx.deliver(xs[d.xi]!, d.len, now, d);
      }
    } // else a hole before it: TCP holds it back (head-of-line blocking)
    s.rcvUpTo = this.rcvNext;
    const g = this.growing;
    if (g !== null) {
      // The receiver's RTT sample (tcp_rcv_rtt_measure_ts): since the client sent the ACK whose timestamp this segment echoes.
      const d = this.delayed;
      if (inOrder && onInOrderSegment(g.window, now, now - g.tsEcr[s.seq]!, this.rcvNext) && d !== null && d.quickAcks === 0) d.quickAcks = 1;
      g.offeredAt[s.arrivalIndex] = g.window.threshold;
    }
    this.ackPolicy(s, urgent, now);
  }

  private ackPolicy(s: Segment, urgent: boolean, now: number): void {
    const d = this.delayed;
    if (d === null) {
      this.sendAck(now);
      return;
    }
    const p = d.policy;
    // Quick-ACK again after an idle period longer than the client's RTO (tcp_event_data_recv).
    if (d.lastArrival >= 0 && now - d.lastArrival > this.clientRto()) d.quickAcks = p.quickAcks;
    d.lastArrival = now;
    d.unackedBytes += s.len;
    d.unackedSegs++;
    const count = p.countBytes ? d.unackedBytes > (p.everyNth - 1) * MSS : d.unackedSegs >= p.everyNth;
    if (d.quickAcks > 0 || urgent || count || (s.psh && this.ctx.psh)) {
      if (d.quickAcks > 0) d.quickAcks--;
      this.sendAck(now);
      return;
    }
    if (!d.armed) {
      d.armed = true;
      this.ctx.q.schedule(now + p.timeoutMs, EV_DELACK, this, ++d.gen);
    }
  }

  /** The client's RTO as Linux sets it after the handshake's RTT sample. */
  private clientRto(): number {
    return firstRto(this.rtt, this.ctx.linuxRto);
  }

  /**
   * How long the TCP handshake and `tlsRtts` TLS round trips take, each flight lost with the links' loss
   * models: a lost SYN or SYN/ACK is retried after 1 s, 2 s, 4 s... (Linux's initial RTO and backoff), a
   * lost TLS flight after the RTO of the handshake's RTT sample, doubling. A flight is one packet each way.
   * Without random loss: exactly (1 + tlsRtts) RTT, the request riding with the final ACK. On a link schedule
   * (`start` the time the SYN leaves) each flight meets the loss and the extra delay of the slice it enters.
   */
  handshakeTime(tlsRtts: number, start = 0): number {
    const uplink = this.ctx.uplink;
    const down = this.ctx.link;
    if (!uplink?.lossy && !down.lossy) return this.rtt * (1 + tlsRtts);
    const tlsRounds = Math.ceil(tlsRtts);
    let t = 0;
    for (let round = 0; round <= tlsRounds; round++) {
      const length = round === 0 ? this.rtt : (this.rtt * tlsRtts) / tlsRounds;
      const rto = round === 0 ? INITIAL_RTO_MS : this.clientRto();
      for (let backoff = 1; ; backoff = Math.min(backoff * 2, MAX_BACKOFF)) {
        const lost = (uplink?.drawLoss(start + t) ?? false) || down.drawLoss(start + t + length / 2);
        if (!lost) break;
        t += rto * backoff;
      }
      t += length + (uplink?.extraDelay(start + t) ?? 0) + down.extraDelay(start + t + length / 2);
    }
    return t;
  }

  /**
   * A request (one packet) leaves the client at `now`: its trip to the server, ms — `up`, or on a lossy
   * uplink, plus the client's RTO (doubling) for each time it is lost. Counted in Goel's slices as it arrives.
   */
  requestTrip(now: number, wireBytes: number): number {
    const trip = this.uplinkTrip(now, wireBytes);
    this.ctx.slices?.receive(this, now + trip);
    return trip;
  }

  private uplinkTrip(now: number, wireBytes: number): number {
    const uplink = this.ctx.uplink;
    if (!uplink) return this.up;
    let t = now;
    for (let backoff = 1; ; backoff = Math.min(backoff * 2, MAX_BACKOFF)) {
      const dep = uplink.offer(t, wireBytes);
      if (dep >= 0) return dep + this.up - now;
      this.ctx.stats.retransmissions++;
      t += this.clientRto() * backoff;
    }
  }

  /** The delayed-ACK timer fired. */
  onDelayedAck(gen: number, now: number): void {
    const d = this.delayed;
    if (d === null || !d.armed) return;
    // The PSH/ACK signal ACKs what the delayed-ACK timer holds; the timer, unless an ACK left since it was armed.
    if (gen === PSH_SIGNAL || gen === d.gen) this.sendAck(now);
  }

  /**
   * Client side: a cumulative ACK covering every segment arrived so far leaves for the server; returns whether
   * one left and was not lost (when it gets there: ackArrival). A boolean, not the time: V8 does not inline this
   * into its per-segment callers, and a fractional time returned from a call is a heap number allocated per ACK.
   */
  private sendAck(now: number): boolean {
    const d = this.delayed;
    if (d !== null) {
      d.armed = false;
      d.gen++;
      d.unackedBytes = 0;
      d.unackedSegs = 0;
    }
    const upTo = this.nArrived;
    if (upTo === 0) return false;
    let t = now;
    const uplink = this.ctx.uplink;
    if (uplink) {
      t = uplink.offer(now, ACK_WIRE_BYTES);
      if (t < 0) return false; // lost: a later ACK covers these segments
    }
    if (this.growing !== null) this.growing.ackSentAt[upTo] = now;
    this.acksInFlight++;
    this.ctx.q.scheduleLane(this.ackLane, t + this.up, EV_ACK_ARRIVES, this.arrivedLog[upTo - 1]!, upTo);
    this.ackArrival = t + this.up;
    return true;
  }

  /**
   * Server side: an ACK arrived. `upTo` is how many of the client's arrivals it covers (segments that
   * arrived before it left); without it (older callers), it covers just s.
   */
  onAck(s: Segment, now: number, upTo?: number): void {
    this.acksInFlight--;
    this.ctx.slices?.receive(this, now);
    const ro = this.reordering;
    if (ro !== null && ro.dsackHead < ro.dsackSegs.length) this.dsacksArrive(ro, now);
    const log = this.arrivedLog;
    const end = upTo ?? s.arrivalIndex + 1;
    const g = this.growing;
    if (g !== null) {
      // Every ACK updates TS.Recent (RFC 7323), which only moves forward (an ACK overtaken on the way leaves it).
      const ts = g.ackSentAt[end];
      if (ts !== undefined && !(ts <= g.tsRecent)) g.tsRecent = ts;
    }
    if (end <= this.ackRcvdUpTo) return; // nothing new (a duplicate, or covered by an earlier ACK)
    const edge = log[end - 1]!.rcvUpTo;
    if (g !== null && g.offeredAt[end - 1]! > this.rwnd) this.rwnd = g.offeredAt[end - 1]!;
    const advanced = edge > this.una; // the cumulative ACK moved (else a duplicate ACK with new SACK blocks)
    const hole = this.una; // the sequence number at the cumulative point before this ACK
    if (advanced) this.una = edge;
    const first = this.ackRcvdUpTo;
    let newest = s;
    let sampled = false;
    let newlyAcked = 0;
    for (let i = this.ackRcvdUpTo; i < end; i++) {
      const c = log[i]!;
      if (c.acked) continue;
      c.acked = true;
      if (ro === null) this.pipe--;
      else {
        if (c.sackedAbove === LATE_LOST) c.sackedAbove = 0; // out of pipe since it was deemed lost
        else if (!c.lost || this.dropLostRetransmission(c)) this.pipe--;
        this.lateAcked(ro, c);
      }
      newlyAcked++;
      newest = c;
      if (!sampled && !Number.isNaN(c.sendT)) {
        // The oldest newly acknowledged segment gives the sample: the echoed timestamp (RFC 7323), which
        // dates a retransmission too (no Karn ambiguity; Linux's tcp_rtt_tsopt_us), so its ACK ends the backoff.
        sampled = true;
        this.rttSample(now - c.sendT);
      }
    }
    this.ackRcvdUpTo = end;
    const f = this.frto;
    if (f !== null && !Number.isNaN(f.cwnd)) {
      // F-RTO: the first ACK after the timeout covers segments that were never sent again (the originals had
      // arrived; only their ACKs were lost): the timeout was spurious, its window reduction is undone (RFC 5682 §3.1 step 3b).
      this.cwnd = Math.max(this.cwnd, f.cwnd);
      this.ssthresh = f.ssthresh;
      f.cwnd = NaN;
    }
    let newLoss = false;
    let lateLoss = false;
    const ud = this.undetected;
    if (ro !== null) {
      while (this.retxHead < this.retxQueue.length && this.retxQueue[this.retxHead]!.acked) this.retxHead++;
      lateLoss = this.reorderDetect(ro, first, end);
    }
    if (this.ctx.sack) newLoss = this.sackDetect(first, end, newest);
    else {
      // The NACK scheme: every loss sent before the newest acknowledged segment is a known hole.
      while (this.udHead < ud.length && ud[this.udHead]!.order < newest.order) {
        const lost = ud[this.udHead++]!;
        this.pipe--;
        this.retxQueue.push(lost);
        newLoss = true;
      }
    }
    if (!newLoss && !lateLoss && ro !== null && this.limitedRecoveryCase(ro)) {
      if (this.markHeadLost(ro)) newLoss = true;
      else lateLoss = true;
    }
    const lateOnly = lateLoss && !newLoss;
    newLoss ||= lateLoss;
    if (this.tlpOrder > 0 && newest.order >= this.tlpOrder) {
      // The probe was ACKed: if it repaired a loss and no other was found, TLP detected that loss (RFC 8985 §7.4).
      const p = this.probe!;
      if (p.repaired && !newLoss && !this.inRecovery) {
        this.reduceWindow();
        p.probeCuts++;
      }
      this.tlpOrder = 0;
      p.repaired = false;
    }
    // The hole at the cumulative point filled by its original, sent before the recovery's retransmissions:
    // the ACK's timestamp says the loss was not one (reordering.ts), and the cut is undone; so too when every
    // retransmission of the episode was D-SACKed (Linux 3.13's tcp_may_undo: undo_retrans 0).
    const undone = advanced && this.inRecovery && ro !== null && ro.undoPending() && (ro.origArrives[hole]! < Infinity || ro.undoRetrans === 0);
    if (undone) {
      if (!(ro.origArrives[hole]! < Infinity)) ro.dsackUndos++;
      this.undoCut(ro);
    }
    if (newLoss && !this.inRecovery && !undone) {
      this.enterRecovery(now);
      if (lateOnly) ro!.lateCuts++;
    }
    else if (this.inRecovery && (this.ctx.sack ? this.una >= this.recoverSeq : newest.order >= this.recoverOrder)) this.inRecovery = false;
    if (!this.inRecovery && !newLoss) {
      for (let i = 0; i < newlyAcked; i++) this.grow(now);
    }
    const pto = this.ctx.quicPto === true;
    if (pto && newlyAcked > 0) {
      // Losses after two or more probe timeouts span persistent congestion (RFC 9002 §7.6): the minimum window.
      if (newLoss && persistentCongestion(this.ptoCount)) this.cwnd = MINIMUM_WINDOW;
      this.ptoCount = 0;
    }
    // Early retransmit looks at the ACK before new data goes out on it (Linux: tcp_fastretrans_alert, then tcp_data_snd_check).
    const erCase = this.erOn && !this.inRecovery && this.udHead < ud.length && this.earlyRetransmitCase();
    // The timer restarts on every ACK; with `sack` only on one that moves the cumulative point (RFC 6298
    // (5.3); Linux's FLAG_SET_XMIT_TIMER), so a hole that is never repaired still times out.
    // QUIC's probe timer restarts whenever ack-eliciting packets are acknowledged (RFC 9002 §6.2.1).
    // Linux (3.13's tcp_ack) puts a pending probe back to the RTO on every ACK and decides on the probe again.
    let rtoAt = NaN;
    if (!advanced && this.probeArmed && this.ctx.sack && this.ctx.tlp && !pto) {
      rtoAt = this.probe!.rtoAt;
      this.rtoDeadline = Infinity;
    }
    if (advanced || !this.ctx.sack || (pto && newlyAcked > 0)) this.rtoDeadline = Infinity;
    this.trySend(now);
    if (this.pipe > 0 && this.rtoDeadline === Infinity) this.armTimer(now, rtoAt);
    if (erCase) this.scheduleEarlyRetransmit(now);
  }

  /**
   * Linux 3.13's Trick#4 on this ACK (limited-recovery.ts), on a re-ordering link whose degree rose above 3 (else
   * the case cannot arise), outside recovery and with nothing queued to resend: the hole at the cumulative
   * point, sent once, on its way or lost.
   */
  private limitedRecoveryCase(ro: ReorderingState<Segment>): boolean {
    if (!this.ctx.sack || this.perSegmentDelivery || this.inRecovery || ro.dupThresh <= DUP_THRESH) return false;
    if (this.retxHead < this.retxQueue.length) return false;
    const head = this.segs[this.una];
    if (head === undefined || head.acked || head.retx > 0 || head.sackedAbove === LATE_LOST) return false;
    const packetsOut = this.nSegs - this.una;
    if (packetsOut > ro.dupThresh) return false;
    let sackedOut = 0;
    for (let i = this.una; i < this.nSegs; i++) if (this.segs[i]!.acked) sackedOut++;
    return limitedRecoveryDue({ packetsOut, sackedOut, reordering: ro.dupThresh, initialReordering: DUP_THRESH, maySendNow: this.buffer.hasData() && this.hasRoom() });
  }

  /**
   * Trick#4's mark (tcp_mark_head_lost(sk, 1, 1)): the segment at the cumulative point is deemed lost and queued
   * to resend. Returns true if it was lost indeed, false if it was a late one still on its way (counted as
   * reorderDetect counts those).
   */
  private markHeadLost(ro: ReorderingState<Segment>): boolean {
    const head = this.segs[this.una]!;
    this.pipe--;
    this.retxQueue.push(head);
    if (head.lost) {
      const k = this.undetected.indexOf(head, this.udHead);
      if (k >= 0) removeAt(this.undetected, k);
      return true;
    }
    head.sackedAbove = LATE_LOST;
    ro.spuriousLosses++;
    return false;
  }

  /** RFC 5827's case on this ACK (early-retransmit.ts): under four outstanding, one SACKed, nothing new can go. */
  private earlyRetransmitCase(): boolean {
    const packetsOut = this.nSegs - this.una;
    if (packetsOut >= 4) return false;
    let sackedOut = 0;
    let retransOut = 0;
    for (let i = this.una; i < this.nSegs; i++) {
      const s = this.segs[i]!;
      if (s.acked) sackedOut++;
      else if (s.retx > 0) retransOut++;
    }
    return earlyRetransmitDue({ packetsOut, sackedOut, retransOut, maySendNow: this.buffer.hasData() && this.hasRoom() });
  }

  /**
   * Holds the early retransmission back max(SRTT / 4, 2 ms) (Linux's tcp_pause_early_retransmit), or sends it
   * now when the timer (the RTO, or an early retransmission already held) would fire first.
   */
  private scheduleEarlyRetransmit(now: number): void {
    const at = now + earlyRetransmitDelay(this.srtt);
    if (at >= this.rtoDeadline) {
      this.earlyRetransmit(now);
      return;
    }
    const h = this.held!;
    h.rtoDeadline = this.rtoDeadline;
    h.probeArmed = this.probeArmed;
    this.probeArmed = false;
    h.armed = true;
    this.armRto(at);
  }

  /**
   * Early retransmit: the holes below a SACKed segment are lost (at most two: under four outstanding); the
   * sender enters recovery and resends them. The RTO stays where it was until that resend restarts it.
   */
  private earlyRetransmit(now: number): void {
    const h = this.held;
    if (h !== null && h.armed) {
      h.armed = false;
      this.rtoDeadline = h.rtoDeadline;
      this.probeArmed = h.probeArmed;
    }
    const ud = this.undetected;
    let found = false;
    let w = this.udHead;
    for (let j = this.udHead; j < ud.length; j++) {
      const u = ud[j]!;
      if (u.sackedAbove > 0) {
        this.pipe--;
        this.retxQueue.push(u);
        found = true;
      } else ud[w++] = u;
    }
    ud.length = w;
    if (!found) return;
    this.enterRecovery(now);
    this.trySend(now);
    if (this.pipe > 0 && this.rtoDeadline === Infinity) this.armTimer(now);
  }

  /**
   * `sack` loss detection on an ACK that acknowledged arrivals [first, end): each counts towards the
   * undetected losses below it, and a loss with DUP_THRESH acknowledged above it is known (RFC 6675's
   * IsLost: for TCP by sequence number, so a lost retransmission, having everything above it acknowledged
   * already, is left to the timeout; for QUIC-lite by packet number, RFC 9002's packet threshold, which a
   * retransmission, sent later, meets again). The ACK of a tail-loss probe also reveals every loss sent before
   * the probe (as Linux's RACK does after a probe). Returns whether a loss became known.
   */
  private sackDetect(first: number, end: number, newest: Segment): boolean {
    const ud = this.undetected;
    if (this.udHead >= ud.length) return false;
    const log = this.arrivedLog;
    const byPacket = this.perSegmentDelivery;
    const fack = this.fackOn && !byPacket;
    const thresh = this.reordering?.dupThresh ?? DUP_THRESH;
    for (let i = first; i < end; i++) {
      const c = log[i]!;
      for (let j = this.udHead; j < ud.length; j++) {
        const u = ud[j]!;
        if (byPacket) {
          if (c.order > u.order) u.sackedAbove++;
        } else if (u.retx === 0) {
          if (c.seq > u.seq) u.sackedAbove = fack && c.seq >= u.seq + thresh ? thresh : u.sackedAbove + 1;
        } else if (fack && this.inRecovery && c.retx === 0 && c.order > u.order) u.sackedAbove = thresh; // a lost retransmission
      }
    }
    // QUIC-lite: the probe's acknowledgment declares what was sent before it (RFC 9002); TCP as Linux 3.13
    // has no RACK, and leaves the holes below a probe to DUP_THRESH, FACK, early retransmit or the RTO.
    const probeAcked = byPacket && this.tlpOrder > 0 && newest.order >= this.tlpOrder;
    let found = false;
    let w = this.udHead;
    for (let j = this.udHead; j < ud.length; j++) {
      const u = ud[j]!;
      if (u.sackedAbove >= thresh || (probeAcked && u.order < newest.order)) {
        this.pipe--;
        this.retxQueue.push(u);
        found = true;
      } else ud[w++] = u;
    }
    ud.length = w;
    return found;
  }

  private rttSample(r: number): void {
    if (Number.isNaN(this.srtt)) {
      this.srtt = r;
      this.rttvar = r / 2;
    } else {
      this.rttvar = 0.75 * this.rttvar + 0.25 * Math.abs(this.srtt - r);
      this.srtt = 0.875 * this.srtt + 0.125 * r;
    }
    this.rto = rtoOf(this.srtt, this.rttvar, this.ctx.linuxRto);
    this.backoff = 1;
  }

  private enterRecovery(now: number): void {
    this.inRecovery = true;
    this.forceRetx = true;
    this.recoverOrder = this.orderSeq;
    this.recoverSeq = this.nSegs;
    const ro = this.reordering;
    if (ro !== null && this.ctx.sack) {
      ro.undoCwnd = this.cwnd;
      ro.undoSsthresh = this.ssthresh;
      ro.undoRetrans = 0;
      ro.undoMarker = this.una;
    }
    this.reduceWindow();
    void now;
  }

  /**
   * Re-ordering links: segment c was just acknowledged. Below the highest acknowledged and arrived as its
   * original, it shows reordering, and `sack` (Linux) raises its reordering degree (reordering.ts).
   */
  private lateAcked(ro: ReorderingState<Segment>, c: Segment): void {
    const metric = reorderingMetric(ro.highestAcked, c.seq);
    if (c.seq > ro.highestAcked) ro.highestAcked = c.seq;
    if (metric === 0 || !this.ctx.sack || !(ro.origArrives[c.seq]! < Infinity)) return;
    const raised = raisedReordering(ro.dupThresh, metric);
    if (raised > ro.dupThresh) {
      ro.dupThresh = raised;
      this.fackOn = false;
    }
    this.erOn = false;
  }

  /**
   * Re-ordering links: the retransmission of late segment c was lost, but its original arrived and was just
   * acknowledged: nothing to resend. Returns whether that loss was still undetected (still in the pipe); once
   * detected it was queued to be sent again and left the pipe then (issue 17: counting it out twice left the
   * pipe one short, and a lost tail with pipe 0 armed no timer).
   */
  private dropLostRetransmission(c: Segment): boolean {
    c.lost = false;
    const k = this.undetected.indexOf(c, this.udHead);
    if (k >= 0) removeAt(this.undetected, k);
    return k >= 0;
  }

  /**
   * Re-ordering links, on an ACK that acknowledged arrivals [first, end): a segment sent once, on its way
   * (neither lost nor acknowledged), with enough acknowledged above it is deemed lost (reordering.ts: the
   * reordering degree; with `sack` and FACK also by distance) and queued to be sent again. Returns whether
   * one was.
   */
  private reorderDetect(ro: ReorderingState<Segment>, first: number, end: number): boolean {
    const log = this.arrivedLog;
    const segs = this.segs;
    const fack = this.ctx.sack === true && this.fackOn && !this.perSegmentDelivery;
    const degree = this.ctx.sack ? ro.dupThresh : DUP_THRESH;
    let found = false;
    for (let i = first; i < end; i++) {
      const c = log[i]!;
      for (let j = this.una; j < c.seq; j++) {
        const u = segs[j]!;
        if (u.acked || u.lost || u.sackedAbove === LATE_LOST || u.retx > 0) continue;
        u.sackedAbove++;
        if (!lateSegmentLost(u.sackedAbove, c.seq - u.seq, degree, fack)) continue;
        u.sackedAbove = LATE_LOST;
        this.pipe--;
        this.retxQueue.push(u);
        ro.spuriousLosses++;
        found = true;
      }
    }
    return found;
  }

  /**
   * Server side: the D-SACKs the ACKs arriving by `now` carry. One for a segment of the episode sent again
   * counts a retransmission off (tcp_sacktag_write_queue); after the recovery, the last one undoes the cut
   * (tcp_try_undo_dsack); in it, the next ACK that moves the cumulative point does (onAck).
   */
  private dsacksArrive(ro: ReorderingState<Segment>, now: number): void {
    while (ro.dsackHead < ro.dsackSegs.length && ro.dsackAt[ro.dsackHead]! <= now) {
      const s = ro.dsackSegs[ro.dsackHead++]!;
      if (!ro.undoPending() || ro.undoRetrans <= 0 || s.seq < ro.undoMarker || s.retx === 0) continue;
      if (--ro.undoRetrans === 0 && !this.inRecovery) {
        this.undoCut(ro);
        ro.dsackUndos++;
      }
    }
  }

  /** The recovery's cut undone (reordering.ts): the window and threshold as before it, recovery over. */
  private undoCut(ro: ReorderingState<Segment>): void {
    this.cwnd = Math.max(this.cwnd, ro.undoCwnd);
    this.ssthresh = ro.undoSsthresh;
    ro.undoCwnd = NaN;
    this.inRecovery = false;
    ro.undoneCuts++;
  }

  /** A retransmission of a recovery episode whose cut may yet be undone (Linux's undo_retrans). */
  private countUndoRetransmission(): void {
    const ro = this.reordering;
    if (ro !== null && ro.undoPending()) ro.undoRetrans++;
  }

  /** Multiplicative decrease (NewReno halves, CUBIC ×0.7). */
  private reduceWindow(): void {
    if (this.cubicState !== null) {
      cubicReduced(this.cubicState, this.cwnd);
      this.cwnd = Math.max(this.cwnd * CUBIC_BETA, 2);
    } else {
      this.cwnd = Math.max(this.cwnd / 2, 2);
    }
    this.ssthresh = this.cwnd;
    this.ctx.lossEvent?.(this);
  }

  private grow(now: number): void {
    // Application-limited flows do not grow the window (RFC 2861 / Linux's is_cwnd_limited).
    if (!this.cwndLimited && 2 * (this.pipe + 1) < this.cwnd) return;
    if (this.cwnd < this.ssthresh) {
      this.cwnd += 1;
      return;
    }
    if (this.cubicState === null) {
      this.cwnd += this.ctx.coupledIncrease ? this.ctx.coupledIncrease(this) : 1 / this.cwnd;
      return;
    }
    this.cwnd += cubicIncrease(this.cubicState, this.cwnd, now, this.srtt);
  }

  /**
   * After sending, or an ACK with data still in flight: the RTO, or with `tlp` in the open state the probe
   * timeout when it is earlier (Linux's tcp_schedule_loss_probe).
   */
  private armTimer(now: number, rtoAt = NaN): void {
    if (this.held !== null) this.held.armed = false;
    const rto = Number.isNaN(rtoAt) ? now + this.rto * this.backoff : rtoAt;
    // Kept small, so that V8 inlines it into its per-ACK callers: the probes' cases apart (armProbe).
    if ((this.ctx.quicPto || this.ctx.tlp) && this.armProbe(now, rto)) return;
    this.probeArmed = false;
    this.armRto(rto);
  }

  /**
   * With `quicPto` or `tlp`: arms the probe timeout in the RTO's place (QUIC-lite's always; TCP's when it is due
   * and, but for Linux 3.13's, earlier than the RTO at `rto`). Returns whether it did.
   */
  private armProbe(now: number, rto: number): boolean {
    if (this.ctx.quicPto) {
      this.probeArmed = true;
      this.armRto(now + probeTimeout(this.srtt, this.rttvar, this.delayed?.policy.timeoutMs ?? 0, this.ptoCount));
      return true;
    }
    if (this.ctx.sack) {
      if (!this.linuxProbeDue()) return false;
      // Linux 3.13 probes in the RTO's place when the probe timeout would come later.
      this.probeArmed = true;
      this.probe!.rtoAt = rto;
      this.armRto(Math.min(now + linuxProbeTimeout(this.srtt, this.nSegs - this.una, this.ctx.psh === true), rto));
      return true;
    }
    if (this.inRecovery || this.backoff !== 1 || this.tlpOrder !== 0 || Number.isNaN(this.srtt)) return false;
    const extra = this.pipe === 1 && !this.ctx.psh ? (this.delayed?.policy.probeAllowanceMs ?? MIN_RTO_MS) : TLP_MIN_MS;
    const pto = now + 2 * this.srtt + extra;
    if (!(pto < rto)) return false;
    this.probeArmed = true;
    this.armRto(pto);
    return true;
  }

  /**
   * With `sack`, Linux 3.13's tcp_schedule_loss_probe: a probe only in the open state — not in recovery, no
   * RTO backoff, nothing SACKed above the cumulative point (the disorder state), no probe retransmission
   * outstanding — and only when the sender cannot send now: the window full, or no data left.
   */
  private linuxProbeDue(): boolean {
    if (this.inRecovery || this.backoff !== 1 || this.tlpOrder !== 0 || Number.isNaN(this.srtt)) return false;
    if (this.nSegs === this.una || this.ackRcvdUpTo > this.una) return false;
    return !(this.pipe + 1 <= this.cwnd && this.buffer.hasData());
  }

  /**
   * The probe timeout fired (Linux's tcp_send_loss_probe): one new segment whatever the congestion window,
   * else the highest sent segment again; then the RTO. With `sack` as Linux 3.13: while data waits, only a
   * new segment (none if the receive window is full) and no probe retransmission; a new segment is not
   * tracked as a probe (tlp_high_seq is set by a retransmission only).
   */
  private sendProbe(now: number): void {
    if (this.ctx.quicPto) {
      this.sendPtoProbe(now);
      return;
    }
    const p = this.probe!;
    this.probeArmed = false;
    this.rtoDeadline = Infinity;
    p.probes++;
    p.probeCwndSum += this.cwnd;
    if (this.ctx.sack && this.buffer.hasData()) {
      if (this.trySend(now, true)) p.probesNew++;
    } else if (this.retxHead >= this.retxQueue.length) {
      if (this.trySend(now, true)) {
        this.tlpOrder = this.orderSeq;
        p.probesNew++;
      } else this.probeHighestUnacked(now);
    }
    this.lastActive = now;
    this.probeArmed = false;
    this.rtoDeadline = Infinity;
    this.armRto(now + this.rto * this.backoff);
  }

  /** A probe with nothing new to send: the highest unacknowledged segment again. */
  private probeHighestUnacked(now: number): void {
    let s: Segment | undefined;
    for (let i = this.nSegs - 1; i >= 0 && s === undefined; i--) if (!this.segs[i]!.acked) s = this.segs[i];
    if (s !== undefined) this.probeRetransmit(s, now);
  }

  /**
   * QUIC's probe timeout fired (RFC 9002 §6.2.4): one packet whatever the window — a retransmission already
   * due, else new data, else the highest unacknowledged data again — the period doubles, the window stays.
   */
  private sendPtoProbe(now: number): void {
    this.probeArmed = false;
    this.rtoDeadline = Infinity;
    const r = this.nextRetx();
    if (r !== undefined) {
      this.retransmit(r, now);
      this.tlpOrder = this.orderSeq;
    } else if (this.trySend(now, true)) this.tlpOrder = this.orderSeq;
    else this.probeHighestUnacked(now);
    this.ptoCount++;
    this.lastActive = now;
    this.rtoDeadline = Infinity;
    this.armTimer(now);
  }

  /** A probe that sends segment s again: a hole refilled if s was lost, else a duplicate the client ACKs at once. */
  private probeRetransmit(s: Segment, now: number): void {
    s.retx++;
    this.ctx.stats.retransmissions++;
    this.countUndoRetransmission();
    const ud = this.undetected;
    const k = ud.indexOf(s, this.udHead);
    if (k >= 0) {
      // Lost and not yet known: the probe refills it (pipe already counts it).
      removeAt(ud, k);
      this.pipe--;
      const p = this.probe!;
      p.repaired = true;
      p.probesRepairing++;
      this.transmit(s, now);
      this.tlpOrder = s.order;
      return;
    }
    s.order = ++this.orderSeq;
    this.tlpOrder = s.order;
    this.sendCopy(s, now);
  }

  /** Sends again a segment the client has or will have (a duplicate: it ACKs at once); pipe is unchanged. */
  private sendCopy(s: Segment, now: number): void {
    this.ctx.slices?.record(this, now, true);
    // Two copies: which one an ACK's timestamp echoes is not modelled, so the segment gives no RTT sample.
    s.sendT = NaN;
    const link = this.ctx.link;
    if (link.deferred) {
      if (link.send(now + this.ctx.dS, s.len + HEADER_BYTES, this, s, s.order * TAG_KINDS + TAG_COPY)) {
        this.onWire++;
        const out = this.copiesOut!;
        out[s.seq] = (out[s.seq] ?? 0) + 1;
      }
      return;
    }
    const dep = link.offer(now + this.ctx.dS, s.len + HEADER_BYTES);
    if (dep >= 0) {
      this.onWire++;
      if (dep + this.ctx.dC > this.lastDataArrival) this.lastDataArrival = dep + this.ctx.dC;
      this.ctx.q.scheduleLane(this.ctx.arrivalLane, dep + this.ctx.dC, EV_SEGMENT_ARRIVES, s);
    }
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
    if (this.held?.armed) {
      this.earlyRetransmit(now);
      if (this.rtoDeadline !== Infinity) this.armRto(this.rtoDeadline);
      return;
    }
    if (this.probeArmed) {
      this.sendProbe(now);
      return;
    }
    if (this.udHead >= this.undetected.length) {
      if (this.ackLost()) {
        this.retransmitUnacked(now);
        return;
      }
      // Nothing was lost: the data is only delayed in the queue. Re-arm (stale-estimate rule, §3.7.7.2).
      this.armRto(now + this.rto * this.backoff);
      return;
    }
    const ud = this.undetected;
    while (this.udHead < ud.length) {
      this.pipe--;
      this.retxQueue.push(ud[this.udHead++]!);
    }
    this.collapseWindow();
    this.timeouts++;
    this.rtoDeadline = Infinity;
    this.trySend(now);
    if (this.rtoDeadline === Infinity && this.pipe > 0) this.armRto(now + this.rto * this.backoff);
  }

  /** A retransmission timeout: ssthresh halves, the window restarts at one segment, the timer backs off. */
  private collapseWindow(): void {
    if (this.reordering !== null) this.reordering.undoCwnd = NaN;
    if (this.cubicState !== null) cubicReduced(this.cubicState, this.cwnd);
    this.ssthresh = Math.max(this.cwnd / 2, 2);
    this.cwnd = 1;
    this.inRecovery = false;
    this.ctx.lossEvent?.(this);
    this.backoff = Math.min(this.backoff * 2, MAX_BACKOFF);
  }

  /**
   * Every segment in flight reached the client and no ACK or delayed ACK is on its way, yet some are
   * unacknowledged: their ACKs were lost, and only a timeout can tell the sender.
   */
  private ackLost(): boolean {
    return this.onWire === 0 && this.acksInFlight === 0 && !(this.delayed?.armed ?? false) && this.ackRcvdUpTo < this.nArrived;
  }

  /** RTO after lost ACKs: retransmit the oldest unacknowledged segment (the client ACKs the duplicate). */
  private retransmitUnacked(now: number): void {
    const s = this.arrivedLog[this.ackRcvdUpTo]!;
    if (this.frto !== null) {
      this.frto.cwnd = this.cwnd;
      this.frto.ssthresh = this.ssthresh;
    }
    this.collapseWindow();
    this.timeouts++;
    s.retx++;
    this.ctx.stats.retransmissions++;
    this.sendCopy(s, now);
    this.lastActive = now;
    this.rtoDeadline = Infinity;
    this.armRto(now + this.rto * this.backoff);
  }
}
