/**
 * What was running: the activity slice responsible for work at an instant on a thread. It is the
 * innermost slice enclosing the instant, unless an async task run nested inside it (or outside any slice)
 * encloses the instant: then whatever scheduled that task, followed back through its flow (an image's
 * load is a microtask queued when its src was set, a postMessage a task queued by the sender).
 *
 * Finalize also marks the slices that run as such a task with what scheduled them (Slice.scheduledBy,
 * scheduledAt, asyncTask), and links a callback that nothing else accounts for (a MessagePort's message
 * handler) to what posted its task, when the trace has posted-task flows (Slice.postedFrom).
 */
import type { Handler } from '../../handler.ts';
import type { Slice } from '../load.ts';
import type { TraceEvent } from '../trace-events.ts';
import { ready } from './run.ts';
import type { SliceData } from './slices.ts';
import type { FlowRunData } from './task-flows.ts';

export interface InitiatorData {
  /** The activity slice (index) responsible for work at `time` on `thread`. */
  enclosing: (thread: string, time: number) => number | undefined;
  /** Top-level callbacks that no slice or async task accounts for. */
  orphans: Slice[];
  /** Whether the trace has posted-task flows to link orphans with (looked at only when there are orphans). */
  taskFlows: boolean;
}

type Deps = { slices: SliceData; asyncTasks: FlowRunData; postedTasks: FlowRunData };

/** The async task run a slice runs in, with the slice it resumes. */
function markScheduled(slices: Slice[], asyncTasks: FlowRunData): void {
  for (const sl of slices) {
    const r = asyncTasks.innermost(sl.thread, sl.start);
    const run = r !== undefined ? asyncTasks.runs[r]! : undefined;
    if (!run || run.scheduler === undefined || run.end < sl.end) continue;
    const parent = sl.parent !== undefined ? slices[sl.parent]! : undefined;
    if (parent && parent.start > run.start) continue;
    sl.scheduledBy = run.scheduler;
    sl.scheduledAt = run.at!.time;
    if (run.task) sl.asyncTask = run.task;
  }
}

/** Links each orphan callback to what posted the task it runs in; returns whether there were posted tasks. */
function linkPosted(orphans: Slice[], postedTasks: FlowRunData, enclosing: InitiatorData['enclosing']): boolean {
  if (orphans.length === 0) return false;
  const tasks = postedTasks.runs;
  for (const sl of orphans) {
    const t = postedTasks.innermost(sl.thread, sl.start);
    const task = t !== undefined ? tasks[t]! : undefined;
    if (!task?.at || task.end < sl.end) continue;
    const poster = enclosing(task.at.thread, task.at.time);
    if (poster === undefined) continue;
    sl.scheduledBy = poster;
    sl.scheduledAt = task.at.time;
    if (task.postedFrom) sl.postedFrom = task.postedFrom;
  }
  return tasks.length > 0;
}

export function initiatorHandler(): Handler<TraceEvent, InitiatorData, Deps> {
  let out: InitiatorData | undefined;
  return {
    kinds: [],
    deps: ['slices', 'asyncTasks', 'postedTasks'],
    reset() {
      out = undefined;
    },
    handleEvent() {},
    finalize({ slices: { slices, innermost: innermostSlice }, asyncTasks, postedTasks }) {
      const runs = asyncTasks.runs;
      const enclosing = (thread: string, time: number): number | undefined => {
        const sl = innermostSlice(thread, time);
        const r = asyncTasks.innermost(thread, time);
        const run = r !== undefined ? runs[r]! : undefined;
        if (run?.scheduler !== undefined && (sl === undefined || slices[sl]!.start <= run.start)) return run.scheduler;
        return sl;
      };
      // Runs in start order: a schedule point precedes its run, so an enclosing run is already resolved.
      for (const run of runs) if (run.at) run.scheduler = enclosing(run.at.thread, run.at.time);
      markScheduled(slices, asyncTasks);
      const orphans = slices.filter((sl) => sl.kind === 'function' && sl.parent === undefined && sl.scheduledBy === undefined);
      const taskFlows = linkPosted(orphans, postedTasks, enclosing);
      out = { enclosing, orphans, taskFlows };
    },
    data: () => ready(out, 'initiators'),
  };
}
