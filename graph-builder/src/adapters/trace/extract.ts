/**
 * From raw trace events to the facts the graph needs, in page time (ms since the main document's request):
 * frames, requests (with initiator and what the main thread was running when each was issued), the
 * main-thread activity slices (parsing, script evaluation, callbacks, timers, events, style work),
 * timer installs, and the frames' DOMContentLoaded/load marks.
 *
 * "What was running" is the innermost activity slice on the same thread enclosing an instant event:
 * it corrects initiators that Chromium reports too coarsely (an image created in an XHR handler reports a
 * parser initiator; one created in a timer callback reports "other"). Where that work runs as an async
 * task (V8 inspector's AsyncTaskScheduled -> AsyncTaskRun flows: an image's load is a microtask queued
 * when its src was set, a postMessage a task queued by the sender), what was running is what scheduled
 * the task, followed back through the flow.
 */
import type { TraceEvent } from './reader.ts';
import { lastAtOrBefore } from '../../sorted.ts';
import { asyncRuns, postedTasks } from './flows.ts';

export type SliceKind = 'parse' | 'script' | 'function' | 'timer' | 'event' | 'xhr' | 'style' | 'layout' | 'microtask';

/** Trace event name -> the activity slice it opens. Other X events are ignored. */
const SLICE_KIND: Record<string, SliceKind> = {
  ParseHTML: 'parse',
  EvaluateScript: 'script',
  'v8.evaluateModule': 'script',
  FunctionCall: 'function',
  TimerFire: 'timer',
  EventDispatch: 'event',
  XHRReadyStateChange: 'xhr',
  XHRLoad: 'xhr',
  ParseAuthorStyleSheet: 'style',
  UpdateLayoutTree: 'style',
  Layout: 'layout',
  RunMicrotasks: 'microtask',
};

export interface CallFrame {
  url: string;
  line: number;
  column: number;
  functionName: string;
  scriptId?: string;
}

export interface Slice {
  /** Index in TraceLoad.slices. */
  index: number;
  kind: SliceKind;
  name: string;
  frame?: string;
  url?: string;
  /** 1-based (trace lines are 0-based for ParseHTML and parser initiators, 1-based for scripts). */
  line?: number;
  column?: number;
  start: number;
  end: number;
  thread: string;
  /** Innermost enclosing activity slice on the same thread. */
  parent?: number;
  timerId?: string;
  eventType?: string;
  readyState?: number;
  functionName?: string;
  scriptId?: string;
  /** ParseHTML: bytes of HTML this slice consumed. */
  parsedBytes?: number;
  /** An event dispatched to the window that the trace does not show (an uncaught exception's error). */
  windowTarget?: boolean;
  /**
   * The slice runs as an async task that nothing on its own thread encloses more tightly: the activity
   * slice that scheduled the task (see flows.ts), when, and the task's name ('postMessage', 'Image', ...).
   */
  scheduledBy?: number;
  scheduledAt?: number;
  asyncTask?: string;
  /** Set with scheduledBy when a posted-task flow (not an async task) links the slice to its scheduler. */
  postedFrom?: string;
}

export interface Initiator {
  type: string;
  url?: string;
  /** 1-based. */
  line?: number;
  column?: number;
  fetchType?: string;
  stack?: CallFrame[];
}

export interface TraceRequest {
  requestId: string;
  url: string;
  frame: string;
  resourceType: string;
  method: string;
  priority?: string;
  initiator?: Initiator;
  send: number;
  response?: number;
  finish?: number;
  chunks: Array<{ time: number; bytes: number }>;
  encodedLength: number;
  decodedLength: number;
  failed: boolean;
  fromCache: boolean;
  status: number;
  mimeType: string;
  /** The activity slice running on the renderer's main thread when the request was issued. */
  runningAt?: number;
  renderBlocking?: string;
}

export interface TimerInstall {
  timerId: string;
  frame?: string;
  timeout: number;
  singleShot: boolean;
  time: number;
  runningAt?: number;
  stack?: CallFrame[];
}

export interface FrameInfo {
  id: string;
  parent: string | null;
  url: string;
}

