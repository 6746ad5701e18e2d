/**
 * Normalisation for consistent emulation (thesis §3.7.4): every node is marked pre-dom / pre-load /
 * post-load relative to the main frame's DOMContentLoaded and load; timers firing after load are
 * disabled (they vary from run to run and do not delay the page's completion); timer delays over one
 * second are trimmed to one second, negative ones (seen in real logs) raised to 0; the original delay is
 * kept in extra.originalDelay.
 */
import type { GraphNode } from './format/types.ts';

export const MAX_TIMER_DELAY_MS = 1000;

export interface NormaliseOptions {
  /** Keep post-load timers enabled (default false). */
  keepPostLoadTimers?: boolean;
  /** Trim threshold, ms (default 1000). */
  maxTimerDelay?: number;
}

export function normalise(nodes: GraphNode[], times: { domContentLoaded: number; load: number }, options: NormaliseOptions = {}): void {
  const maxDelay = options.maxTimerDelay ?? MAX_TIMER_DELAY_MS;
  for (const n of nodes) {
    if (n.kind === 'marker') {
      n.phase = n.markerName === 'domContentLoaded' ? 'pre-dom' : 'pre-load';
      continue;
    }
    n.phase = n.start < times.domContentLoaded ? 'pre-dom' : n.start <= times.load ? 'pre-load' : 'post-load';
    if (n.kind !== 'timer') continue;
    if (n.phase === 'post-load' && !options.keepPostLoadTimers) n.disabled = true;
    if (n.timerDelay < 0) {
      // Real logs carry a few (the delay as the page passed it): the browser runs them as 0.
      n.extra = { ...n.extra, originalDelay: n.timerDelay };
      n.timerDelay = 0;
    }
    if (n.timerDelay > maxDelay) {
      n.extra = { ...n.extra, originalDelay: n.timerDelay };
      n.timerDelay = maxDelay;
    }
  }
}
