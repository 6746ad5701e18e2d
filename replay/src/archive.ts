/**
 * A bundle's response archive (archive.har, written by `pcp profile --archive`) read for replay:
 * the page URL, every recorded response with its body bytes, and the origins to serve.
 */
import { existsSync } from 'node:fs';
import { BUNDLE_FILES, readArchiveHar, readMeta } from '@pcp/profiler/bundle';
import { entryBody, type Har, type HarHeader } from '@pcp/profiler';

export type OriginProtocol = 'http/1.1' | 'h2';

export interface ReplayEntry {
  /** Position in the archive (recorded order). */
  index: number;
  method: string;
  url: string;
  status: number;
  statusText: string;
  headers: HarHeader[];
  /** Undefined when the body could not be recorded (served empty and counted). */
  body: Buffer | undefined;
  protocol: string;
  /** Server delay (ms) to hold the response for; set from the bundle's capture (see delays.ts). */
  delayMs: number;
  /** How the body arrived when recorded: [ms after the headers, bytes] (for --pace). */
  chunks?: [number, number][];
  /** The recorded browser took this response from its cache (HAR `_fromCache`; cache-hits.ts). */
  fromCache?: boolean;
  /**
   * Its schedule (delay and `_chunks`) was made from the source's whole span, a new connection's set-up
   * included (HAR `_setupInSpan`: a synthesized site): the replay takes its own set-up off (setup.ts).
   */
  setupInSpan?: boolean;
  /**
   * Its body ends by this, ms after the page's first request (HAR `_endBy`: a synthesized download whose
   * recorded span already holds the source browser's waits, synth/src/ran-early.ts): the replay's browser's
   * own waits before the request reached the server come off its schedule (pace.ts `endingBy`).
   */
  endByMs?: number;
  /** With `endByMs`: the body never ends sooner than this after its request (HAR `_endByLeast`: the bytes' own time). */
  endByLeastMs?: number;
}

export interface RecordedOrigin {
  /** scheme://host:port, the port always explicit. */
  origin: string;
  scheme: 'http' | 'https';
  host: string;
  port: number;
  /** True for an IP literal (127.0.0.1, [::1]) rather than a host name. */
  ipLiteral: boolean;
  /** h2 when any response of the origin came over HTTP/2, else http/1.1. */
  protocol: OriginProtocol;
}

export interface ReplayArchive {
  pageUrl: string;
  entries: ReplayEntry[];
  origins: RecordedOrigin[];
}

export class ArchiveError extends Error {}

/** scheme://host:port with the default port made explicit. */
export function originOf(url: string): { origin: string; scheme: 'http' | 'https'; host: string; port: number } {
  const u = new URL(url);
  const scheme = u.protocol === 'https:' ? 'https' : 'http';
  const port = u.port ? Number(u.port) : scheme === 'https' ? 443 : 80;
  return { origin: `${scheme}://${u.hostname}:${port}`, scheme, host: u.hostname, port };
}

export function isIpLiteral(host: string): boolean {
  return /^\d{1,3}(\.\d{1,3}){3}$/.test(host) || host.startsWith('[');
}

/** The origins of the entries, in order of first use (the page's first). Pure. */
export function recordedOrigins(entries: readonly Pick<ReplayEntry, 'url' | 'protocol'>[]): RecordedOrigin[] {
  const by = new Map<string, RecordedOrigin>();
  for (const e of entries) {
    const o = originOf(e.url);
    let r = by.get(o.origin);
    if (!r) {
      r = { ...o, ipLiteral: isIpLiteral(o.host), protocol: 'http/1.1' };
      by.set(o.origin, r);
    }
    if (e.protocol === 'h2') r.protocol = 'h2';
  }
  return [...by.values()];
}

export function readArchive(bundleDir: string): ReplayArchive {
  if (!existsSync(bundleDir)) throw new ArchiveError(`${bundleDir}: no such bundle directory`);
  let har: Har | undefined;
  try {
    har = readArchiveHar(bundleDir);
  } catch (e) {
    throw new ArchiveError(`${bundleDir}: ${(e as Error).message}`);
  }
  if (!har) throw new ArchiveError(`${bundleDir} has no ${BUNDLE_FILES.archive}: profile the page with --archive to record its responses`);
  const entries: ReplayEntry[] = har.log.entries
    .filter((e) => e?.request?.url && /^https?:/.test(e.request.url) && e.response?.status > 0)
    .map((e, index) => ({
      index,
      method: e.request.method || 'GET',
      url: e.request.url.replace(/#.*$/, ''),
      status: e.response.status,
      statusText: e.response.statusText ?? '',
      headers: e.response.headers ?? [],
      body: entryBody(e),
      protocol: e.response.httpVersion ?? '',
      delayMs: 0,
      chunks: Array.isArray(e._chunks) ? e._chunks : undefined,
      ...(e._fromCache === true ? { fromCache: true } : {}),
      ...(e._setupInSpan === true ? { setupInSpan: true } : {}),
      ...(typeof e._endBy === 'number' && Number.isFinite(e._endBy) ? { endByMs: e._endBy } : {}),
      ...(typeof e._endByLeast === 'number' && Number.isFinite(e._endByLeast) ? { endByLeastMs: e._endByLeast } : {}),
    }));
  if (entries.length === 0) throw new ArchiveError(`${bundleDir}: ${BUNDLE_FILES.archive} holds no responses`);
  const pageUrl = readMeta(bundleDir)?.url ?? har.log.pages?.[0]?.title ?? entries[0]!.url;
  return { pageUrl, entries, origins: recordedOrigins(entries) };
}
