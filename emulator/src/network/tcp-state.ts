/**
 * The parts of a TcpConnection's state (tcp.ts) that only some links and hosts use, each a side object the
 * connection allocates only where its mechanism is on (null elsewhere): delayed ACKs, the receive window's
 * growth, a re-ordering link's loss and undo bookkeeping, F-RTO's pending undo, early retransmit's held timer,
 * tail-loss probes. The connection keeps inline what every ACK and segment of every link reads; these fields,
 * inline, made a 94-field object of which the median configuration used about half, spread over its cache lines
 * with a heap number allocated for each double among them (issue 17, session 18).
 */
import type { ReceiveWindow } from './receive-window.ts';

/**
 * The client's delayed-ACK parameters: the timer, the ACK every `everyNth` segments (`countBytes`: Linux's
 * rule, an ACK once more than (N - 1) full segments are unacknowledged; otherwise a count of segments of any
 * size, as ns-3's m_delAckCount), the quick-ACK segments at the start and after an idle RTO, and the
 * allowance a tail-loss probe timeout adds for a delayed ACK when one segment is in flight.
 */
export interface DelayedAckPolicy {
  timeoutMs: number;
  everyNth: number;
  countBytes: boolean;
  quickAcks: number;
  probeAllowanceMs: number;
}

/** The client's delayed-ACK state under `policy` (Linux's __tcp_ack_snd_check, or the thesis' ns-3). */
export class DelayedAckState {
  /** Segments still ACKed at once (quick-ACK mode). */
  quickAcks: number;
  /** When the last data segment arrived (-1: none yet). */
  lastArrival = -1;
  /** The delayed-ACK timer is pending, and its generation (a timer of an older one is stale). */
  armed = false;
  gen = 0;
  /** Bytes and segments arrived since the last ACK left. */
  unackedBytes = 0;
  unackedSegs = 0;

  constructor(readonly policy: DelayedAckPolicy) {
    this.quickAcks = policy.quickAcks;
  }
}

/** The delayed-ACK state a connection needs: none when every segment is ACKed at once (no policy). */
export function delayedAckState(policy: DelayedAckPolicy | undefined): DelayedAckState | null {
  return policy === undefined ? null : new DelayedAckState(policy);
}

/**
 * `rwndGrowth`: the receiver's growing window (receive-window.ts) and the timestamps its RTT is measured by
 * (RFC 7323): when the client sent its ACK of n arrivals (by n), the server's TS.Recent (the latest ACK's send
 * time), the echo each segment carries (by sequence number; undefined: sent before any ACK, no sample), and by
 * arrival index the window the client offered once that arrival was in (its ACK's window field).
 */
export class GrowingWindow {
  readonly ackSentAt: number[] = [];
  readonly tsEcr: number[] = [];
  readonly offeredAt: number[] = [];
  tsRecent = NaN;

  constructor(readonly window: ReceiveWindow) {}
}

/**
 * A re-ordering link's bookkeeping (reordering.ts): by sequence number when each segment's original copy
 * reaches the client (Infinity: lost, or a retransmission got there first); the reordering degree (Linux's
 * tp->reordering); the highest sequence number acknowledged; with `sack`, the recovery's cut to undo (NaN:
 * nothing) and the episode's retransmissions not yet D-SACKed (undo_retrans) from its first sequence number
 * (undo_marker); the client's duplicates whose ACK, carrying their D-SACK, is on its way, and when it reaches the
 * server; and the counts of late segments deemed lost, window cuts only they caused, cuts undone, of them by
 * D-SACK.
 */
export class ReorderingState<S> {
  readonly origArrives: number[] = [];
  highestAcked = -1;
  undoCwnd = NaN;
  undoSsthresh = Infinity;
  undoRetrans = 0;
  undoMarker = 0;
  readonly dsackSegs: S[] = [];
  readonly dsackAt: number[] = [];
  dsackHead = 0;
  spuriousLosses = 0;
  lateCuts = 0;
  undoneCuts = 0;
  dsackUndos = 0;

  /** `dupThresh`: the reordering degree to start from (RFC 6675's DupThresh). */
  constructor(public dupThresh: number) {}

  /** A recovery's cut is pending its undo. */
  undoPending(): boolean {
    return !Number.isNaN(this.undoCwnd);
  }
}

/** `frto`: the window and threshold before a timeout that lost ACKs caused (cwnd NaN: none pending). */
export class FrtoUndo {
  cwnd = NaN;
  ssthresh = Infinity;
}

/**
 * Early retransmit's delayed retransmission (Linux's tcp_pause_early_retransmit): held on the connection's timer
 * (`armed`), in front of the RTO deadline and the probe it displaced.
 */
export class HeldRetransmit {
  armed = false;
  rtoDeadline = Infinity;
  probeArmed = false;
}

/**
 * Tail-loss probes (`tlp`, or QUIC-lite's probe timeout): whether the outstanding probe refilled a real loss,
 * the RTO deadline a pending probe stands in front of (`sack`), and for instrumentation (scripts/goel/tlp-trace.ts)
 * the probes sent, of them with new data, retransmissions that refilled a real loss, the window cuts their ACKs
 * made (RFC 8985 §7.4) and the windows they were sent at, summed.
 */
export class ProbeState {
  repaired = false;
  rtoAt = Infinity;
  probes = 0;
  probesNew = 0;
  probesRepairing = 0;
  probeCuts = 0;
  probeCwndSum = 0;
}