export interface Mark {
  frame: string;
  name: 'domContentLoaded' | 'load';
  time: number;
}

export interface TraceLoad {
  /** Trace clock (µs) of the main document's request: time 0 of the page. */
  origin: number;
  mainFrame: string;
  frames: FrameInfo[];
  requests: TraceRequest[];
  slices: Slice[];
  timers: TimerInstall[];
  marks: Mark[];
  warnings: string[];
}

type Data = Record<string, unknown>;
const dataOf = (e: TraceEvent): Data => ((e.args?.data ?? e.args?.beginData ?? {}) as Data);
const s = (v: unknown): string | undefined => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : undefined);
const n = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

/** Trace stack frames are 1-based (DevTools protocol call frames are 0-based: pass base 0). */
export function callFrames(v: unknown, base: 0 | 1 = 1): CallFrame[] | undefined {
  if (!Array.isArray(v)) return undefined;
  return v.map((f: Data) => ({
    url: s(f.url) ?? '',
    line: (n(f.lineNumber) ?? 0) + 1 - base,
    column: (n(f.columnNumber) ?? 0) + 1 - base,
    functionName: s(f.functionName) ?? '',
    ...(s(f.scriptId) ? { scriptId: s(f.scriptId) } : {}),
  }));
}

const IGNORED_URL = /^(chrome|devtools|chrome-extension|chrome-untrusted):/;

export class TraceContentError extends Error {}

/** An uncaught exception the DevTools log reported, on the trace clock (µs). */
export interface UncaughtException {
  ts: number;
  url: string;
  /** 1-based. */
  line: number;
  scriptId?: string;
}

export interface ExtractOptions {
  /**
   * Frame id -> parent frame id, from the profiler's frames.json. Out-of-process iframes commit in their
   * own renderer, whose CommitLoad names no parent; without this they hang off the main frame.
   */
  frameParents?: Map<string, string | null>;
  /**
   * Uncaught exceptions: each fires the window's error event inside the script that threw, a dispatch
   * the trace does not show (see errorDispatches).
   */
  exceptions?: UncaughtException[];
  /** Listeners on frames' windows (the profiler's listeners.json): which handlers are the window's. */
  windowListeners?: WindowListener[];
}

/** A listener on a frame's window, at its handler's position (1-based, as FunctionCall reports it). */
export interface WindowListener {
  frame: string;
  type: string;
  scriptId: string;
  line: number;
  column: number;
  useCapture: boolean;
}

