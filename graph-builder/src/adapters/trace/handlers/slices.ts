/**
 * Main-thread activity slices on the page's threads (parsing, script evaluation, callbacks, timers,
 * events, style work), with the dispatches the trace does not show (window error events of uncaught
 * exceptions, the window's part of a bubbling DOMContentLoaded), sorted by start (longer first) and
 * nested: each slice's parent is the innermost slice enclosing it on its thread.
 */
import type { Handler } from '../../handler.ts';
import type { ExtractOptions, Slice, SliceKind } from '../load.ts';
import { nestSlices } from '../nesting.ts';
import { finite, isComplete, sliceData, text, threadOf, type SliceEvent, type TraceEvent } from '../trace-events.ts';
import { errorDispatches } from './error-events.ts';
import type { FrameData } from './frames.ts';
import { ready } from './run.ts';
import type { ThreadData } from './threads.ts';
import { windowParts } from './window-events.ts';

/** Trace event name -> the activity slice it opens. Other X events are ignored. */
const SLICE_KIND: ReadonlyMap<string, SliceKind> = new Map([
  ['ParseHTML', 'parse'],
  ['EvaluateScript', 'script'],
  ['v8.evaluateModule', 'script'],
  ['FunctionCall', 'function'],
  ['TimerFire', 'timer'],
  ['EventDispatch', 'event'],
  ['XHRReadyStateChange', 'xhr'],
  ['XHRLoad', 'xhr'],
  ['ParseAuthorStyleSheet', 'style'],
  ['UpdateLayoutTree', 'style'],
  ['Layout', 'layout'],
  ['RunMicrotasks', 'microtask'],
]);
/** The inspector building an exception's stack: where an uncaught exception's error dispatch starts. */
const STACK_WORK = 'toFramesVector';

export interface SliceData {
  /** By start, longer first; `index` is the position here. */
  slices: Slice[];
  /** The innermost slice enclosing `time` on `thread`. */
  innermost: (thread: string, time: number) => number | undefined;
}

export type SliceOptions = Pick<ExtractOptions, 'exceptions' | 'windowListeners'>;

/** One slice from its event, in page time; undefined for a slice that is not the page's. */
function sliceOf(e: SliceEvent, kind: SliceKind, frames: FrameData): Slice | undefined {
  const d = sliceData(e);
  const frame = text(d.frame);
  if (frame && !frames.frames.has(frame)) return undefined;
  // Scripts the DevTools protocol evaluates (Runtime.evaluate, console input) come without data.
  if (e.name === 'EvaluateScript' && !text(d.url)) return undefined;
  const slice: Slice = { index: 0, kind, name: e.name, start: frames.ms(e.ts), end: frames.ms(e.ts + (e.dur ?? 0)), thread: threadOf(e) };
  if (frame) slice.frame = frame;
  const url = text(d.url) ?? text(d.styleSheetUrl);
  if (url) slice.url = url;
  const line = finite(d.lineNumber);
  if (e.name === 'ParseHTML') {
    slice.line = (finite(d.startLine) ?? 0) + 1;
    slice.parsedBytes = finite(e.args?.parsed_bytes) ?? 0;
    if (Array.isArray(d.stackTrace) && d.stackTrace.length > 0) slice.scripted = true;
  } else if (line !== undefined) {
    slice.line = line;
    slice.column = finite(d.columnNumber) ?? 0;
  }
  if (e.name === 'TimerFire') slice.timerId = text(d.timerId);
  if (e.name === 'EventDispatch') slice.eventType = text(d.type);
  if (e.name === 'XHRReadyStateChange') slice.readyState = finite(d.readyState);
  if (e.name === 'XHRLoad') slice.eventType = 'load';
  if (e.name === 'FunctionCall') {
    slice.functionName = text(d.functionName);
    slice.scriptId = text(d.scriptId);
  }
  return slice;
}

export function sliceHandler(options: SliceOptions = {}): Handler<TraceEvent, SliceData, { frames: FrameData; threads: ThreadData }> {
  let candidates: Array<{ e: SliceEvent; kind: SliceKind }> = [];
  let stackWork: TraceEvent[] = [];
  let out: SliceData | undefined;
  return {
    kinds: [...SLICE_KIND.keys(), STACK_WORK],
    deps: ['frames', 'threads'],
    reset() {
      candidates = [];
      stackWork = [];
      out = undefined;
    },
    handleEvent(e) {
      if (!isComplete(e)) return;
      const kind = SLICE_KIND.get(e.name);
      if (kind) candidates.push({ e, kind });
      else stackWork.push(e);
    },
    finalize({ frames, threads }) {
      const slices: Slice[] = [];
      for (const { e, kind } of candidates) {
        if (!threads.threads.has(threadOf(e)) || e.ts < frames.origin) continue;
        const slice = sliceOf(e, kind, frames);
        if (slice) slices.push(slice);
      }
      slices.push(...errorDispatches(stackWork, slices, options.exceptions ?? [], frames.ms));
      slices.push(...windowParts(slices, options.windowListeners ?? []));
      // By start, longer first, so an enclosing slice precedes what it encloses.
      slices.sort((a, b) => a.start - b.start || b.end - a.end);
      slices.forEach((sl, i) => (sl.index = i));
      out = { slices, innermost: nestSlices(slices) };
    },
    data: () => ready(out, 'slices'),
  };
}
