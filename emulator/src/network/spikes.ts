/**
 * Latency spikes (Goel 2017: cellular links stall suddenly, and TCP may take the stall for loss): spikes
 * start as a Poisson process (mean gap `intervalMs`) and last `durationMs`; a packet that would leave the
 * link during a spike leaves when it ends. The stall sits after the queue (radio-layer retransmissions,
 * a handover), so it holds packets without dropping them, and keeps them in order.
 */
import { ConfigError, parseTime } from '../config.ts';
import type { Rng } from '../rng.ts';

export interface SpikeSpec {
  intervalMs: number;
  durationMs: number;
}

export class LatencySpikes {
  private start = -Infinity;
  private end = -Infinity;

  constructor(private readonly spec: SpikeSpec, private readonly rng: Rng) {}

  /** A departure time (non-decreasing across calls) moved past any spike it falls in. */
  hold(t: number): number {
    while (this.end <= t) {
      // Exponential gap after the previous spike (from time 0 for the first).
      const gap = -Math.log(1 - this.rng.next()) * this.spec.intervalMs;
      this.start = Math.max(0, this.end) + gap;
      this.end = this.start + this.spec.durationMs;
    }
    return t >= this.start ? this.end : t;
  }
}

/** `INTERVAL,DURATION` in tc time units: `2s,300ms` = a 300 ms stall every 2 s on average. */
export function parseSpikes(s: string): SpikeSpec {
  const parts = s.split(',');
  if (parts.length !== 2) throw new ConfigError(`latency spikes '${s}': expected MEAN_INTERVAL,DURATION, e.g. 2s,300ms`);
  const intervalMs = parseTime(parts[0]!);
  const durationMs = parseTime(parts[1]!);
  if (!(intervalMs > 0) || !(durationMs > 0)) throw new ConfigError(`latency spikes '${s}': interval and duration must be positive`);
  return { intervalMs, durationMs };
}
