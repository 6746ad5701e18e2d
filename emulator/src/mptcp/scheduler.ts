/**
 * MPTCP packet schedulers (thesis §6.2.2, §6.4.1), as pure functions of the subflows' state:
 * - minRttChoice: the default scheduler: the subflow with the lowest RTT among those with room in their
 *   congestion window;
 * - streamChoice: the HTTP-aware Stream Scheduler (Algorithms 6 and 7): a subflow is viable for a resource
 *   when one packet on it arrives (RTT/2) no later than alpha, the earliest time the resource's remaining
 *   bytes (with lookahead: those of every resource up to it in the send buffer) could all arrive on one
 *   subflow; among viable subflows with room, the one with the highest RTT sends (it becomes unviable
 *   first); with none viable, the scheduler waits;
 * - estimateCompletion: Algorithm 8, the completion estimator, with this emulator's slow start (every
 *   segment is ACKed, so the window doubles per RTT where the thesis' delayed ACKs gave x1.5).
 */
import { MSS } from '../network/bottleneck.ts';

export interface SubflowView {
  /** Smoothed RTT (before the first sample: the handshake's), ms. */
  rtt: number;
  /** Congestion window and slow-start threshold, segments. */
  cwnd: number;
  ssthresh: number;
  inRecovery: boolean;
  /** Joined and with room in its congestion window for one more segment. */
  available: boolean;
  /** Joined (usable at all). */
  up: boolean;
}

/** Window growth per RTT in slow start: one segment per ACKed segment. */
export const SLOW_START_GROWTH = 2;

/** Index of the available subflow with the lowest RTT (ties: the lower index), or -1. */
export function minRttChoice(flows: readonly SubflowView[]): number {
  let best = -1;
  for (let i = 0; i < flows.length; i++) {
    const f = flows[i]!;
    if (f.available && (best < 0 || f.rtt < flows[best]!.rtt)) best = i;
  }
  return best;
}

/** Algorithm 8: ms from now until `bytes` sent on subflow f have all arrived. */
export function estimateCompletion(bytes: number, f: SubflowView): number {
  const rtt = f.rtt;
  // During recovery cwnd is not the sending rate; ssthresh holds the window the loss left (§6.4.1.2).
  let w = (f.inRecovery ? f.ssthresh : f.cwnd) * MSS;
  const ssthresh = f.ssthresh * MSS;
  let total = rtt / 2;
  let remaining = bytes;
  while (remaining > 0) {
    if (w < ssthresh) {
      total += remaining >= w ? rtt : remaining / (w / rtt);
      remaining -= w;
      w *= SLOW_START_GROWTH;
    } else {
      total += remaining / (w / rtt);
      remaining = 0;
    }
  }
  return total;
}

/**
 * The Stream Scheduler's choice: [resource index, subflow index], or null to wait. `remaining(k)` is the
 * unsent bytes of the k-th of `n` resources in send-buffer order; without lookahead only the first counts.
 */
export function streamChoice(n: number, remaining: (k: number) => number, flows: readonly SubflowView[], lookahead: boolean): [number, number] | null {
  let bytes = 0;
  const last = lookahead ? n : Math.min(n, 1);
  for (let k = 0; k < last; k++) {
    bytes += remaining(k);
    let alpha = Infinity;
    for (const f of flows) if (f.up) alpha = Math.min(alpha, estimateCompletion(bytes, f));
    let pick = -1;
    for (let i = 0; i < flows.length; i++) {
      const f = flows[i]!;
      if (f.available && f.rtt / 2 <= alpha && (pick < 0 || f.rtt > flows[pick]!.rtt)) pick = i;
    }
    if (pick >= 0) return [k, pick];
  }
  return null;
}
