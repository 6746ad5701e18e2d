/**
 * Linux 3.13's tcp_time_to_recover, "Trick#4" (before RACK replaced it in 4.x): a sender that can send nothing
 * new (the receive window full, or no data) cannot wait for the reordering degree's count of SACKed segments
 * above a hole. With no more than `reordering` segments outstanding and at least half of them, and at least
 * sysctl_tcp_reordering (3), SACKed, it enters recovery; the hole at the cumulative point is deemed lost
 * (tcp_update_scoreboard's fast_rexmit: tcp_mark_head_lost(sk, 1, 1)) and sent again. Without re-ordering the
 * degree is 3 and the case cannot arise (three SACKed out of three outstanding leave no hole).
 */
/** What the sender knows when an ACK arrives (Linux's names). */
export interface LimitedRecoveryState {
  /** Segments sent and not cumulatively acknowledged. */
  packetsOut: number;
  /** Of those, segments the client acknowledged selectively. */
  sackedOut: number;
  /** The connection's reordering degree (tp->reordering). */
  reordering: number;
  /** The degree a connection starts with (sysctl_tcp_reordering: tcp.ts's DUP_THRESH, 3). */
  initialReordering: number;
  /** A new segment could leave now (data waiting and room in both windows). */
  maySendNow: boolean;
}

/** Whether the ACK starts a recovery by Trick#4. */
export function limitedRecoveryDue(s: LimitedRecoveryState): boolean {
  return s.packetsOut <= s.reordering && s.sackedOut >= Math.max(Math.floor(s.packetsOut / 2), s.initialReordering) && !s.maySendNow;
}
