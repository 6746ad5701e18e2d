/**
 * CUBIC's congestion-avoidance increase (RFC 8312; Linux's bictcp_update), per ACK. The window follows
 * W_cubic(t) = W_max + C (t - K)^3 from the epoch's start (the first ACK in congestion avoidance after a
 * reduction), K = cbrt((W_max - cwnd) / C), t counted from the epoch plus one SRTT as Linux does. In the
 * TCP-friendly region (RFC 8312 §4.2; Linux's `tcp_friendliness`, on by default since CUBIC's first version)
 * the window grows at least as an AIMD flow with the same average rate would: W_est starts at cwnd and grows
 * by ALPHA = 3 (1 - beta) / (1 + beta) segments per RTT (ALPHA / cwnd per ACK). At small windows and short
 * RTTs that region is where CUBIC runs: without it a window cut from 3 to 2 segments takes
 * K = cbrt(1 / 0.4) = 1.4 s to come back, whatever the RTT.
 */

export const CUBIC_C = 0.4;
/** The multiplicative decrease (Linux's 717/1024). */
export const CUBIC_BETA = 0.7;
/** RFC 8312's AIMD increase in the TCP-friendly region, segments per RTT. */
export const CUBIC_ALPHA = (3 * (1 - CUBIC_BETA)) / (1 + CUBIC_BETA);

export interface CubicState {
  /** The window before the last reduction. */
  wMax: number;
  /** When the current epoch began, ms; negative: none yet (begins on the next ACK). */
  epochStart: number;
  /** Seconds from the epoch's start to W_max. */
  k: number;
  /** RFC 8312's W_est, the AIMD flow's window. */
  wEst: number;
}

export function newCubicState(): CubicState {
  return { wMax: 0, epochStart: -1, k: 0, wEst: 0 };
}

/** A window reduction at `cwnd`: the next epoch starts from it. */
export function cubicReduced(st: CubicState, cwnd: number): void {
  st.wMax = cwnd;
  st.epochStart = -1;
}

/** The window's increase, in segments, on one ACK in congestion avoidance at `now` (ms), SRTT in ms. */
export function cubicIncrease(st: CubicState, cwnd: number, now: number, srtt: number): number {
  if (st.epochStart < 0) {
    st.epochStart = now;
    st.wEst = cwnd;
    if (cwnd < st.wMax) st.k = Math.cbrt((st.wMax - cwnd) / CUBIC_C);
    else {
      st.k = 0;
      st.wMax = cwnd;
    }
  }
  const t = (now - st.epochStart + (Number.isNaN(srtt) ? 0 : srtt)) / 1000;
  const target = st.wMax + CUBIC_C * (t - st.k) ** 3;
  const cubic = target > cwnd ? (target - cwnd) / cwnd : 0.01 / cwnd;
  st.wEst += CUBIC_ALPHA / cwnd;
  return st.wEst > cwnd ? Math.max(cubic, (st.wEst - cwnd) / cwnd) : cubic;
}