export function extractTrace(events: TraceEvent[], options: ExtractOptions = {}): TraceLoad {
  const warnings: string[] = [];
  const sendEvents = events.filter((e) => e.name === 'ResourceSendRequest' && !IGNORED_URL.test(s(dataOf(e).url) ?? ''));
  const firstDoc = sendEvents.filter((e) => dataOf(e).resourceType === 'Document').sort((a, b) => a.ts - b.ts);

  // Frames: CommitLoad (renderer) and FrameCommittedInBrowser (browser) name frame, parent and url.
  const frames = new Map<string, FrameInfo>();
  for (const e of events) {
    if (e.name !== 'CommitLoad' && e.name !== 'FrameCommittedInBrowser') continue;
    const d = dataOf(e);
    const id = s(d.frame);
    const url = s(d.url) ?? '';
    if (!id || url === '' || IGNORED_URL.test(url)) continue;
    const parent = s(d.parent) ?? null;
    const known = frames.get(id);
    if (!known || (known.url === 'about:blank' && url !== 'about:blank')) frames.set(id, { id, parent: parent ?? known?.parent ?? null, url });
  }
  const mainDoc = firstDoc.find((e) => {
    const f = frames.get(s(dataOf(e).frame) ?? '');
    return !f || f.parent === null;
  }) ?? firstDoc[0];
  if (!mainDoc) throw new TraceContentError('the trace has no document request (was the page loaded while tracing with the devtools.timeline category?)');
  const mainFrame = s(dataOf(mainDoc).frame) ?? '';
  const origin = mainDoc.ts;
  if (!frames.has(mainFrame)) frames.set(mainFrame, { id: mainFrame, parent: null, url: s(dataOf(mainDoc).url) ?? '' });
  const committedAsSubframe = new Set(events.filter((e) => e.name === 'CommitLoad' && dataOf(e).isMainFrame === false).map((e) => s(dataOf(e).frame)));
  for (const f of frames.values()) {
    const known = options.frameParents?.get(f.id);
    if (known !== undefined) f.parent = known;
    else if (f.parent === null && f.id !== mainFrame && committedAsSubframe.has(f.id)) {
      f.parent = mainFrame;
      warnings.push(`frame ${f.url} committed out of process with no parent in the trace; attached to the main frame`);
    }
  }
  // Frames of other pages (tabs, WebUI) are not ours: keep those whose parent chain reaches the main frame.
  const ours = (id: string): boolean => {
    for (let f = frames.get(id), hops = 0; f && hops < 64; f = f.parent ? frames.get(f.parent) : undefined, hops++) if (f.id === mainFrame) return true;
    return false;
  };
  for (const id of [...frames.keys()]) if (!ours(id)) frames.delete(id);
  const ms = (ts: number) => (ts - origin) / 1000;

  // The page's renderer threads: those that issued its requests or ran its frames' slices.
  const threads = new Set<string>();
  const threadOf = (e: TraceEvent) => `${e.pid}:${e.tid}`;
  for (const e of events) {
    const f = s(dataOf(e).frame);
    if (f && frames.has(f) && (e.name === 'ResourceSendRequest' || e.name === 'ParseHTML' || e.name === 'EvaluateScript')) threads.add(threadOf(e));
  }

  // Activity slices on those threads, with their nesting.
  const slices: Slice[] = [];
  for (const e of events) {
    const kind = SLICE_KIND[e.name];
    if (!kind || e.ph !== 'X' || !threads.has(threadOf(e)) || e.ts < origin) continue;
    const d = dataOf(e);
    const frame = s(d.frame);
    if (frame && !frames.has(frame)) continue;
    // Scripts the DevTools protocol evaluates (Runtime.evaluate, console input) come without data.
    if (e.name === 'EvaluateScript' && !s(d.url)) continue;
    const slice: Slice = { index: 0, kind, name: e.name, start: ms(e.ts), end: ms(e.ts + (e.dur ?? 0)), thread: threadOf(e) };
    if (frame) slice.frame = frame;
    const url = s(d.url) ?? s(d.styleSheetUrl);
    if (url) slice.url = url;
    if (e.name === 'ParseHTML') {
      slice.line = (n(d.startLine) ?? 0) + 1;
      slice.parsedBytes = n(e.args?.parsed_bytes) ?? 0;
    }
    else if (n(d.lineNumber) !== undefined) {
      slice.line = n(d.lineNumber)!;
      slice.column = n(d.columnNumber) ?? 0;
    }
    if (e.name === 'TimerFire') slice.timerId = s(d.timerId);
    if (e.name === 'EventDispatch') slice.eventType = s(d.type);
    if (e.name === 'XHRReadyStateChange') slice.readyState = n(d.readyState);
    if (e.name === 'XHRLoad') slice.eventType = 'load';
    if (e.name === 'FunctionCall') {
      slice.functionName = s(d.functionName);
      slice.scriptId = s(d.scriptId);
    }
    slices.push(slice);
  }
  slices.push(...errorDispatches(events, slices, options.exceptions ?? [], threadOf, ms));
  slices.push(...windowParts(slices, options.windowListeners ?? []));
  // Sort by start, longer first, so an enclosing slice precedes what it encloses.
  slices.sort((a, b) => a.start - b.start || b.end - a.end);
  slices.forEach((sl, i) => (sl.index = i));
  const innermostSlice = nestSlices(slices);
  const page = { threads, threadOf, origin, ms };
  const runs = asyncRuns(events, page);
  const innermostRun = nestSlices(runs);
  /**
   * The activity slice responsible for work at (thread, time): the innermost enclosing slice, unless an
   * async task run nested inside it (or outside any slice) encloses the time; then whatever scheduled
   * that task.
   */
  const enclosing = (thread: string, time: number): number | undefined => {
    const sl = innermostSlice(thread, time);
    const r = innermostRun(thread, time);
    const run = r !== undefined ? runs[r]! : undefined;
    if (run?.scheduler !== undefined && (sl === undefined || slices[sl]!.start <= run.start)) return run.scheduler;
    return sl;
  };
  // Runs in start order: a schedule point precedes its run, so an enclosing run is already resolved.
  for (const run of runs) if (run.at) run.scheduler = enclosing(run.at.thread, run.at.time);
  for (const sl of slices) {
    const r = innermostRun(sl.thread, sl.start);
    const run = r !== undefined ? runs[r]! : undefined;
    if (!run || run.scheduler === undefined || run.end < sl.end) continue;
    const parent = sl.parent !== undefined ? slices[sl.parent]! : undefined;
    if (parent && parent.start > run.start) continue;
    sl.scheduledBy = run.scheduler;
    sl.scheduledAt = run.at!.time;
    if (run.task) sl.asyncTask = run.task;
  }
  // A callback that neither a slice nor an async task accounts for (a MessagePort's message handler):
  // what posted the task it runs in, when the trace has posted-task flows.
  const orphans = slices.filter((sl) => sl.kind === 'function' && sl.parent === undefined && sl.scheduledBy === undefined);
  let taskFlows = false;
  if (orphans.length > 0) {
    const tasks = postedTasks(events, page);
    taskFlows = tasks.length > 0;
    const innermostTask = nestSlices(tasks);
    for (const sl of orphans) {
      const t = innermostTask(sl.thread, sl.start);
      const task = t !== undefined ? tasks[t]! : undefined;
      if (!task?.at || task.end < sl.end) continue;
      const poster = enclosing(task.at.thread, task.at.time);
      if (poster === undefined) continue;
      sl.scheduledBy = poster;
      sl.scheduledAt = task.at.time;
      if (task.postedFrom) sl.postedFrom = task.postedFrom;
    }
  }

  const requests = new Map<string, TraceRequest>();
  const timers: TimerInstall[] = [];
  const marks: Mark[] = [];
  for (const e of events) {
    const d = dataOf(e);
    switch (e.name) {
      case 'ResourceSendRequest': {
        const url = s(d.url) ?? '';
        const frame = s(d.frame) ?? '';
        if (IGNORED_URL.test(url) || !frames.has(frame) || e.ts < origin) break;
        const id = s(d.requestId) ?? `${e.pid}.${e.ts}`;
        const init = d.initiator as Data | undefined;
        const req: TraceRequest = {
          requestId: id,
          url,
          frame,
          resourceType: s(d.resourceType) ?? 'Other',
          method: s(d.requestMethod) ?? 'GET',
          send: ms(e.ts),
          chunks: [],
          encodedLength: 0,
          decodedLength: 0,
          failed: false,
          fromCache: false,
          status: 0,
          mimeType: '',
        };
        if (s(d.priority)) req.priority = s(d.priority);
        if (s(d.renderBlocking)) req.renderBlocking = s(d.renderBlocking);
        if (init && s(init.type)) {
          const i: Initiator = { type: s(init.type)! };
          if (s(init.url)) i.url = s(init.url);
          if (n(init.lineNumber) !== undefined) i.line = n(init.lineNumber)! + 1;
          if (n(init.columnNumber) !== undefined) i.column = n(init.columnNumber)! + 1;
          if (s(init.fetchType)) i.fetchType = s(init.fetchType);
          const stack = callFrames((init.stack as Data | undefined)?.callFrames ?? d.stackTrace);
          if (stack) i.stack = stack;
          req.initiator = i;
        }
        const running = enclosing(threadOf(e), ms(e.ts));
        if (running !== undefined) req.runningAt = running;
        // A redirect re-sends under the same requestId: keep the first send, the last url.
        const prev = requests.get(id);
        if (prev) prev.url = url;
        else requests.set(id, req);
        break;
      }
      case 'ResourceReceiveResponse': {
        const r = requests.get(s(d.requestId) ?? '');
        if (!r) break;
        r.response = ms(e.ts);
        r.status = n(d.statusCode) ?? r.status;
        r.mimeType = s(d.mimeType) ?? r.mimeType;
        r.fromCache = d.fromCache === true || d.fromMemoryCache === true;
        break;
      }
      case 'ResourceReceivedData': {
        const r = requests.get(s(d.requestId) ?? '');
        if (r) r.chunks.push({ time: ms(e.ts), bytes: n(d.encodedDataLength) ?? 0 });
        break;
      }
      case 'ResourceFinish': {
        const r = requests.get(s(d.requestId) ?? '');
        if (!r) break;
        r.finish = ms(e.ts);
        r.failed = d.didFail === true;
        r.encodedLength = n(d.encodedDataLength) ?? r.encodedLength;
        r.decodedLength = n(d.decodedBodyLength) ?? r.decodedLength;
        break;
      }
      case 'TimerInstall': {
        const frame = s(d.frame);
        if (!threads.has(threadOf(e)) || (frame && !frames.has(frame)) || e.ts < origin) break;
        const t: TimerInstall = {
          timerId: s(d.timerId) ?? '',
          timeout: n(d.timeout) ?? 0,
          singleShot: d.singleShot !== false,
          time: ms(e.ts),
        };
        if (frame) t.frame = frame;
        const stack = callFrames(d.stackTrace);
        if (stack) t.stack = stack;
        const running = enclosing(threadOf(e), ms(e.ts));
        if (running !== undefined) t.runningAt = running;
        timers.push(t);
        break;
      }
      case 'MarkDOMContent':
      case 'MarkLoad': {
        const frame = s(d.frame);
        if (frame && frames.has(frame) && e.ts >= origin) marks.push({ frame, name: e.name === 'MarkLoad' ? 'load' : 'domContentLoaded', time: ms(e.ts) });
        break;
      }
      default:
    }
  }
  for (const r of requests.values()) if (r.finish === undefined) warnings.push(`request ${r.url} never finished in the trace`);
  if (!taskFlows) {
    const issuing = new Set([...requests.values(), ...timers].map((x) => x.runningAt));
    const unlinked = orphans.filter((sl) => sl.scheduledBy === undefined && issuing.has(sl.index));
    if (unlinked.length > 0) {
      warnings.push(
        `${unlinked.length} callback(s) issued requests or timers with nothing in the trace that scheduled them ` +
          `(${unlinked.map((sl) => sl.functionName || 'anonymous').join(', ')}); a MessagePort message is linked to its sender ` +
          'only through posted-task flows: capture with pcp profile --task-flows',
      );
    }
  }
  return {
    origin,
    mainFrame,
    frames: [...frames.values()].sort((a, b) => (a.id === mainFrame ? -1 : b.id === mainFrame ? 1 : 0)),
    requests: [...requests.values()].sort((a, b) => a.send - b.send),
    slices,
    timers,
    marks: marks.sort((a, b) => a.time - b.time),
    warnings,
  };
}

