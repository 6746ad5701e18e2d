/**
 * What a sender's loss detection makes of re-ordered segments (a link schedule with `reorder`: netem holding
 * each packet for its slice's delay, so packets sent after a delay drop overtake earlier ones). A segment
 * that is only late looks lost once enough segments above it were acknowledged; the sender retransmits it
 * and cuts its window as for a loss. What each scheme then does (tcp.ts applies it):
 * - `sack`, as Linux 3.13 (Goel's hosts): the segment is deemed lost at the connection's reordering degree
 *   (tp->reordering, DUP_THRESH = 3 at first) segments SACKed above it, or with FACK once one that far above
 *   it is SACKed. When a segment that was never retransmitted is SACKed or cumulatively acknowledged below
 *   the highest acknowledged one, the distance is the reordering it saw (`reorderingMetric`), and
 *   tcp_update_reordering raises the degree to it (at most TCP_MAX_REORDERING, 127), turning FACK off when
 *   it rises and early retransmit off at any reordering (`raisedReordering`). A window cut is undone when the
 *   hole at the cumulative point was filled by the original, sent before the recovery's first
 *   retransmission: with timestamps on (Goel's and Linux's default) the ACK echoes the original's time,
 *   older than the retransmission (tcp_packet_delayed, the Eifel test that tcp_try_undo_recovery and
 *   tcp_try_undo_partial apply); the window and threshold come back as before the cut (CUBIC's undo_cwnd:
 *   at least the window at the loss, the model's W_max). The D-SACK undo (all retransmissions of the episode
 *   reported as duplicates, tp->undo_retrans = 0) is not modelled: when the retransmission fills the hole
 *   first, the cut stays.
 * - the thesis' NACK scheme (Appendix B: the receiver NACKs a gap once more than two segments arrived after
 *   it): a late segment is NACKed at three segments above it — the same count, fixed — and the sender
 *   retransmits it and halves its window; the scheme has neither timestamps' undo nor D-SACK, so the cut
 *   stays. Its losses are still found as before (one later segment acknowledged), since those are real.
 */
/** Linux's TCP_MAX_REORDERING: the highest reordering degree a connection adopts (3.13). */
export const MAX_REORDERING = 127;

/**
 * The reordering a segment saw, in segments (Linux's fackets_out - fack_count): a segment acknowledged when
 * one `highestAcked` above it already was, counting both ends; 0 when it came in order.
 */
export function reorderingMetric(highestAcked: number, seq: number): number {
  return seq < highestAcked ? highestAcked - seq + 1 : 0;
}

/** The connection's reordering degree after a metric (tcp_update_reordering: only up, capped). */
export function raisedReordering(degree: number, metric: number): number {
  return metric > degree ? Math.min(MAX_REORDERING, metric) : degree;
}

/**
 * Whether a late segment is deemed lost on an ACK that acknowledged one `above` segments beyond it, having
 * counted `sackedAbove` acknowledged above it so far (this one included): by count, or with FACK by distance.
 */
export function lateSegmentLost(sackedAbove: number, above: number, degree: number, fack: boolean): boolean {
  return sackedAbove >= degree || (fack && above >= degree);
}
