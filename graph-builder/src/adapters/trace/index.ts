/**
 * Stock Chromium input: a profiler bundle or a single trace saved by the DevTools Performance panel.
 * Reading is here, through the bundle contract's validating readers (@pcp/profiler/bundle, described
 * in profiler/BUNDLE.md); the cores are extract.ts (trace events -> TraceLoad) and to-activities.ts
 * (TraceLoad -> activity model).
 */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import {
  BUNDLE_FILES, TRACE_NAMES, findBundleFile, readBundleMeta, readDevtoolsLog, readDocuments, readFramesFile, readListeners,
  type DevtoolsLogEntry,
} from '@pcp/profiler/bundle';
import { readText } from '../../format/io.ts';
import { parseTrace } from './reader.ts';
import { extractTrace, type ExtractOptions, type UncaughtException, type WindowListener } from './extract.ts';
import { traceToActivities, type ExtraInitiators } from './to-activities.ts';
import { frameDocumentRequests, navigationTimes } from './navigation.ts';
import { loggedDocuments } from './logged-documents.ts';
import { documentBrowserDelay } from './activities/browser-delay.ts';
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

/** A log entry as a reader must take it: a single trace's caller may hand anything. */
type DevtoolsMessage = Partial<DevtoolsLogEntry>;

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

/**
 * One optional bundle file through its reader: a corrupt file costs what it adds (a warning saying
 * what is lost), never the graph.
 */
function optionalFile<T>(read: () => T | undefined, lost: string, warnings: string[]): T | undefined {
  try {
    return read();
  } catch (e) {
    warnings.push(`${(e as Error).message}; ${lost}`);
    return undefined;
  }
}

/** Listeners on frames' windows from the profiler's listeners.json (0-based positions there). */
function bundleWindowListeners(dir: string, warnings: string[]): WindowListener[] {
  const list = optionalFile(() => readListeners(dir), 'window and document DOMContentLoaded handlers are not told apart', warnings) ?? [];
  return list
    .filter((l) => l.target === 'window')
    .map((l) => ({ frame: l.frameId, type: l.type, scriptId: l.scriptId, line: l.lineNumber + 1, column: l.columnNumber + 1, useCapture: l.useCapture === true }));
}

/** HTML sources by url from the profiler's documents.json. */
function bundleDocuments(dir: string, warnings: string[]): Map<string, string> | undefined {
  const docs = optionalFile(() => readDocuments(dir), 'tag positions come from the trace alone', warnings);
  if (!docs) return undefined;
  const out = new Map<string, string>();
  for (const d of docs) {
    if (d.body === undefined) continue;
    out.set(d.url.split('#')[0]!, d.base64Encoded === true ? Buffer.from(d.body, 'base64').toString('utf8') : d.body);
  }
  return out;
}

/** The frame tree the profiler recorded (frames.json), when the bundle has one: parents, and the frames out of process. */
function bundleFrameTree(dir: string, warnings: string[]): Pick<ExtractOptions, 'frameParents' | 'outOfProcessFrames'> {
  const tree = optionalFile(() => readFramesFile(dir), 'out-of-process frames attach to the main frame', warnings);
  if (!tree) return {};
  return { frameParents: new Map(tree.frames.map((f) => [f.id, f.parentId])), outOfProcessFrames: new Set(tree.frames.filter((f) => f.outOfProcess).map((f) => f.id)) };
}

/** What a bundle holds beside its trace for extraction: the frame tree, uncaught exceptions, window listeners. */
export function bundleExtractOptions(dir: string, devtoolsLog: unknown, warnings: string[]): ExtractOptions {
  return {
    ...bundleFrameTree(dir, warnings),
    exceptions: exceptionsFromDevtoolsLog(devtoolsLog),
    windowListeners: bundleWindowListeners(dir, warnings),
    loggedDocuments: loggedDocuments(devtoolsLog),
  };
}

/** Reads a bundle directory or a trace file and returns its activity model. */
export function readTraceInput(path: string): TraceInput {
  const warnings: string[] = [];
  let tracePath = path;
  let devtoolsLog: unknown;
  let browserVersion: string | undefined;
  let shaped = false;
  let kind: TraceInput['kind'] = 'devtools-trace';
  if (statSync(path).isDirectory()) {
    const name = findBundleFile(path, TRACE_NAMES);
    if (!name) throw new Error(`${path}: no ${BUNDLE_FILES.trace} in this bundle (found: ${readdirSync(path).join(', ') || 'nothing'})`);
    tracePath = join(path, name);
    kind = 'chrome-trace';
    const found = optionalFile(() => readDevtoolsLog(path) ?? null, 'iframe initiators may be less precise', warnings);
    if (found) devtoolsLog = found.log;
    else if (found === null) warnings.push(`bundle has no ${BUNDLE_FILES.devtoolsLog}; iframe initiators come from the trace alone`);
    // The profiler records Browser.getVersion: {product: 'Chrome/156.0…', revision, userAgent, …}.
    const meta = optionalFile(() => readBundleMeta(path), 'the browser version comes from the trace', warnings);
    browserVersion = meta?.browser?.product;
    shaped = meta?.options.conditions !== undefined;
  }
  const file = parseTrace(readText(tracePath), tracePath);
  warnings.push(...file.warnings);
  if (kind === 'devtools-trace') warnings.push('single trace file: no DevTools network log, so iframe initiators and cache details come from the trace alone');
  browserVersion ??= typeof file.metadata['product-version'] === 'string' ? (file.metadata['product-version'] as string) : undefined;
  const options: ExtractOptions = tracePath === path ? { exceptions: exceptionsFromDevtoolsLog(devtoolsLog) } : bundleExtractOptions(path, devtoolsLog, warnings);
  const load = extractTrace(file.events, options);
  const documentSources = tracePath === path ? undefined : bundleDocuments(path, warnings);
  const acts = traceToActivities(
    load,
    {
      extraInitiators: initiatorsFromDevtoolsLog(devtoolsLog),
      frameDocumentRequests: frameDocumentRequests(options.loggedDocuments ?? [], load.origin, load.mainFrame),
      ...(documentSources ? { documentSources } : {}),
      ...(browserVersion ? { browserVersion } : {}),
    },
    warnings,
  );
  const navigation = navigationTimes(file.events, load.origin, load.mainFrame, options.loggedDocuments);
  if (navigation) {
    acts.navigation = navigation;
    const docId = acts.frames.find((f) => f.parent === null)?.document;
    const doc = acts.resources.find((r) => r.id === docId);
    const request = load.requests.find((r) => r.frame === load.mainFrame && r.resourceType === 'Document');
    const delay = request && documentBrowserDelay(request, navigation);
    if (doc && delay) doc.browserDelay = delay;
  }
  // Through a shaped link the network service's read of a body and its wait for the headers also hold the
  // body's transfer and the round trip: not the browser's own.
  if (shaped) {
    for (const r of acts.resources) {
      if (!r.browserDelay) continue;
      delete r.browserDelay.read;
      delete r.browserDelay.wait;
    }
  }
  return { kind, acts, warnings, ...(browserVersion ? { browserVersion } : {}) };
}
