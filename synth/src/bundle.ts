/**
 * A synthesized site written as a replay bundle: archive.har (HAR 1.2, as `pcp profile --archive`
 * writes it, with `_chunks` for pacing), meta.json (the page URL, what was synthesized from what),
 * and server-delays.json (the records `pcp delays` writes, which `pcp replay` and `pcp profile
 * --replay` hold each response for).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Har, HarEntry } from '@pcp/profiler';
import { BUNDLE_FILES } from '@pcp/profiler/bundle';
import type { Site, SiteResponse } from './site.ts';
import { withHttpsTwins } from './upgrades.ts';

/** The files a synthesized bundle has besides the bundle contract's. */
export const SYNTH_FILES = { serverDelays: 'server-delays.json' } as const;

const isText = (mimeType: string): boolean => /^text\/|javascript|json|xml|css|html/i.test(mimeType);

function entry(r: SiteResponse, i: number): HarEntry & { pageref: string } {
  const https = r.url.startsWith('https:');
  const proto = https ? 'h2' : 'http/1.1';
  // A script the source never ran (never-run.ts): text Chromium may not run as a script.
  const mimeType = r.noRun ? 'text/plain' : r.mimeType || 'application/octet-stream';
  const text = isText(mimeType);
  return {
    pageref: 'page_1',
    startedDateTime: new Date(Date.UTC(2026, 0, 1) + i).toISOString(),
    time: r.delayMs,
    request: { method: 'GET', url: r.url, httpVersion: proto, cookies: [], headers: [], queryString: [], headersSize: -1, bodySize: 0 },
    response: {
      status: r.status, statusText: r.status === 200 ? 'OK' : '', httpVersion: proto, cookies: [],
      headers: [
        { name: 'Content-Type', value: text ? `${mimeType}; charset=utf-8` : mimeType },
        // Cross-origin XHR and fetch of the graph must succeed as they did when recorded.
        { name: 'Access-Control-Allow-Origin', value: '*' },
        { name: 'Cache-Control', value: r.location || r.noStore ? 'no-store' : 'max-age=3600' },
        ...(r.location ? [{ name: 'Location', value: r.location }] : []),
        ...(r.noRun ? [{ name: 'X-Content-Type-Options', value: 'nosniff' }] : []),
      ],
      content: text ? { size: r.body.length, mimeType, text: r.body.toString('utf8') } : { size: r.body.length, mimeType, text: r.body.toString('base64'), encoding: 'base64' },
      redirectURL: r.location ?? '', headersSize: -1, bodySize: r.body.length,
    },
    cache: {},
    timings: { blocked: -1, dns: -1, connect: -1, send: 0, wait: r.delayMs, receive: 0, ssl: -1 },
    _requestId: String(i),
    _chunks: r.chunks,
    ...(r.fromCache && { _fromCache: true }),
    ...(r.endByMs !== undefined && { _endBy: r.endByMs }),
    ...(r.endByMs !== undefined && r.endByLeastMs !== undefined && { _endByLeast: r.endByLeastMs }),
    // Every schedule here is the source's span from its request, a new connection's set-up included.
    _setupInSpan: true,
  };
}

export interface SynthMeta {
  source: string;
  responses: number;
  warnings: string[];
  /** The source graph's last activity, ms after navigation start (activity.ts). */
  lastActivityMs?: number;
  /** The source graph's provenance.source; absent in sites written before it was recorded. */
  sourceKind?: string;
}

/**
 * `httpsTwins`: serve third-party http responses under https too (Chromium upgrades some, upgrades.ts);
 * off for pages whose hosts are all made up (parametric pages), where no browser upgrade applies.
 */
export function writeSiteBundle(dir: string, site: Site, source: string, { httpsTwins = true }: { httpsTwins?: boolean } = {}): void {
  mkdirSync(dir, { recursive: true });
  const served = httpsTwins ? withHttpsTwins(site.responses, site.pageUrl) : site.responses;
  const entries = served.map(entry);
  const har: Har = {
    log: {
      version: '1.2', creator: { name: 'pcp synthesize', version: '0.1.0' },
      pages: [{ startedDateTime: entries[0]?.startedDateTime ?? '', id: 'page_1', title: site.pageUrl, pageTimings: { onContentLoad: -1, onLoad: -1 } }],
      entries,
    },
  };
  writeFileSync(join(dir, BUNDLE_FILES.archive), JSON.stringify(har));
  writeFileSync(join(dir, SYNTH_FILES.serverDelays), JSON.stringify(served.map((r) => ({ method: 'GET', url: r.url, delayMs: r.delayMs }))));
  const meta = { format: 'pcp-bundle/1', tool: { name: 'pcp synthesize', version: '0.1.0' }, url: site.pageUrl, status: 'complete', synthesized: { source, responses: site.responses.length, warnings: site.warnings, lastActivityMs: site.lastActivityMs, sourceKind: site.sourceKind } satisfies SynthMeta };
  writeFileSync(join(dir, BUNDLE_FILES.meta), JSON.stringify(meta, null, 2));
}

/**
 * The synthesis record of the bundle in `dir` (meta.json's `synthesized`); undefined for a recorded
 * bundle or one without meta.json.
 */
export function readSynthMeta(dir: string): SynthMeta | undefined {
  const file = join(dir, BUNDLE_FILES.meta);
  if (!existsSync(file)) return undefined;
  try {
    return (JSON.parse(readFileSync(file, 'utf8')) as { synthesized?: SynthMeta }).synthesized;
  } catch (e) {
    throw new Error(`${file}: ${(e as Error).message}`);
  }
}