/**
 * The window error events that uncaught exceptions fired. Chromium dispatches ErrorEvent synchronously
 * inside the script that threw, with no EventDispatch slice; the protocol reports the exception after the
 * handlers ran. The dispatch therefore ends at the report (clamped to the script's slice) and starts
 * where the inspector turned the exception's stack into frames (toFramesVector, recorded while the
 * Runtime domain is enabled), or at the report when that is missing.
 */
function errorDispatches(
  events: TraceEvent[],
  slices: Slice[],
  exceptions: UncaughtException[],
  threadOf: (e: TraceEvent) => string,
  ms: (ts: number) => number,
): Slice[] {
  if (exceptions.length === 0) return [];
  const stackWork = events.filter((e) => e.name === 'toFramesVector' && e.ph === 'X');
  const out: Slice[] = [];
  for (const ex of exceptions) {
    const at = ms(ex.ts);
    // The script slice that threw: same url, enclosing the report (or just ended: clock mapping is
    // good to a fraction of a millisecond).
    let best: Slice | undefined;
    for (const sl of slices) {
      if ((sl.kind !== 'script' && sl.kind !== 'function' && sl.kind !== 'timer') || sl.start > at) continue;
      if (sl.url !== undefined && ex.url !== '' && sl.url !== ex.url && sl.kind === 'script') continue;
      if (sl.end < at - 1) continue;
      if (!best || sl.start > best.start) best = sl;
    }
    if (!best) continue;
    const end = Math.min(at, best.end);
    let start = end;
    for (const e of stackWork) {
      if (threadOf(e) !== best.thread) continue;
      const t = ms(e.ts);
      if (t >= best.start && t <= end && (start === end || t > start)) start = t;
    }
    out.push({ index: 0, kind: 'event', name: 'ErrorEvent', eventType: 'error', windowTarget: true, start, end, thread: best.thread, ...(best.frame ? { frame: best.frame } : {}) });
  }
  return out;
}

