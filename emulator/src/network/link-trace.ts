/**
 * Variable-rate links from Mahimahi traces (mm-link): a text file with one integer per line, a timestamp in
 * ms at which the link may deliver one MTU-sized packet (1500 bytes); the same timestamp on several lines
 * gives several opportunities at once; the trace repeats forever with a period of its last timestamp.
 * Bytes of the queue's head packet are taken from each opportunity in turn, so small packets share an
 * opportunity and a 1500-byte packet takes one whole; an opportunity with nothing queued is wasted (as
 * Mahimahi's LinkQueue does).
 */
import { ConfigError } from '../config.ts';

/**
 * node:fs, looked up only when a trace file is read: config.ts (and so this module) is also bundled into the
 * viewer's browser client (@pcp/emulator/config), where a static node:fs import cannot resolve.
 */
function readText(path: string): string {
  const fs = globalThis.process?.getBuiltinModule?.('node:fs');
  if (!fs) throw new Error('link trace files can only be read under Node');
  return fs.readFileSync(path, 'utf8');
}

/** Bytes one delivery opportunity carries. */
export const TRACE_MTU = 1500;

export interface LinkTrace {
  /** Opportunity times within one period, ms, non-decreasing. */
  readonly times: Float64Array;
  /** Period: the last timestamp. */
  readonly periodMs: number;
  /** Mean rate, bits per second. */
  readonly meanBps: number;
  /** Where it came from (a file path, or 'inline'). */
  readonly source: string;
}

export function parseTrace(text: string, source = 'inline'): LinkTrace {
  const out: number[] = [];
  let lineNo = 0;
  let prev = 0;
  for (const raw of text.split('\n')) {
    lineNo++;
    const line = raw.trim();
    if (line === '') continue;
    if (!/^\d+$/.test(line)) throw new ConfigError(`${source}:${lineNo}: not a millisecond timestamp: '${line.slice(0, 40)}'`);
    const t = Number(line);
    if (t < prev) throw new ConfigError(`${source}:${lineNo}: timestamps must not decrease (${t} after ${prev})`);
    prev = t;
    out.push(t);
  }
  return traceFromTimes(out, source);
}

export function traceFromTimes(times: readonly number[], source = 'inline'): LinkTrace {
  if (times.length === 0) throw new ConfigError(`${source}: an empty link trace`);
  const period = times[times.length - 1]!;
  if (!(period > 0)) throw new ConfigError(`${source}: the last timestamp (the trace's period) must be positive`);
  for (let i = 1; i < times.length; i++) if (!(times[i]! >= times[i - 1]!)) throw new ConfigError(`${source}: timestamps must not decrease`);
  return { times: Float64Array.from(times), periodMs: period, meanBps: (times.length * TRACE_MTU * 8 * 1000) / period, source };
}

const cache = new Map<string, LinkTrace>();

/** Reads (once per process) a trace file; one-line error when it is missing or malformed. */
export function loadTrace(path: string): LinkTrace {
  let t = cache.get(path);
  if (t) return t;
  let text: string;
  try {
    text = readText(path);
  } catch (e) {
    throw new ConfigError(`cannot read link trace '${path}': ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  t = parseTrace(text, path);
  cache.set(path, t);
  return t;
}

/**
 * The link's service of a FIFO queue under the trace: for packets offered in time order, the time each one
 * has been wholly delivered. Stateful: the current opportunity and the bytes left in it.
 */
export class TraceServer {
  /** Index of the current opportunity, counted over all periods (k = cycle * n + i). */
  private k = -1;
  private left = 0;
  private readonly n: number;

  constructor(private readonly trace: LinkTrace) {
    this.n = trace.times.length;
  }

  private timeOf(k: number): number {
    const n = this.n;
    const cycle = Math.floor(k / n);
    return cycle * this.trace.periodMs + this.trace.times[k - cycle * n]!;
  }

  /** The first opportunity at or after t. */
  private firstAt(t: number): number {
    const n = this.n;
    const P = this.trace.periodMs;
    // The cycle whose opportunities span (cycle*P, (cycle+1)*P]: one at exactly t may end the previous cycle.
    const cycle = Math.max(0, Math.ceil(t / P) - 1);
    const within = t - cycle * P;
    const ts = this.trace.times;
    let lo = 0;
    let hi = n; // binary search: first index with ts[i] >= within
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (ts[mid]! < within) lo = mid + 1;
      else hi = mid;
    }
    return cycle * n + lo;
  }

  /** A packet of `bytes` joins the queue at time t; returns when its last byte is delivered. */
  serve(t: number, bytes: number): number {
    if (this.k < 0 || this.timeOf(this.k) < t) {
      // The queue drained before t: the opportunities until t went unused.
      this.k = this.firstAt(t);
      this.left = TRACE_MTU;
    } else if (this.left <= 0) {
      this.k++;
      this.left = TRACE_MTU;
    }
    let need = bytes;
    for (;;) {
      const take = Math.min(need, this.left);
      need -= take;
      this.left -= take;
      if (need <= 0) break;
      this.k++;
      this.left = TRACE_MTU;
    }
    return this.timeOf(this.k);
  }
}
