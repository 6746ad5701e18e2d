/**
 * The bundle contract: one directory per page load, written by the profiler (capture.ts) and read by
 * the graph builder (trace adapter), `pcp build`, `pcp replay` and the resumable batch. File names,
 * the type of each JSON file, and (bundle-read.ts, re-exported here) a validating reader for each.
 * Every file and field, with who writes and who reads it: ../BUNDLE.md. Import it as
 * `@pcp/profiler/bundle`: it does not load the capture (Chromium, CDP).
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ArchiveSummary } from './archive.ts';

export { BUNDLE_FILES } from './bundle-files.ts';
import { BUNDLE_FILES } from './bundle-files.ts';

/**
 * complete: load fired and the capture ended on quiet or at the cap after load;
 * partial: a trace exists but the page never fired load, or its renderer crashed;
 * failed: nothing useful (browser missing or crashed, unreachable URL, a download, an internal error).
 */
export type CaptureStatus = 'complete' | 'partial' | 'failed';

export type EndReason =
  | 'quiet'
  | 'timeout'
  | 'no-load'
  | 'unreachable'
  | 'download'
  | 'renderer-crash'
  | 'browser-crash'
  | 'browser-missing'
  | 'error';

/** One entry of devtools.log.json. */
export interface DevtoolsLogEntry {
  method: string;
  params: Record<string, unknown>;
  /** Child target session (out-of-process iframe, worker); absent for the page's own session. */
  sessionId?: string;
  targetType?: string;
}

/** One frame of frames.json (the graph builder's trace-side FrameInfo is a different, trace-derived record). */
export interface BundleFrame {
  id: string;
  parentId: string | null;
  url: string;
  name?: string;
  securityOrigin?: string;
  mimeType?: string;
  loaderId?: string;
  /** True when the frame runs in its own renderer (a child target). */
  outOfProcess: boolean;
  /** DevTools session its events were logged under ('' for the page's own session). */
  sessionId: string;
}

/** One entry of documents.json: one HTML document's source as the browser received it (Network.getResponseBody). */
export interface DocumentSource {
  requestId: string;
  url: string;
  frameId: string;
  mimeType: string;
  body?: string;
  base64Encoded?: boolean;
  /** Why the body is missing, when it is. */
  error?: string;
}

/** frames.json. */
export interface FramesFile {
  mainFrameId: string | null;
  frames: BundleFrame[];
}

export interface TimerSummary {
  installed: number;
  fired: number;
  removed: number;
  /** Timers installed and neither fired (single-shot) nor removed when the capture ended. */
  pendingAtEnd: { timerId: string; timeout: number; frame?: string }[];
  /**
   * Single-shot timers due well before the capture ended on quiet that had not run by then (they ran
   * after it, or never): the renderer was behind the clock (a starved machine), so what they did may be
   * missing. `lateMs`: how long they were overdue when the capture ended.
   */
  overdueAtEnd?: { timerId: string; timeout: number; frame?: string; lateMs: number }[];
}

/** A shaped link's conditions: rate (bit/s), round-trip time (ms), loss rate each way, the shaper backend. */
export interface NetworkConditions {
  bandwidthBps: number;
  rttMs: number;
  lossRate: number;
  backend?: string;
  /** The load replayed this recording (a bundle directory, relative to this bundle): recorded first, then served through the link. */
  replayedFrom?: string;
}

