/**
 * Early retransmit (RFC 5827) as Linux 3.5-4.x ran it (`tcp_early_retrans` = 3, the default: ER delayed by a
 * quarter of the RTT, RFC 5827's mitigation A.3): when fewer than four segments are outstanding, there are not
 * enough segments to make three duplicate ACKs, so a hole is retransmitted once a segment above it was
 * SACKed — provided no retransmission is outstanding and no new segment can be sent now (no data, or no room
 * in the windows; Linux's tcp_time_to_recover "Trick#6"). The retransmission waits max(SRTT / 4, 2 ms)
 * (tcp_pause_early_retransmit), unless the RTO would fire before that.
 */

/** Linux's lower bound on the ER delay (msecs_to_jiffies(2)). */
export const ER_MIN_DELAY_MS = 2;

/** What the sender knows when an ACK arrives (Linux's names). */
export interface ErState {
  /** Segments sent and not cumulatively acknowledged. */
  packetsOut: number;
  /** Of those, segments the client acknowledged selectively. */
  sackedOut: number;
  /** Of those, retransmissions not yet acknowledged. */
  retransOut: number;
  /** A new segment could leave now (data waiting and room in both windows). */
  maySendNow: boolean;
}

/** Whether an ACK leaves the sender in early retransmit's case (RFC 5827 §3.2, as Linux checks it). */
export function earlyRetransmitDue(s: ErState): boolean {
  return s.retransOut === 0 && s.sackedOut > 0 && s.packetsOut >= s.sackedOut + 1 && s.packetsOut < 4 && !s.maySendNow;
}

/** How long Linux holds the early retransmission back: a quarter of the smoothed RTT, at least 2 ms. */
export function earlyRetransmitDelay(srtt: number): number {
  return Math.max(srtt / 4, ER_MIN_DELAY_MS);
}
