/**
 * From raw trace events to the facts the graph needs (TraceLoad, ./load.ts), in page time: one pass of
 * the handlers (./handlers/: frames, threads, slices, async and posted tasks, initiators, requests,
 * timers, marks) over the events, each finalized after the handlers it depends on.
 *
 * "What was running" (handlers/initiators.ts) is the innermost activity slice on the same thread
 * enclosing an instant event: it corrects initiators that Chromium reports too coarsely (an image created
 * in an XHR handler reports a parser initiator; one created in a timer callback reports "other").
 */
import type { ExtractOptions, Slice, TimerInstall, TraceLoad, TraceRequest } from './load.ts';
import type { TraceEvent } from './trace-events.ts';
import { frameHandler } from './handlers/frames.ts';
import { initiatorHandler } from './handlers/initiators.ts';
import { loaderStartHandler } from './handlers/loader-starts.ts';
import { mainThreadTaskHandler } from './handlers/main-thread-tasks.ts';
import { markHandler } from './handlers/marks.ts';
import { requestHandler } from './handlers/requests.ts';
import { runHandlers } from './handlers/run.ts';
import { sliceHandler } from './handlers/slices.ts';
import { asyncTaskHandler, postedTaskHandler } from './handlers/task-flows.ts';
import { threadHandler } from './handlers/threads.ts';
import { timerHandler } from './handlers/timers.ts';

export type * from './load.ts';
export { TraceContentError } from './errors.ts';

/** The trace adapter's handler set, fresh for one trace. */
export function traceHandlers(options: ExtractOptions = {}) {
  return {
    frames: frameHandler(options),
    threads: threadHandler(),
    slices: sliceHandler(options),
    asyncTasks: asyncTaskHandler(),
    postedTasks: postedTaskHandler(),
    initiators: initiatorHandler(),
    loaderStarts: loaderStartHandler(),
    requests: requestHandler(options.loggedDocuments),
    timers: timerHandler(),
    marks: markHandler(),
    mainThreadTasks: mainThreadTaskHandler(),
  };
}

export function extractTrace(events: Iterable<TraceEvent>, options: ExtractOptions = {}): TraceLoad {
  const { frames, slices, initiators, requests, timers, marks, mainThreadTasks } = runHandlers(events, traceHandlers(options));
  const outOfProcess = options.outOfProcessFrames?.size ?? 0;
  const unlinked = initiators.taskFlows && outOfProcess === 0 ? undefined : unlinkedCallbacks(initiators.orphans, requests.requests, timers.timers, initiators.taskFlows, outOfProcess);
  return {
    origin: frames.origin,
    mainFrame: frames.mainFrame,
    frames: [...frames.frames.values()].sort((a, b) => (a.id === frames.mainFrame ? -1 : b.id === frames.mainFrame ? 1 : 0)),
    requests: requests.requests,
    slices: slices.slices,
    timers: timers.timers,
    marks: marks.marks,
    mainThreadTasks: mainThreadTasks.tasks,
    warnings: [...frames.warnings, ...requests.warnings, ...(unlinked ? [unlinked] : [])],
  };
}

/**
 * Callbacks that issued requests or timers with nothing in the trace that scheduled them: without
 * posted-task flows a MessagePort message's handler cannot be linked to its sender, and with site
 * isolation a window message from an out-of-process iframe has no link either way (async-task ids are
 * per renderer).
 */
function unlinkedCallbacks(orphans: Slice[], requests: TraceRequest[], timers: TimerInstall[], taskFlows: boolean, outOfProcessFrames: number): string | undefined {
  const issuing = new Set([...requests, ...timers].map((x) => x.runningAt));
  const unlinked = orphans.filter((sl) => sl.scheduledBy === undefined && issuing.has(sl.index));
  if (unlinked.length === 0) return undefined;
  return (
    `${unlinked.length} callback(s) issued requests or timers with nothing in the trace that scheduled them ` +
    `(${unlinked.map((sl) => sl.functionName || 'anonymous').join(', ')})` +
    (taskFlows ? '' : '; a MessagePort message is linked to its sender only through posted-task flows: capture with pcp profile --task-flows') +
    (outOfProcessFrames > 0
      ? `; ${outOfProcessFrames} iframe(s) ran in a renderer of their own, and a window message from one is not linked to its sender in the trace: capture with pcp profile --no-site-isolation`
      : '')
  );
}
