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
import { threadOf, type TraceEvent } from './trace-events.ts';

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

const at = (e: TraceEvent) => `${e.pid}:${e.tid}:${e.ts}`;
/** Flow ids are per process. */
const flowKey = (e: TraceEvent, id: unknown) => `${e.pid}:${String(id)}`;

/**
 * Pairs each `endName` slice with the `startName` event (slice or instant) its flow comes from, fed one
 * event at a time (kept until `pairs`: a --task-flows trace holds many posted tasks, often not needed).
 * Perfetto's bind_id links are taken first, then Chromium's 's' / 'f' events, which override them.
 */
export class FlowPairing {
  private readonly events: TraceEvent[] = [];

  constructor(
    readonly startName: string,
    readonly endName: string,
  ) {}

  add(e: TraceEvent): void {
    if (e.name === this.startName || e.name === this.endName) this.events.push(e);
  }

  /** Each run slice and where its flow started (undefined: a run whose start the trace lacks). */
  pairs(): Map<TraceEvent, TraceEvent | undefined> {
    const startAt = new Map<string, TraceEvent>(); // pid:tid:ts -> start event
    const endAt = new Map<string, TraceEvent>();
    const flowStart = new Map<string, TraceEvent>(); // pid:flow id -> start event
    const flowEnd = new Map<string, TraceEvent>(); // pid:flow id -> end slice
    for (const e of this.events) {
      if (e.name === this.startName && (e.ph === 'X' || e.ph === 'I' || e.ph === 'i')) {
        startAt.set(at(e), e);
        if (e.bind_id !== undefined && e.flow_out) flowStart.set(flowKey(e, e.bind_id), e);
      } else if (e.name === this.endName && e.ph === 'X') {
        endAt.set(at(e), e);
        if (e.bind_id !== undefined && e.flow_in) flowEnd.set(flowKey(e, e.bind_id), e);
      }
    }
    // A flow event sits at the pid/tid/ts of the event it binds to, which may come later in the file.
    for (const e of this.events) {
      if (e.name !== this.startName || e.id === undefined) continue;
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
}

/** Pairs of a whole event list (see FlowPairing). */
export function flowPairs(events: Iterable<TraceEvent>, startName: string, endName: string): Map<TraceEvent, TraceEvent | undefined> {
  const pairing = new FlowPairing(startName, endName);
  for (const e of events) pairing.add(e);
  return pairing.pairs();
}

/** The page: its threads and time 0 (runs elsewhere or before it are not the page's). */
export interface FlowPage {
  threads: Set<string>;
  /** Trace clock of the page's time 0. */
  origin: number;
  ms: (ts: number) => number;
}

/** The page's runs of paired flows, in start order (longer first), each told apart by `describe`. */
export function flowRuns(pairs: Map<TraceEvent, TraceEvent | undefined>, page: FlowPage, describe: (start: TraceEvent, end: TraceEvent, run: FlowRun) => void): FlowRun[] {
  const out: FlowRun[] = [];
  for (const [end, start] of pairs) {
    if (!page.threads.has(threadOf(end)) || end.ts < page.origin) continue;
    const r: FlowRun = { index: 0, start: page.ms(end.ts), end: page.ms(end.ts + (end.dur ?? 0)), thread: threadOf(end) };
    if (start) {
      r.at = { thread: threadOf(start), time: page.ms(start.ts) };
      describe(start, end, r);
    }
    out.push(r);
  }
  out.sort((a, b) => a.start - b.start || b.end - a.end);
  out.forEach((r, i) => (r.index = i));
  return out;
}