export interface BundleMeta {
  format: 'pcp-bundle/1';
  tool: { name: string; version: string };
  url: string;
  finalUrl?: string;
  status: CaptureStatus;
  endReason: EndReason;
  /** Human explanation of the status, one line. */
  message: string;
  warnings: string[];
  browser?: { product: string; revision: string; userAgent: string; jsVersion: string; protocolVersion: string };
  commandLine?: string[];
  options: {
    timeoutMs: number;
    quietMs: number;
    /** Quiet could end the capture only this long after the navigation (a replayed site's known activity); absent: no floor. */
    quietNotBeforeMs?: number;
    stallMs: number;
    /** Pending single-shot timers due within this held quiet (0: not followed); absent in bundles written before. */
    timerHorizonMs?: number;
    /** Timers held quiet at most this long after the network was quiet; absent in bundles written before. */
    timerCapMs?: number;
    viewport: { width: number; height: number };
    userAgent?: string;
    hostResolverRules?: string;
    ignoreCertificateErrors: boolean;
    pcap: boolean;
    sslKeyLog: boolean;
    categories: string[];
    /** Responses archived (archive.har); absent in bundles written before the option existed. */
    archive?: boolean;
    /**
     * Focus emulation (`Emulation.setFocusEmulationEnabled`) on the page and its frames: the page behaves
     * as a focused tab (element.focus() fires focus/blur, window focus fires). Absent in bundles written
     * before the option existed, which were captured without it.
     */
    focusEmulation?: boolean;
    /**
     * Site isolation: true, each cross-site iframe ran in a renderer of its own (Chromium's default since
     * 2018); false, in its parent's renderer (`--disable-site-isolation-trials`, the 2016 process model:
     * a cross-site frame's window.postMessage then has a trace link to its handler). Absent in bundles
     * written before the option existed, which were captured with site isolation.
     */
    siteIsolation?: boolean;
    /** Set when the page was loaded through a shaped link (pcp replay --bandwidth ... --profile). */
    conditions?: NetworkConditions;
  };
  timings: {
    startedAt: string;
    /** ms from start of the capture: browser up, navigation sent, DOMContentLoaded, load, end. */
    browserReadyMs?: number;
    navigateMs?: number;
    domContentLoadedMs?: number;
    loadMs?: number;
    endMs: number;
    /** Protocol monotonic clock (s) of the main document's request and of the load event; trace ts = s * 1e6. */
    navigationStartMonotonic?: number;
    loadMonotonic?: number;
    /** The instant quiet ended the capture (absent for other ends), on the same clock (s). */
    endedMonotonic?: number;
  };
  mainDocument?: { status: number; mimeType: string; url: string };
  counts: { requests: number; failedRequests: number; servedFromCache: number; frames: number; childTargets: number; traceEvents?: number; traceBytes?: number };
  timers?: TimerSummary;
  /**
   * The page's single-shot timers as followed during the load (options.timerHorizonMs > 0): how many the
   * hook saw installed and fired, how long (ms) they kept the capture open after the network was quiet,
   * and whether that hit options.timerCapMs (a page re-arming a timer forever).
   */
  timerWait?: { installed: number; fired: number; heldMs: number; capReached: boolean };
  inFlightAtEnd: number;
  /** Responses put in the HTTP cache before the load (a replay of a recorded browser's cache hits; cache-warm-up.ts). */
  cacheWarmUp?: { urls: number; warmed: number; failed: number };
  pcap?: { interface: string; packets?: number; bytes: number };
  /** With --archive: what archive.har holds (responses, bodies that could not be recorded, redirect hops). */
  archive?: ArchiveSummary;
  files: string[];
}

/**
 * One entry of listeners.json: an event listener on a frame's window or document when the capture
 * ended (DOMDebugger.getEventListeners; see listeners.ts).
 */
export interface ListenerRecord {
  frameId: string;
  target: 'window' | 'document';
  type: string;
  useCapture: boolean;
  once: boolean;
  /** The handler's position, as the protocol gives it (0-based line and column). */
  scriptId: string;
  lineNumber: number;
  columnNumber: number;
}

/** meta.json, or undefined when absent or unreadable (a batch then redoes the page); readBundleMeta validates. */
export function readMeta(dir: string): BundleMeta | undefined {
  const file = join(dir, BUNDLE_FILES.meta);
  if (!existsSync(file)) return undefined;
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as BundleMeta;
  } catch {
    return undefined;
  }
}

/** A bundle a resumed batch can skip. */
export function isComplete(dir: string): boolean {
  return readMeta(dir)?.status === 'complete';
}

/** Write via a temp file and rename, so a half-written file is never taken for a result. */
export function writeFileAtomic(file: string, data: string | Buffer): void {
  const tmp = `${file}.tmp-${process.pid}`;
  writeFileSync(tmp, data);
  renameSync(tmp, file);
}

/** A file-system-safe, stable, readable name for a page: host + path, plus a hash against collisions. */
export function slugForUrl(url: string): string {
  let base: string;
  try {
    const u = new URL(url);
    base = `${u.hostname}${u.port ? '_' + u.port : ''}${u.pathname}${u.search}`;
  } catch {
    base = url;
  }
  const readable = base.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 80) || 'page';
  const hash = createHash('sha1').update(url).digest('hex').slice(0, 8);
  return `${readable}-${hash}`;
}

export * from './bundle-read.ts';
