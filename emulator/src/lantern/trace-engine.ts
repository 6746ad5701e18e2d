/**
 * The DevTools trace engine (`@paulirish/trace_engine`, the Performance panel's model) on a Chrome
 * trace: the parsed handler data every Lantern computation starts from.
 */
import * as TraceEngine from '@paulirish/trace_engine';

export type TraceEvents = readonly TraceEngine.Types.Events.Event[];
export type HandlerData = TraceEngine.Handlers.Types.HandlerData;

/** A trace the engine could not use (no frames, no navigation, ...); the message says why. */
export class TraceEngineError extends Error {}

/** Node has no DOMRect; the layout-shift handler constructs some. A plain record suffices. */
function polyfillDomRect(): void {
  const g = globalThis as { DOMRect?: unknown };
  if (g.DOMRect) return;
  g.DOMRect = class DOMRect {
    constructor(public x = 0, public y = 0, public width = 0, public height = 0) {}
    get left(): number { return this.x; }
    get top(): number { return this.y; }
    get right(): number { return this.x + this.width; }
    get bottom(): number { return this.y + this.height; }
  };
}

/** The trace's events, from a `{traceEvents}` object or a bare array. */
export function traceEventsOf(trace: unknown): TraceEvents {
  const list = Array.isArray(trace) ? trace : (trace as { traceEvents?: unknown } | null)?.traceEvents;
  if (!Array.isArray(list)) throw new TraceEngineError('not a Chrome trace: no traceEvents array');
  return list as TraceEvents;
}

export interface ParsedTrace {
  /** The events as the engine holds them (copies of the input: the engine sorts and annotates them). */
  events: TraceEngine.Types.Events.Event[];
  data: HandlerData;
}

/** Runs every handler of the trace engine over the events, as the Performance panel does on load. */
export async function parseWithTraceEngine(input: TraceEvents): Promise<ParsedTrace> {
  polyfillDomRect();
  const events = input.map((e) => ({ ...e })) as TraceEngine.Types.Events.Event[];
  const model = TraceEngine.TraceModel.Model.createWithAllHandlers();
  try {
    await model.parse(events);
  } catch (e) {
    throw new TraceEngineError(`the DevTools trace engine refused the trace: ${(e as Error).message}`);
  }
  const parsed = model.parsedTrace();
  if (!parsed) throw new TraceEngineError('the DevTools trace engine returned no data');
  return { events, data: parsed.data };
}

export { TraceEngine };
