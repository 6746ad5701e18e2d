/**
 * A capture bundle: one directory per page load.
 *   trace.json.gz     Chrome trace {"traceEvents": [...]} (DevTools Performance panel, Perfetto)
 *   devtools.log.json [{method, params, sessionId?, targetType?}] protocol events (Lighthouse's layout)
 *   frames.json       the frame tree, every frame incl. out-of-process iframes
 *   documents.json    the source of every HTML document loaded (main frame and iframes)
 *   archive.har       with --archive: every response with its body (HAR 1.2, see archive.ts)
 *   meta.json         browser, command line, timings, status and why the capture ended (written last)
 *   capture.pcap      with --pcap;  tls-keys.log  with --ssl-key-log
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ArchiveSummary } from './archive.ts';

export const BUNDLE_FILES = {
  trace: 'trace.json.gz',
  devtoolsLog: 'devtools.log.json',
  frames: 'frames.json',
  documents: 'documents.json',
  listeners: 'listeners.json',
  meta: 'meta.json',
  pcap: 'capture.pcap',
  tlsKeys: 'tls-keys.log',
  archive: 'archive.har',
} as const;

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

export interface DevtoolsLogEntry {
  method: string;
  params: Record<string, unknown>;
  /** Child target session (out-of-process iframe, worker); absent for the page's own session. */
  sessionId?: string;
  targetType?: string;
}

export interface FrameInfo {
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

/** One HTML document's source as the browser received it (Network.getResponseBody). */
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

export interface FramesFile {
  mainFrameId: string | null;
  frames: FrameInfo[];
}

export interface TimerSummary {
  installed: number;
  fired: number;
  removed: number;
  /** Timers installed and neither fired (single-shot) nor removed when the capture ended. */
  pendingAtEnd: { timerId: string; timeout: number; frame?: string }[];
}

/** A shaped link's conditions: rate (bit/s), round-trip time (ms), loss rate each way, the shaper backend. */
export interface NetworkConditions {
  bandwidthBps: number;
  rttMs: number;
  lossRate: number;
  backend?: string;
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
    stallMs: number;
    viewport: { width: number; height: number };
    userAgent?: string;
    hostResolverRules?: string;
    ignoreCertificateErrors: boolean;
    pcap: boolean;
    sslKeyLog: boolean;
    categories: string[];
    /** Responses archived (archive.har); absent in bundles written before the option existed. */
    archive?: boolean;
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
  };
  mainDocument?: { status: number; mimeType: string; url: string };
  counts: { requests: number; failedRequests: number; servedFromCache: number; frames: number; childTargets: number; traceEvents?: number; traceBytes?: number };
  timers?: TimerSummary;
  inFlightAtEnd: number;
  pcap?: { interface: string; packets?: number; bytes: number };
  /** With --archive: what archive.har holds (responses, bodies that could not be recorded, redirect hops). */
  archive?: ArchiveSummary;
  files: string[];
}

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
