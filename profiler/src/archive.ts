/**
 * The bundle's response archive (`pcp profile --archive`): every response the page received, in
 * HAR 1.2 as the DevTools Network panel exports it (content.text, with encoding "base64" for binary
 * bodies), so that `pcp replay` can serve the page again without its origin and any HAR reader
 * (Chrome DevTools, har-validator, WebPageTest, mitmproxy) can open it.
 *
 * Built from the DevTools log (pure: `buildHar`) plus the bodies fetched with
 * Network.getResponseBody as each response finished. One entry per response: a redirect chain is one
 * request id in the protocol and several entries here (each hop's 3xx with its Location, no body).
 * Custom fields (HAR allows `_`-prefixed ones): `_remotePort`, `_requestId`, `_resourceType`,
 * `_frameId`, `_fromCache`, `_bodyMissing` (why the body could not be recorded) and `_chunks`
 * (`[[ms after the response headers, decoded bytes], ...]` from Network.dataReceived: how the body
 * arrived, for `pcp replay --pace`). The headers' time is the network service's (`timing.requestTime +
 * receiveHeadersEnd`, the data events' clock), not DevTools' responseReceived, which Chromium sends a
 * cross-origin script's renderer only once the body is in (issue 17); a body in one piece gets its
 * one chunk only when it came `ONE_PIECE_HOLD_MS` or more after the headers (the server held it).
 */
import type { DevtoolsLogEntry } from './bundle.ts';
import { str, type Params } from './protocol-values.ts';

/** A body as Network.getResponseBody returned it, or why it could not. */
export type RecordedBody = { body: string; base64Encoded: boolean } | { error: string };

export interface HarHeader { name: string; value: string }
export interface HarQueryParam { name: string; value: string }

export interface HarEntry {
  startedDateTime: string;
  time: number;
  request: {
    method: string; url: string; httpVersion: string; cookies: unknown[]; headers: HarHeader[];
    queryString: HarQueryParam[]; postData?: { mimeType: string; text: string }; headersSize: number; bodySize: number;
  };
  response: {
    status: number; statusText: string; httpVersion: string; cookies: unknown[]; headers: HarHeader[];
    content: { size: number; mimeType: string; text?: string; encoding?: 'base64' };
    redirectURL: string; headersSize: number; bodySize: number;
  };
  cache: Record<string, never>;
  timings: { blocked: number; dns: number; connect: number; send: number; wait: number; receive: number; ssl: number };
  serverIPAddress?: string;
  connection?: string;
  _remotePort?: number;
  _requestId: string;
  _resourceType?: string;
  _frameId?: string;
  _fromCache?: boolean;
  _bodyMissing?: string;
  _chunks?: [number, number][];
  /** The entry's schedule holds a new connection's set-up of its source (a synthesized site; pcp replay). */
  _setupInSpan?: boolean;
  /** The body ends by this, ms after the page's first request, however late the browser sent it (a synthesized site; pcp replay --pace). */
  _endBy?: number;
  /** With `_endBy`: the body never ends sooner than this, ms after its request (a held preload's network span; synth/src/preload-hold.ts). */
  _endByLeast?: number;
}

export interface Har {
  log: {
    version: '1.2';
    creator: { name: string; version: string };
    browser?: { name: string; version: string };
    pages: { startedDateTime: string; id: string; title: string; pageTimings: { onContentLoad: number; onLoad: number } }[];
    entries: (HarEntry & { pageref: string })[];
  };
}

export interface ArchiveSummary {
  /** Responses archived (redirect hops included). */
  entries: number;
  /** Responses whose body the protocol could not return (see the entries' `_bodyMissing`). */
  missingBodies: number;
  /** Redirect hops (3xx entries). */
  redirects: number;
}

/**
 * A body that came in one piece is archived with its arrival (a one-chunk `_chunks`) when it came this
 * long after the headers or longer: a server's hold. Below it, the time is the browser's own passing of
 * the body (the network service's read and IPC: 0.4-15 ms on a loopback recording), which a replay's
 * browser adds again.
 */
export const ONE_PIECE_HOLD_MS = 20;

const n = (v: unknown, d = -1): number => (typeof v === 'number' && Number.isFinite(v) ? v : d);

/** Requests with no network exchange to replay. */
export function isArchivable(url: string): boolean {
  return /^https?:/i.test(url);
}

/** Protocol header objects join repeated headers with '\n' (Set-Cookie): one HAR header per value. */
export function harHeaders(h: unknown): HarHeader[] {
  const out: HarHeader[] = [];
  for (const [name, value] of Object.entries((h ?? {}) as Record<string, unknown>)) {
    for (const v of String(value).split('\n')) out.push({ name, value: v });
  }
  return out;
}

function queryString(url: string): HarQueryParam[] {
  try {
    return [...new URL(url).searchParams].map(([name, value]) => ({ name, value }));
  } catch {
    return [];
  }
}

