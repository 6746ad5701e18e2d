/** Small statistics shared by the CLI and the thesis tables. */
import type { SimResult } from './simulator.ts';

export { median, quantile } from '@pcp/graph-builder';
import { median } from '@pcp/graph-builder';

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
