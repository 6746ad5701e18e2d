/**
 * MPTCP's Linked Increases Algorithm (RFC 6356 §3; thesis §6.2.3, equation 6.1): in congestion avoidance an
 * ACK on subflow i grows its window by min(alpha / w_total, 1 / w_i) segments, with
 * alpha = w_total * max_r(w_r / rtt_r^2) / (sum_r w_r / rtt_r)^2. Slow start and the halving on loss stay
 * per subflow. With one subflow, alpha / w_total = 1 / w: plain NewReno.
 */
export interface SubflowWindow {
  /** Congestion window, segments. */
  cwnd: number;
  /** Smoothed RTT, ms (any unit: alpha is scale-free in it). */
  rtt: number;
}

/** The LIA increase of subflow i per ACKed segment, in segments. */
export function liaIncrease(flows: readonly SubflowWindow[], i: number): number {
  let total = 0;
  let best = 0;
  let sum = 0;
  for (const f of flows) {
    total += f.cwnd;
    best = Math.max(best, f.cwnd / (f.rtt * f.rtt));
    sum += f.cwnd / f.rtt;
  }
  const alpha = (total * best) / (sum * sum);
  return Math.min(alpha / total, 1 / flows[i]!.cwnd);
}