function httpVersion(protocol: string): string {
  // DevTools' own export writes the protocol as the version ('http/1.1', 'h2', 'h3').
  return protocol || 'http/1.1';
}

interface Open {
  entry: HarEntry;
  wallTime: number;
  timestamp: number;
  /** Protocol clock of the response headers, once received. */
  responseAt?: number;
  /** Network.dataReceived as logged: [protocol clock, decoded bytes]. */
  data?: [number, number][];
}

/**
 * When the network service had read a response's headers, on the protocol clock of its data events
 * (`timing.requestTime` + `timing.receiveHeadersEnd` ms), or undefined when the response has no timing
 * (a cache hit, a service worker's response).
 */
export function headersReadAt(resp: Params): number | undefined {
  const t = resp.timing as Params | undefined;
  const start = n(t?.requestTime, NaN);
  const end = n(t?.receiveHeadersEnd, NaN);
  return Number.isFinite(start) && start > 0 && Number.isFinite(end) && end >= 0 ? start + end / 1000 : undefined;
}

/**
 * How a body arrived, for `pcp replay --pace`: `[ms after headersAt, bytes]` per data event that
 * carried bytes (0.1 ms resolution, never before the headers; Chromium sometimes follows a body with
 * an empty one), or undefined when there is nothing to pace: no bytes, or one piece within
 * `ONE_PIECE_HOLD_MS` of the headers. Pure.
 */
export function bodyChunks(data: readonly (readonly [number, number])[], headersAt: number): [number, number][] | undefined {
  const chunks = data.filter(([, bytes]) => bytes > 0).map(([at, bytes]): [number, number] => [Math.round(Math.max(0, at - headersAt) * 1e4) / 10, bytes]);
  if (chunks.length > 1) return chunks;
  return chunks.length === 1 && chunks[0]![0] >= ONE_PIECE_HOLD_MS ? chunks : undefined;
}

/**
 * Every response in the DevTools log as HAR entries, bodies attached from `bodies` (keyed by
 * request id: only the final response of a request has one). Pure.
 */
