/**
 * Which of a page's recordings the shaped grid keeps: the one the recording host disturbed least.
 * A recording on a loaded 2-core host carries the host's load into the graph (the browser's own request
 * delays, main-thread task times), and the emulator replays those unchanged under every condition. Two
 * measures of that disturbance, both from the recording itself:
 * - the renderer main thread's waiting: for each top-level task (`RunTask`) of the main frame's renderer
 *   main thread between navigation start and the load event, wall time minus thread CPU time
 *   (`dur - tdur`): time the thread was runnable or blocked but not running. A quiet host keeps it near 0
 *   (ev-error: 706 ms of wall for 9 ms of CPU in its first task at load average 30-45);
 * - the browser's own delays the graph records (`browserDelay.request + .response` over its resources),
 *   work in the browser and network-service processes that the renderer's thread time cannot show
 *   (ev-element-load: 176-259 ms per request at load average 30-45, 0.4-28 ms on a quiet host).
 * The page's own work is the same in every recording of it, so their sum compares recordings of one
 * page; the smallest wins, ties going to the smaller load time.
 */
import type { Graph, TraceEvent } from '@pcp/graph-builder';

export interface Disturbance {
  /** Σ (wall − thread CPU) of the main renderer thread's top-level tasks up to the load event, ms. */
  mainThreadWaitMs: number;
  /** Σ browserDelay (request + response) over the graph's resources, ms. */
  browserDelayMs: number;
  /** The recorded load event, ms from navigation start (graph `navigation.load` + `navigationStartOffset`). */
  loadMs: number;
}

/** The score recordings of one page are compared by (ms; smaller is quieter). */
export function disturbanceMs(d: Disturbance): number {
  return d.mainThreadWaitMs + d.browserDelayMs;
}

/** The index of the least disturbed recording (ties: the smaller load time, then the first). Pure. */
export function leastDisturbed(candidates: readonly Disturbance[]): number {
  if (candidates.length === 0) throw new Error('no recording to choose from');
  let best = 0;
  for (let i = 1; i < candidates.length; i++) {
    const a = disturbanceMs(candidates[i]!);
    const b = disturbanceMs(candidates[best]!);
    if (a < b || (a === b && candidates[i]!.loadMs < candidates[best]!.loadMs)) best = i;
  }
  return best;
}

/**
 * The main renderer thread's waiting, from a Chrome trace: the thread that marked the main frame's load
 * (`MarkLoad`, isMainFrame), its `RunTask`s from the main document's navigation start to that mark. A
 * trace without the mark or without thread times (`tdur`) gives 0 (nothing to tell recordings apart by). Pure.
 */
export function mainThreadWaitMs(events: readonly TraceEvent[]): number {
  const load = events.find((e) => e.name === 'MarkLoad' && (e.args?.data as { isMainFrame?: boolean } | undefined)?.isMainFrame);
  if (!load) return 0;
  const starts = events.filter((e) => e.name === 'navigationStart' && e.pid === load.pid &&
    (e.args?.data as { isLoadingMainFrame?: boolean; documentLoaderURL?: string } | undefined)?.isLoadingMainFrame &&
    (e.args?.data as { documentLoaderURL?: string }).documentLoaderURL);
  const from = starts.length ? Math.min(...starts.map((e) => e.ts)) : -Infinity;
  let wait = 0;
  for (const e of events) {
    if (e.name !== 'RunTask' || e.ph !== 'X' || e.pid !== load.pid || e.tid !== load.tid) continue;
    if (e.ts < from || e.ts > load.ts) continue;
    const tdur = (e as TraceEvent & { tdur?: number }).tdur;
    if (e.dur === undefined || tdur === undefined) continue;
    wait += Math.max(0, e.dur - tdur);
  }
  return wait / 1000;
}

/** The browser's own delays the graph records, summed over its resources (ms). Pure. */
export function browserDelayMs(graph: Graph): number {
  let sum = 0;
  for (const n of graph.nodes) {
    if (n.kind !== 'resource' || !n.browserDelay) continue;
    sum += (n.browserDelay.request ?? 0) + (n.browserDelay.response ?? 0);
  }
  return sum;
}

/** Both measures and the load time of one recording. Pure. */
export function disturbance(events: readonly TraceEvent[], graph: Graph): Disturbance {
  return { mainThreadWaitMs: mainThreadWaitMs(events), browserDelayMs: browserDelayMs(graph), loadMs: graph.navigation?.load !== undefined ? graph.navigation.load + graph.navigation.navigationStartOffset : NaN };
}