/**
 * An event dispatched at the document that bubbles to the window (DOMContentLoaded) is one EventDispatch
 * slice running the document's listeners, then the window's. Where the window's handlers are known, the
 * slice is cut at the first of them: the document's part keeps the slice, the window's becomes a slice
 * of its own (thesis Figure 3.9: Document DOMContentLoaded -> Window DOMContentLoaded).
 * Window capture listeners run first and are left with the document's part.
 */
function windowParts(slices: Slice[], listeners: WindowListener[]): Slice[] {
  const bubbling = listeners.filter((l) => !l.useCapture);
  if (bubbling.length === 0) return [];
  const key = (frame: string, type: string, scriptId: string, line: number, column: number) => `${frame}|${type}|${scriptId}|${line}|${column}`;
  const windowHandlers = new Set(bubbling.map((l) => key(l.frame, l.type, l.scriptId, l.line, l.column)));
  const types = new Set(bubbling.map((l) => l.type));
  const out: Slice[] = [];
  for (const sl of slices) {
    if (sl.kind !== 'event' || !types.has(sl.eventType ?? '') || sl.windowTarget) continue;
    let cut = Infinity;
    let frame: string | undefined;
    for (const f of slices) {
      if (f.kind !== 'function' || f.thread !== sl.thread || f.start < sl.start || f.end > sl.end || f.start >= cut) continue;
      if (windowHandlers.has(key(f.frame ?? '', sl.eventType!, f.scriptId ?? '', f.line ?? -1, f.column ?? -1))) {
        cut = f.start;
        frame = f.frame;
      }
    }
    if (!Number.isFinite(cut)) continue;
    out.push({ index: 0, kind: 'event', name: sl.name, eventType: sl.eventType!, windowTarget: true, start: cut, end: sl.end, thread: sl.thread, ...(frame ? { frame } : {}) });
    sl.end = cut;
  }
  return out;
}