export function buildHar(
  log: readonly DevtoolsLogEntry[], bodies: ReadonlyMap<string, RecordedBody>,
  info: { creator: { name: string; version: string }; browser?: string; pageUrl: string; pageStarted?: string; onContentLoad?: number; onLoad?: number },
): { har: Har; summary: ArchiveSummary } {
  const open = new Map<string, Open>();
  const done: Open[] = [];
  const seen = new Set<string>(); // requestId:phase, against the same event logged in two sessions

  const closeWith = (o: Open, resp: Params, timestamp: number): void => {
    const r = o.entry.response;
    r.status = n(resp.status, 0);
    r.statusText = str(resp.statusText);
    r.httpVersion = httpVersion(str(resp.protocol));
    r.headers = harHeaders(resp.headers);
    r.content.mimeType = str(resp.mimeType) || 'x-unknown';
    r.redirectURL = r.headers.find((h) => h.name.toLowerCase() === 'location')?.value ?? '';
    r.headersSize = -1;
    o.entry.serverIPAddress = str(resp.remoteIPAddress) || undefined;
    o.entry._remotePort = n(resp.remotePort, 0) || undefined;
    o.entry.connection = resp.connectionId === undefined ? undefined : String(resp.connectionId);
    o.entry._fromCache = Boolean(resp.fromDiskCache || resp.fromPrefetchCache || resp.fromServiceWorker) || undefined;
    o.entry.time = Math.max(0, (timestamp - o.timestamp) * 1000);
    o.entry.timings.wait = o.entry.time;
  };

  for (const e of log) {
    const p = e.params;
    const id = str(p.requestId);
    switch (e.method) {
      case 'Network.requestWillBeSent': {
        const req = (p.request ?? {}) as Params;
        const url = str(req.url);
        const hop = `${id}:send:${url}:${n(p.timestamp)}`;
        if (seen.has(hop)) break;
        seen.add(hop);
        const prev = open.get(id);
        if (prev && p.redirectResponse) {
          closeWith(prev, p.redirectResponse as Params, n(p.timestamp, prev.timestamp));
          prev.entry.response.content.size = 0;
          prev.entry.response.bodySize = 0;
          done.push(prev);
          open.delete(id);
        }
        if (!isArchivable(url)) break;
        const wallTime = n(p.wallTime, 0);
        const postData = typeof req.postData === 'string' ? { mimeType: str((req.headers as Params | undefined)?.['Content-Type']), text: req.postData } : undefined;
        open.set(id, {
          wallTime,
          timestamp: n(p.timestamp, 0),
          entry: {
            startedDateTime: new Date(wallTime * 1000).toISOString(),
            time: 0,
            request: {
              method: str(req.method) || 'GET', url, httpVersion: 'http/1.1', cookies: [], headers: harHeaders(req.headers),
              queryString: queryString(url), postData, headersSize: -1, bodySize: postData ? Buffer.byteLength(postData.text) : 0,
            },
            response: {
              status: 0, statusText: '', httpVersion: '', cookies: [], headers: [], content: { size: 0, mimeType: 'x-unknown' },
              redirectURL: '', headersSize: -1, bodySize: -1,
            },
            cache: {},
            timings: { blocked: -1, dns: -1, connect: -1, send: 0, wait: 0, receive: 0, ssl: -1 },
            _requestId: id,
            _resourceType: str(p.type) || undefined,
            _frameId: str(p.frameId) || undefined,
          },
        });
        break;
      }
      case 'Network.responseReceived': {
        const o = open.get(id);
        if (!o || seen.has(`${id}:resp`)) break;
        seen.add(`${id}:resp`);
        closeWith(o, (p.response ?? {}) as Params, n(p.timestamp, o.timestamp));
        o.responseAt = headersReadAt((p.response ?? {}) as Params) ?? n(p.timestamp, o.timestamp);
        const req = o.entry.request;
        req.httpVersion = o.entry.response.httpVersion;
        const reqHeaders = ((p.response as Params).requestHeaders ?? undefined) as Params | undefined;
        if (reqHeaders) req.headers = harHeaders(reqHeaders);
        break;
      }
      case 'Network.dataReceived': {
        const o = open.get(id);
        if (!o || seen.has(`${id}:data:${n(p.timestamp)}:${n(p.dataLength)}`)) break;
        seen.add(`${id}:data:${n(p.timestamp)}:${n(p.dataLength)}`);
        (o.data ??= []).push([n(p.timestamp, 0), n(p.dataLength, 0)]);
        break;
      }
      case 'Network.requestServedFromCache': {
        const o = open.get(id);
        if (o) o.entry._fromCache = true;
        break;
      }
      case 'Network.loadingFinished':
      case 'Network.loadingFailed': {
        const o = open.get(id);
        if (!o) break;
        open.delete(id);
        if (e.method === 'Network.loadingFailed' && !o.entry.response.status) {
          // No response at all (refused, aborted before headers): nothing a server could replay.
          break;
        }
        o.entry.time = Math.max(o.entry.time, (n(p.timestamp, o.timestamp) - o.timestamp) * 1000);
        o.entry.response.bodySize = n(p.encodedDataLength, -1);
        const chunks = o.data && o.responseAt !== undefined ? bodyChunks(o.data, o.responseAt) : undefined;
        if (chunks) o.entry._chunks = chunks;
        if (e.method === 'Network.loadingFailed') o.entry._bodyMissing = `loading failed: ${str(p.errorText)}`;
        done.push(o);
        break;
      }
    }
  }
  // Responses still open at the end (streamed, hung, or the capture ended first).
  for (const o of open.values()) {
    if (!o.entry.response.status) continue;
    o.entry._bodyMissing ??= 'the response had not finished when the capture ended';
    done.push(o);
  }

  let missing = 0;
  let redirects = 0;
  const entries = done
    .sort((a, b) => a.timestamp - b.timestamp)
    .map((o) => {
      const en = o.entry;
      const r = en.response;
      if (r.status >= 300 && r.status < 400 && r.redirectURL) {
        redirects++;
        return en;
      }
      const b = bodies.get(en._requestId);
      if (!en._bodyMissing) {
        if (!b) en._bodyMissing = 'no body was returned for this response';
        else if ('error' in b) en._bodyMissing = b.error;
        else {
          r.content.text = b.body;
          if (b.base64Encoded) r.content.encoding = 'base64';
          r.content.size = b.base64Encoded ? Buffer.from(b.body, 'base64').length : Buffer.byteLength(b.body);
        }
      }
      if (en._bodyMissing) missing++;
      return en;
    });
  const pageStarted = info.pageStarted ?? entries[0]?.startedDateTime ?? new Date(0).toISOString();
  const har: Har = {
    log: {
      version: '1.2',
      creator: info.creator,
      browser: info.browser ? { name: 'Chromium', version: info.browser } : undefined,
      pages: [{ startedDateTime: pageStarted, id: 'page_1', title: info.pageUrl, pageTimings: { onContentLoad: info.onContentLoad ?? -1, onLoad: info.onLoad ?? -1 } }],
      entries: entries.map((en) => ({ pageref: 'page_1', ...en })),
    },
  };
  return { har, summary: { entries: entries.length, missingBodies: missing, redirects } };
}

/** The decoded body bytes of an entry, or undefined when it was not recorded. */
export function entryBody(entry: Pick<HarEntry, 'response'>): Buffer | undefined {
  const c = entry.response.content;
  if (c.text === undefined) return undefined;
  return c.encoding === 'base64' ? Buffer.from(c.text, 'base64') : Buffer.from(c.text, 'utf8');
}
