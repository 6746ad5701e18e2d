/** Pure figures of the shaper check: goodput over a steady window, loss tolerance. */

/** (time ms, cumulative bytes) as a receiver saw them. */
export type ByteSample = readonly [number, number];

/**
 * Goodput in bit/s after a warm-up (slow start) from the first byte to the last: the bytes received
 * between the first sample at or after `firstByte + warmupMs` and the last sample, over that time.
 */
export function goodputBps(samples: readonly ByteSample[], warmupMs: number): number {
  if (samples.length < 2) return NaN;
  const t0 = samples[0]![0] + warmupMs;
  const start = samples.find((s) => s[0] >= t0) ?? samples[0]!;
  const end = samples[samples.length - 1]!;
  const ms = end[0] - start[0];
  return ms > 0 ? ((end[1] - start[1]) * 8) / (ms / 1000) : NaN;
}

/**
 * The counts of lost packets out of n, each lost independently with probability p, that a check
 * accepts: p·n ± z standard deviations of the binomial, z = 3.89 (two-sided 1 in 10,000), at least
 * one packet wide. With p = 0 only 0 is accepted.
 */
export function lossTolerance(n: number, p: number, z = 3.89): { min: number; max: number } {
  if (p <= 0) return { min: 0, max: 0 };
  const mean = n * p;
  const sd = Math.sqrt(n * p * (1 - p));
  return { min: Math.max(0, Math.floor(mean - z * sd - 1)), max: Math.ceil(mean + z * sd + 1) };
}

/** UDP probe pacing: datagrams per second that use at most `share` of the link's rate. */
export function udpRate(bandwidthBps: number, datagramBytes: number, share = 0.5, cap = 2000): number {
  const onWire = (datagramBytes + 28) * 8; // + IPv4 and UDP headers
  return Math.max(1, Math.min(cap, Math.floor((bandwidthBps * share) / onWire)));
}
