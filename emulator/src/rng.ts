/**
 * Seeded pseudo-random numbers. Each source of randomness (RED drops, server delays) draws from its own
 * substream derived from (seed, stream), like ns-3's run-number substreams (thesis §3.7.7.4), so that
 * changing how often one source draws never shifts another source's numbers.
 */
export class Rng {
  private state: number;

  constructor(seed: number, stream: number) {
    // splitmix32-style mixing so neighbouring seeds/streams give unrelated sequences.
    let h = (Math.imul(seed | 0, 0x9e3779b1) ^ Math.imul(stream + 1, 0x85ebca6b)) >>> 0;
    h = Math.imul(h ^ (h >>> 16), 0x7feb352d) >>> 0;
    h = Math.imul(h ^ (h >>> 15), 0x846ca68b) >>> 0;
    this.state = (h ^ (h >>> 16)) >>> 0;
  }

  /** Uniform in [0, 1) (mulberry32). */
  next(): number {
    let t = (this.state = (this.state + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
}

export const STREAM_RED = 1;
export const STREAM_SERVER_DELAY = 2;
export const STREAM_RTT_JITTER = 3;
export const STREAM_PATH2_LOSS = 4;
export const STREAM_PATH2_RED = 5;
