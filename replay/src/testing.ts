/** Test helper: a bundle directory holding an archive.har of the given responses (HAR 1.2, as --archive writes it). */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Har, HarEntry } from '@pcp/profiler';

export interface FakeResponse {
  url: string;
  method?: string;
  status?: number;
  protocol?: string;
  headers?: Record<string, string>;
  mimeType?: string;
  /** undefined: recorded as missing. */
  body: Buffer | undefined;
  /** How the body arrived: [ms after the headers, bytes]. */
  chunks?: [number, number][];
  /** The recorded browser took it from its cache (HAR `_fromCache`). */
  fromCache?: boolean;
  /** Its schedule holds the source's connection set-up (HAR `_setupInSpan`). */
  setupInSpan?: boolean;
  /** Its body ends by this, ms after the page's first request (HAR `_endBy`). */
  endBy?: number;
  /** With endBy: never sooner than this after its request (HAR `_endByLeast`). */
  endByLeast?: number;
}

export function writeBundle(dir: string, pageUrl: string, responses: FakeResponse[]): void {
  const entries = responses.map((r, i): HarEntry & { pageref: string } => {
    const binary = r.mimeType !== undefined && !/^text\/|json|javascript/.test(r.mimeType);
    return {
      pageref: 'page_1',
      startedDateTime: new Date(1_700_000_000_000 + i).toISOString(),
      time: 1,
      request: { method: r.method ?? 'GET', url: r.url, httpVersion: r.protocol ?? 'http/1.1', cookies: [], headers: [], queryString: [], headersSize: -1, bodySize: 0 },
      response: {
        status: r.status ?? 200, statusText: 'OK', httpVersion: r.protocol ?? 'http/1.1', cookies: [],
        headers: Object.entries({ 'Content-Type': r.mimeType ?? 'text/html', ...r.headers }).map(([name, value]) => ({ name, value })),
        content: r.body === undefined ? { size: 0, mimeType: r.mimeType ?? 'text/html' }
          : binary ? { size: r.body.length, mimeType: r.mimeType!, text: r.body.toString('base64'), encoding: 'base64' }
          : { size: r.body.length, mimeType: r.mimeType ?? 'text/html', text: r.body.toString('utf8') },
        redirectURL: '', headersSize: -1, bodySize: r.body?.length ?? 0,
      },
      cache: {},
      timings: { blocked: -1, dns: -1, connect: -1, send: 0, wait: 1, receive: 0, ssl: -1 },
      _requestId: String(i),
      _bodyMissing: r.body === undefined ? 'test: not recorded' : undefined,
      _chunks: r.chunks,
      ...(r.fromCache ? { _fromCache: true } : {}),
      ...(r.setupInSpan ? { _setupInSpan: true } : {}),
      ...(r.endBy !== undefined ? { _endBy: r.endBy } : {}),
      ...(r.endByLeast !== undefined ? { _endByLeast: r.endByLeast } : {}),
    };
  });
  const har: Har = { log: { version: '1.2', creator: { name: 'test', version: '0' }, pages: [{ startedDateTime: entries[0]?.startedDateTime ?? '', id: 'page_1', title: pageUrl, pageTimings: { onContentLoad: -1, onLoad: -1 } }], entries } };
  writeFileSync(join(dir, 'archive.har'), JSON.stringify(har));
}
