/**
 * The client's receive window growing after set-up, as Linux 3.13's receiver does it (tcp_input.c; Goel's
 * Ubuntu 14.04 hosts), in whole segments of MSS. Two rules, both on by default in Linux
 * (tcp_moderate_rcvbuf = 1) unless the application fixed its buffer (SO_RCVBUF):
 *
 * - tcp_grow_window: the window offered is rcv_ssthresh, which every in-order data segment raises by two
 *   segments (2 advmss: a full segment's buffer cost, its truesize, is within what the window may hold for it),
 *   up to window_clamp. Segments that arrive out of order (tcp_data_queue_ofo) or that a filled hole hands on
 *   from the out-of-order queue do not raise it.
 * - tcp_rcv_space_adjust (dynamic right-sizing), when the application reads: once a receiver RTT has passed
 *   since the measurement began, the space is the most of 2 x the bytes read in one such interval so far
 *   (rcvq_space.space, starting at the initial window); when it grows the buffer grows with it (up to
 *   tcp_rmem[2]) and window_clamp follows: the window may reach twice what the application read in the last
 *   round trip. The receiver's RTT (rcv_rtt_est, from the timestamps it echoes: tcp_rcv_rtt_measure_ts) is a
 *   1/8 moving average of its samples.
 *
 * The model starts rcv_ssthresh, window_clamp and the space at the initial window (the buffer's full space is
 * what was advertised at set-up: Goel's 65 KB), and its application reads every in-order byte at once (Chromium
 * reads its sockets as data comes), so the buffer's free space never binds below rcv_ssthresh and the window
 * offered is rcv_ssthresh; it never shrinks (neither rule lowers it; memory pressure, tcp_clamp_window, is not
 * modelled). The measurement starts at the first data segment (Linux's at the connection's establishment,
 * whose first interval the TLS handshake's reads close).
 */
import { MSS } from './bottleneck.ts';

/** tcp_grow_window's step per in-order full segment: 2 * advmss. */
export const GROWTH_PER_SEGMENT = 2;
/** Ubuntu 14.04's tcp_rmem[2] (6 MB): the largest receive buffer autotuning reaches. */
export const TCP_RMEM_MAX = 6 * 1024 * 1024;
/** The largest window that buffer offers: half of it (tcp_adv_win_scale 1), whole segments. */
export const MAX_WINDOW_SEGMENTS = Math.floor(TCP_RMEM_MAX / 2 / MSS);

/** One connection's receive-window state (Linux's names in the comments). */
export interface ReceiveWindow {
  /** rcv_ssthresh: the window offered. */
  threshold: number;
  /** window_clamp: the most rcv_ssthresh may reach. */
  clamp: number;
  /** rcvq_space.space: the most segments 2 x one receiver RTT's reads made so far. */
  space: number;
  /** rcvq_space.time / .seq: when the current measurement began (NaN: not yet) and the segments read by then. */
  measureFrom: number;
  readAtStart: number;
  /** rcv_rtt_est.rtt, ms (NaN: no sample yet). */
  rtt: number;
}

export function newReceiveWindow(initialSegments: number): ReceiveWindow {
  return { threshold: initialSegments, clamp: initialSegments, space: initialSegments, measureFrom: NaN, readAtStart: 0, rtt: NaN };
}

/** tcp_rcv_rtt_update with timestamps: the first sample, then 7/8 of the estimate plus 1/8 of the sample. */
export function receiverRttSample(w: ReceiveWindow, sample: number): void {
  w.rtt = Number.isNaN(w.rtt) ? sample : w.rtt + (sample - w.rtt) / 8;
}

/**
 * An in-order data segment arrived and the application read everything in order so far (`read` segments) at
 * `now`; `rttSample` its receiver RTT sample (NaN: none). Returns whether the window offered grew (Linux then
 * ACKs at once: icsk_ack.quick).
 */
export function onInOrderSegment(w: ReceiveWindow, now: number, rttSample: number, read: number): boolean {
  if (!Number.isNaN(rttSample)) receiverRttSample(w, rttSample);
  const before = w.threshold;
  if (w.threshold < w.clamp) w.threshold = Math.min(w.threshold + GROWTH_PER_SEGMENT, w.clamp);
  adjustSpace(w, now, read);
  return w.threshold > before;
}

/** tcp_rcv_space_adjust on a read at `now` with `read` segments read in all. */
export function adjustSpace(w: ReceiveWindow, now: number, read: number): void {
  if (Number.isNaN(w.measureFrom)) {
    w.measureFrom = now;
    w.readAtStart = read;
    return;
  }
  if (Number.isNaN(w.rtt) || now - w.measureFrom < w.rtt) return;
  const space = 2 * (read - w.readAtStart);
  if (space > w.space) {
    w.space = space;
    // The buffer grows to hold `space` (capped at tcp_rmem[2]) and window_clamp follows it.
    if (space > w.clamp) w.clamp = Math.min(space, MAX_WINDOW_SEGMENTS);
  }
  w.measureFrom = now;
  w.readAtStart = read;
}
