/**
 * Reads Chrome trace files: the JSON Object Format (`{"traceEvents": [...], "metadata": {...}}`, what the
 * profiler and the DevTools Performance panel save) and the JSON Array Format (`[...]`). Chrome writes
 * traces as a stream, so a capture cut short ends mid-array: we keep every complete event and warn.
 */

export interface TraceEvent {
  name: string;
  cat: string;
  ph: string;
  /** Microseconds on the trace clock. */
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  id?: string | number;
  id2?: { local?: string; global?: string };
  bind_id?: string | number;
  flow_in?: boolean;
  flow_out?: boolean;
  s?: string;
  args?: Record<string, unknown>;
}

export interface TraceFile {
  events: TraceEvent[];
  metadata: Record<string, unknown>;
  warnings: string[];
}

export class TraceFormatError extends Error {}

function isEvent(x: unknown): x is TraceEvent {
  if (typeof x !== 'object' || x === null) return false;
  const e = x as Record<string, unknown>;
  return typeof e.name === 'string' && typeof e.ph === 'string' && typeof e.ts === 'number' && typeof e.pid === 'number';
}

/** Keeps the complete events of a truncated array: cut after the last `}` that closes a top-level element. */
function salvageArray(text: string, start: number): unknown[] {
  let depth = 0;
  let inString = false;
  let lastEnd = -1;
  for (let i = start; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92 /* \ */) i++;
      else if (c === 34 /* " */) inString = false;
      continue;
    }
    if (c === 34) inString = true;
    else if (c === 123 /* { */ || c === 91 /* [ */) depth++;
    else if (c === 125 /* } */ || c === 93 /* ] */) {
      depth--;
      // depth 1 is inside the array itself: a `}` back at it closes one event.
      if (depth === 1 && c === 125) lastEnd = i;
    }
  }
  if (lastEnd < 0) return [];
  return JSON.parse(`[${text.slice(start + 1, lastEnd + 1)}]`) as unknown[];
}

export function parseTrace(text: string, source = 'trace'): TraceFile {
  const warnings: string[] = [];
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    const arrayStart = text.trimStart().startsWith('[') ? text.indexOf('[') : text.indexOf('[', text.indexOf('"traceEvents"'));
    if (arrayStart < 0) throw new TraceFormatError(`${source}: not a Chrome trace (${(e as Error).message})`);
    let salvaged: unknown[];
    try {
      salvaged = salvageArray(text, arrayStart);
    } catch {
      throw new TraceFormatError(`${source}: corrupt trace JSON (${(e as Error).message})`);
    }
    warnings.push(`${source}: trace is truncated or corrupt (${(e as Error).message}); kept ${salvaged.length} complete events`);
    raw = salvaged;
  }
  const list = Array.isArray(raw) ? raw : (raw as { traceEvents?: unknown }).traceEvents;
  if (!Array.isArray(list)) throw new TraceFormatError(`${source}: no traceEvents array`);
  const metadata = !Array.isArray(raw) && typeof (raw as { metadata?: unknown }).metadata === 'object' ? ((raw as { metadata: Record<string, unknown> }).metadata ?? {}) : {};
  const events: TraceEvent[] = [];
  let bad = 0;
  for (const x of list) {
    if (isEvent(x)) events.push(x);
    else bad++;
  }
  if (bad) warnings.push(`${source}: skipped ${bad} malformed trace events`);
  if (events.length === 0) throw new TraceFormatError(`${source}: the trace holds no events`);
  return { events, metadata, warnings };
}