interface Interval {
  index: number;
  start: number;
  end: number;
  thread: string;
  parent?: number;
}

/**
 * Sets each interval's `parent` (innermost enclosing one on its thread) and returns a lookup of the
 * innermost interval enclosing an instant on a thread. `list` is sorted by start, longer first.
 */
function nestSlices<T extends Interval>(slices: T[]): (thread: string, time: number) => number | undefined {
  const byThread = new Map<string, T[]>();
  for (const sl of slices) (byThread.get(sl.thread) ?? byThread.set(sl.thread, []).get(sl.thread)!).push(sl);
  for (const list of byThread.values()) {
    const stack: T[] = [];
    for (const sl of list) {
      while (stack.length && stack[stack.length - 1]!.end < sl.end) stack.pop();
      const top = stack[stack.length - 1];
      if (top) sl.parent = top.index;
      stack.push(sl);
    }
  }
  return (thread, time) => {
    const list = byThread.get(thread);
    if (!list) return undefined;
    // Last slice starting at or before `time`, then walk out to one that still encloses it.
    const found = lastAtOrBefore(list, time);
    for (let sl = found >= 0 ? list[found] : undefined; sl; sl = sl.parent !== undefined ? slices[sl.parent] : undefined) {
      if (sl.end >= time) return sl.index;
    }
    return undefined;
  };
}
