/**
 * Stock Chromium input: a profiler bundle (trace.json.gz + devtools.log.json + meta.json) or a single
 * trace saved by the DevTools Performance panel. Reading is here; the cores are extract.ts (trace events
 * -> TraceLoad) and to-activities.ts (TraceLoad -> activity model).
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { readText } from '../../format/io.ts';
import { parseTrace } from './reader.ts';
import { extractTrace, type ExtractOptions, type UncaughtException, type WindowListener } from './extract.ts';
import { traceToActivities, type ExtraInitiators } from './to-activities.ts';
import { navigationTimes } from './navigation.ts';
import type { Activities } from '../../model/types.ts';

export { parseTrace, TraceFormatError } from './reader.ts';
export { extractTrace, TraceContentError } from './extract.ts';
export { traceToActivities } from './to-activities.ts';

export interface TraceInput {
  kind: 'chrome-trace' | 'devtools-trace';
  acts: Activities;
  warnings: string[];
  browserVersion?: string;
}

const TRACE_NAMES = ['trace.json.gz', 'trace.json'];
const LOG_NAMES = ['devtools.log.json', 'devtools.log.json.gz'];

interface DevtoolsMessage {
  method?: string;
  params?: Record<string, unknown>;
}

/** Parser-initiator positions by request id from Network.requestWillBeSent (0-based in the protocol). */
export function initiatorsFromDevtoolsLog(log: unknown): ExtraInitiators {
  const out: ExtraInitiators = new Map();
  if (!Array.isArray(log)) return out;
  for (const m of log as DevtoolsMessage[]) {
    if (m?.method !== 'Network.requestWillBeSent' || !m.params) continue;
    const init = m.params.initiator as { type?: string; url?: string; lineNumber?: number; columnNumber?: number } | undefined;
    const id = m.params.requestId;
    if (typeof id !== 'string' || init?.type !== 'parser' || typeof init.url !== 'string' || typeof init.lineNumber !== 'number') continue;
    out.set(id, { url: init.url, line: init.lineNumber + 1, column: (init.columnNumber ?? 0) + 1 });
  }
  return out;
}

/**
 * Uncaught exceptions (Runtime.exceptionThrown) on the trace clock. The protocol stamps them with wall
 * time (ms since the epoch); each Network.requestWillBeSent carries both clocks (timestamp: monotonic s,
 * the trace's clock; wallTime: epoch s), and the median of their differences maps one onto the other.
 */
export function exceptionsFromDevtoolsLog(log: unknown): UncaughtException[] {
  if (!Array.isArray(log)) return [];
  const offsets: number[] = [];
  const raw: Array<{ wallMs: number; url: string; line: number; scriptId?: string }> = [];
  for (const m of log as DevtoolsMessage[]) {
    const p = m?.params;
    if (!p) continue;
    if (m.method === 'Network.requestWillBeSent' && typeof p.timestamp === 'number' && typeof p.wallTime === 'number') offsets.push(p.timestamp - p.wallTime);
    else if (m.method === 'Runtime.exceptionThrown' && typeof p.timestamp === 'number') {
      const d = (p.exceptionDetails ?? {}) as { url?: unknown; lineNumber?: unknown; scriptId?: unknown };
      raw.push({
        wallMs: p.timestamp,
        url: typeof d.url === 'string' ? d.url : '',
        line: typeof d.lineNumber === 'number' ? d.lineNumber + 1 : 0,
        ...(typeof d.scriptId === 'string' ? { scriptId: d.scriptId } : {}),
      });
    }
  }
  if (offsets.length === 0) return [];
  offsets.sort((a, b) => a - b);
  const offset = offsets[offsets.length >> 1]!;
  return raw.map(({ wallMs, ...e }) => ({ ...e, ts: (wallMs / 1000 + offset) * 1e6 }));
}

/** Listeners on frames' windows from the profiler's listeners.json (0-based positions there). */
function bundleWindowListeners(dir: string, warnings: string[]): WindowListener[] {
  if (!existsSync(join(dir, 'listeners.json'))) return [];
  try {
    const list = JSON.parse(readText(join(dir, 'listeners.json'))) as Array<Record<string, unknown>>;
    const out: WindowListener[] = [];
    for (const l of Array.isArray(list) ? list : []) {
      if (l.target !== 'window' || typeof l.frameId !== 'string' || typeof l.type !== 'string' || typeof l.scriptId !== 'string') continue;
      if (typeof l.lineNumber !== 'number' || typeof l.columnNumber !== 'number') continue;
      out.push({ frame: l.frameId, type: l.type, scriptId: l.scriptId, line: l.lineNumber + 1, column: l.columnNumber + 1, useCapture: l.useCapture === true });
    }
    return out;
  } catch (e) {
    warnings.push(`listeners.json: unreadable (${(e as Error).message}); window and document DOMContentLoaded handlers are not told apart`);
    return [];
  }
}

