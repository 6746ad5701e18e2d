/**
 * Trace flows: links from where work was scheduled to where it ran, possibly in a later task.
 *
 * Two kinds are read:
 * - V8 inspector async tasks (disabled-by-default-v8.inspector): v8::Debugger::AsyncTaskScheduled ->
 *   v8::Debugger::AsyncTaskRun. Blink reports these for what it schedules on a script's behalf: an
 *   image's load (a microtask queued when its src was set), a window.postMessage delivery, a pending
 *   script.
 * - Posted tasks (toplevel + toplevel.flow): the instant "SequenceManager PostTask" where a task was
 *   queued -> the ThreadControllerImpl::RunTask slice that ran it, which names where in Chromium the
 *   task was posted from. This is the only link stock Chromium records from a MessagePort's
 *   postMessage to the handler of the message it delivers (MessagePort keeps the sender's stack for
 *   the debugger only): writing to the port's local mojo pipe makes the receiving port's mojo watcher
 *   post a task, inside the sender's script.
 *
 * Chromium's JSON writes a flow as 's' and 'f' events sharing an id, each at the pid/tid/ts of the event
 * it belongs to (the 'f' bound to the slice it ends in); Perfetto's JSON export instead puts bind_id with
 * flow_out / flow_in on the events themselves. Both are read.
 */
import type { TraceEvent } from './reader.ts';

/** A run of scheduled work (a slice on a page thread), with the point its flow starts from. */
export interface FlowRun {
  index: number;
  start: number;
  end: number;
  thread: string;
  parent?: number;
  /** V8 async task name ('postMessage', 'Image', ...). */
  task?: string;
  /** Posted task: the Chromium source that posted it ('mojo/public/cpp/system/simple_watcher.cc:Notify'). */
  postedFrom?: string;
  /** Schedule point: thread and time; resolved by the caller to the activity slice running there. */
  at?: { thread: string; time: number };
  scheduler?: number;
}

interface Page {
  threads: Set<string>;
  threadOf: (e: TraceEvent) => string;
  /** Trace clock of the page's time 0: runs before it are not the page's. */
  origin: number;
  ms: (ts: number) => number;
}

/** Pairs each `endName` slice with the `startName` event (slice or instant) its flow comes from. */
export function flowPairs(events: TraceEvent[], startName: string, endName: string): Map<TraceEvent, TraceEvent | undefined> {
  const startAt = new Map<string, TraceEvent>(); // pid:tid:ts -> start event
  const endAt = new Map<string, TraceEvent>();
  const flowStart = new Map<string, TraceEvent>(); // pid:flow id -> start event
  const flowEnd = new Map<string, TraceEvent>(); // pid:flow id -> end slice
  const at = (e: TraceEvent) => `${e.pid}:${e.tid}:${e.ts}`;
  const flowKey = (e: TraceEvent, id: unknown) => `${e.pid}:${String(id)}`;
  for (const e of events) {
    if (e.name === startName && (e.ph === 'X' || e.ph === 'I' || e.ph === 'i')) {
      startAt.set(at(e), e);
      if (e.bind_id !== undefined && e.flow_out) flowStart.set(flowKey(e, e.bind_id), e);
    } else if (e.name === endName && e.ph === 'X') {
      endAt.set(at(e), e);
      if (e.bind_id !== undefined && e.flow_in) flowEnd.set(flowKey(e, e.bind_id), e);
    }
  }
  for (const e of events) {
    if (e.name !== startName || e.id === undefined) continue;
    if (e.ph === 's') {
      const start = startAt.get(at(e));
      if (start) flowStart.set(flowKey(e, e.id), start);
    } else if (e.ph === 'f' || e.ph === 't') {
      const end = endAt.get(at(e));
      if (end) flowEnd.set(flowKey(e, e.id), end);
    }
  }
  const pairs = new Map<TraceEvent, TraceEvent | undefined>();
  for (const [key, end] of flowEnd) if (!pairs.get(end)) pairs.set(end, flowStart.get(key));
  return pairs;
}

function runs(pairs: Map<TraceEvent, TraceEvent | undefined>, page: Page, describe: (start: TraceEvent, end: TraceEvent, run: FlowRun) => void): FlowRun[] {
  const out: FlowRun[] = [];
  for (const [end, start] of pairs) {
    if (!page.threads.has(page.threadOf(end)) || end.ts < page.origin) continue;
    const r: FlowRun = { index: 0, start: page.ms(end.ts), end: page.ms(end.ts + (end.dur ?? 0)), thread: page.threadOf(end) };
    if (start) {
      r.at = { thread: page.threadOf(start), time: page.ms(start.ts) };
      describe(start, end, r);
    }
    out.push(r);
  }
  out.sort((a, b) => a.start - b.start || b.end - a.end);
  out.forEach((r, i) => (r.index = i));
  return out;
}

/** V8 inspector async task runs on the page's threads, in start order (longer first). */
export function asyncRuns(events: TraceEvent[], page: Page): FlowRun[] {
  return runs(flowPairs(events, 'v8::Debugger::AsyncTaskScheduled', 'v8::Debugger::AsyncTaskRun'), page, (start, _end, r) => {
    const task = start.args?.taskName;
    if (typeof task === 'string' && task) r.task = task;
  });
}

/** Posted task runs on the page's threads with where they were posted, in start order (longer first). */
export function postedTasks(events: TraceEvent[], page: Page): FlowRun[] {
  return runs(flowPairs(events, 'SequenceManager PostTask', 'ThreadControllerImpl::RunTask'), page, (_start, end, r) => {
    const { src_file: file, src_func: func } = (end.args ?? {}) as Record<string, unknown>;
    if (typeof file === 'string') r.postedFrom = typeof func === 'string' ? `${file}:${func}` : file;
  });
}
