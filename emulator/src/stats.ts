/** Small statistics shared by the CLI and the thesis tables. */
import type { SimResult } from './simulator.ts';

export function median(xs: readonly number[]): number {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/** The q-quantile (0..1) by linear interpolation between order statistics (NumPy's default). */
export function quantile(xs: readonly number[], q: number): number {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const h = (s.length - 1) * q;
  const lo = Math.floor(h);
  return s[lo]! + (h - lo) * ((s[Math.min(lo + 1, s.length - 1)] ?? s[lo]!) - s[lo]!);
}

/** Medians over runs of the completion metrics, drops and retransmissions. */
export function summarizeRuns(runs: readonly SimResult[]): { loadTime: number; domContentLoadedTime: number; endTime: number; drops: number; retransmissions: number } {
  return {
    loadTime: median(runs.map((r) => r.loadTime)),
    domContentLoadedTime: median(runs.map((r) => r.domContentLoadedTime)),
    endTime: median(runs.map((r) => r.endTime)),
    drops: median(runs.map((r) => r.drops)),
    retransmissions: median(runs.map((r) => r.retransmissions)),
  };
}
