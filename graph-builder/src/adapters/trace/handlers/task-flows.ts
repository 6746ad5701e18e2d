/**
 * Runs of scheduled work and where they were scheduled from (see ../flows.ts): V8 inspector async tasks
 * (an image's load, a window.postMessage delivery) and posted tasks (a MessagePort message's delivery,
 * when the trace has toplevel.flow). Each handler keeps its flow events in the one pass; they are paired
 * on first use of the data, keeping the runs on the page's threads from time 0 on.
 */
import type { Handler } from '../../handler.ts';
import { FlowPairing, flowRuns, type FlowRun } from '../flows.ts';
import { nestSlices } from '../nesting.ts';
import { isAsyncTaskScheduled, isRunTask, type TraceEvent } from '../trace-events.ts';
import type { FrameData } from './frames.ts';
import { ready } from './run.ts';
import type { ThreadData } from './threads.ts';

export interface FlowRunData {
  /** In start order (longer first); `index` is the position here, `parent` the enclosing run. */
  runs: FlowRun[];
  /** The innermost run enclosing `time` on `thread`. */
  innermost: (thread: string, time: number) => number | undefined;
}

type FlowDeps = { frames: FrameData; threads: ThreadData };

function flowHandler(name: string, startName: string, endName: string, describe: (start: TraceEvent, end: TraceEvent, run: FlowRun) => void): Handler<TraceEvent, FlowRunData, FlowDeps> {
  let pairing = new FlowPairing(startName, endName);
  let out: FlowRunData | undefined;
  return {
    kinds: [startName, endName],
    deps: ['frames', 'threads'],
    reset() {
      pairing = new FlowPairing(startName, endName);
      out = undefined;
    },
    handleEvent: (e) => pairing.add(e),
    finalize({ frames, threads }) {
      // Paired on first use: a --task-flows trace holds many posted tasks, needed only for callbacks
      // that nothing else accounts for.
      let paired: FlowRunData | undefined;
      const get = (): FlowRunData => {
        if (!paired) {
          const runs = flowRuns(pairing.pairs(), { threads: threads.threads, origin: frames.origin, ms: frames.ms }, describe);
          paired = { runs, innermost: nestSlices(runs) };
        }
        return paired;
      };
      out = {
        get runs() {
          return get().runs;
        },
        innermost: (thread, time) => get().innermost(thread, time),
      };
    },
    data: () => ready(out, name),
  };
}

/** v8::Debugger::AsyncTaskScheduled -> AsyncTaskRun, named by the V8 task ('postMessage', 'Image', ...). */
export function asyncTaskHandler(): Handler<TraceEvent, FlowRunData, FlowDeps> {
  return flowHandler('asyncTasks', 'v8::Debugger::AsyncTaskScheduled', 'v8::Debugger::AsyncTaskRun', (start, _end, r) => {
    const task = isAsyncTaskScheduled(start) ? start.args?.taskName : undefined;
    if (typeof task === 'string' && task) r.task = task;
  });
}

/** SequenceManager PostTask -> ThreadControllerImpl::RunTask, with where in Chromium the task was posted. */
export function postedTaskHandler(): Handler<TraceEvent, FlowRunData, FlowDeps> {
  return flowHandler('postedTasks', 'SequenceManager PostTask', 'ThreadControllerImpl::RunTask', (_start, end, r) => {
    const { src_file: file, src_func: func } = (isRunTask(end) && end.args) || {};
    if (typeof file === 'string') r.postedFrom = typeof func === 'string' ? `${file}:${func}` : file;
  });
}