/** HTML sources by url from the profiler's documents.json ([{url, body, base64Encoded?}]). */
function bundleDocuments(dir: string, warnings: string[]): Map<string, string> | undefined {
  if (!existsSync(join(dir, 'documents.json'))) return undefined;
  try {
    const docs = JSON.parse(readText(join(dir, 'documents.json'))) as Array<{ url?: unknown; body?: unknown; base64Encoded?: unknown }>;
    const out = new Map<string, string>();
    for (const d of Array.isArray(docs) ? docs : []) {
      if (typeof d.url !== 'string' || typeof d.body !== 'string') continue;
      out.set(d.url.split('#')[0]!, d.base64Encoded === true ? Buffer.from(d.body, 'base64').toString('utf8') : d.body);
    }
    return out;
  } catch (e) {
    warnings.push(`documents.json: unreadable (${(e as Error).message}); tag positions come from the trace alone`);
    return undefined;
  }
}

/** The frame tree the profiler recorded (frames.json: {frames: [{id, parentId}]}), when the bundle has one. */
function bundleFrameParents(dir: string, warnings: string[]): Map<string, string | null> | undefined {
  if (!existsSync(join(dir, 'frames.json'))) return undefined;
  try {
    const tree = JSON.parse(readText(join(dir, 'frames.json'))) as { frames?: Array<{ id?: unknown; parentId?: unknown }> };
    const out = new Map<string, string | null>();
    for (const f of tree.frames ?? []) if (typeof f.id === 'string') out.set(f.id, typeof f.parentId === 'string' ? f.parentId : null);
    return out;
  } catch (e) {
    warnings.push(`frames.json: unreadable (${(e as Error).message}); out-of-process frames attach to the main frame`);
    return undefined;
  }
}

/** What a bundle holds beside its trace for extraction: the frame tree, uncaught exceptions, window listeners. */
export function bundleExtractOptions(dir: string, devtoolsLog: unknown, warnings: string[]): ExtractOptions {
  return {
    frameParents: bundleFrameParents(dir, warnings),
    exceptions: exceptionsFromDevtoolsLog(devtoolsLog),
    windowListeners: bundleWindowListeners(dir, warnings),
  };
}

/** Reads a bundle directory or a trace file and returns its activity model. */
export function readTraceInput(path: string): TraceInput {
  const warnings: string[] = [];
  let tracePath = path;
  let devtoolsLog: unknown;
  let browserVersion: string | undefined;
  let kind: TraceInput['kind'] = 'devtools-trace';
  if (statSync(path).isDirectory()) {
    const name = TRACE_NAMES.find((n) => existsSync(join(path, n)));
    if (!name) throw new Error(`${path}: no trace.json.gz in this bundle (found: ${readdirSync(path).join(', ') || 'nothing'})`);
    tracePath = join(path, name);
    kind = 'chrome-trace';
    const logName = LOG_NAMES.find((n) => existsSync(join(path, n)));
    if (logName) {
      try {
        devtoolsLog = JSON.parse(readText(join(path, logName)));
      } catch (e) {
        warnings.push(`${logName}: unreadable (${(e as Error).message}); iframe initiators may be less precise`);
      }
    } else warnings.push('bundle has no devtools.log.json; iframe initiators come from the trace alone');
    if (existsSync(join(path, 'meta.json'))) {
      try {
        // The profiler records Browser.getVersion: {product: 'Chrome/156.0…', revision, userAgent, …}.
        const meta = JSON.parse(readText(join(path, 'meta.json'))) as { browser?: { product?: string } };
        browserVersion = meta.browser?.product;
      } catch {
        warnings.push('meta.json: unreadable');
      }
    }
  }
  const file = parseTrace(readText(tracePath), tracePath);
  warnings.push(...file.warnings);
  if (kind === 'devtools-trace') warnings.push('single trace file: no DevTools network log, so iframe initiators and cache details come from the trace alone');
  browserVersion ??= typeof file.metadata['product-version'] === 'string' ? (file.metadata['product-version'] as string) : undefined;
  const load = extractTrace(file.events, tracePath === path ? { exceptions: exceptionsFromDevtoolsLog(devtoolsLog) } : bundleExtractOptions(path, devtoolsLog, warnings));
  const documentSources = tracePath === path ? undefined : bundleDocuments(path, warnings);
  const acts = traceToActivities(
    load,
    { extraInitiators: initiatorsFromDevtoolsLog(devtoolsLog), ...(documentSources ? { documentSources } : {}), ...(browserVersion ? { browserVersion } : {}) },
    warnings,
  );
  const navigation = navigationTimes(file.events, load.origin, load.mainFrame, devtoolsLog);
  if (navigation) acts.navigation = navigation;
  return { kind, acts, warnings, ...(browserVersion ? { browserVersion } : {}) };
}
