/**
 * Frames' document requests as the DevTools network log saw them (the profiler's devtools.log.json), on
 * the trace clock (the protocol's `timestamp` is the trace's monotonic clock in seconds). The trace
 * records an iframe's document in the frame's renderer when the navigation commits; a cross-site frame
 * gets a renderer process of its own, and that process's first events can miss the trace (seen on a
 * loaded machine: the frame's scripts and images in the trace, its document not). The requests handler
 * falls back on these for a page frame whose document the trace lacks.
 */
import type { DevtoolsLogEntry } from '@pcp/profiler/bundle';

/** The network service's timing of a response, as the protocol and ResourceReceiveResponse give it. */
export interface ResponseTiming {
  requestTime?: number;
  sendStart?: number;
  receiveHeadersEnd?: number;
  dnsStart?: number;
  dnsEnd?: number;
  connectStart?: number;
  connectEnd?: number;
}

export interface LoggedDocument {
  requestId: string;
  frame: string;
  /** The last URL (after redirects). */
  url: string;
  method: string;
  /** Trace clock, µs: the request, its response headers, each body chunk, the end. */
  sent: number;
  response?: number;
  chunks: Array<{ ts: number; bytes: number }>;
  finish?: number;
  status: number;
  mimeType: string;
  timing?: ResponseTiming;
  encodedLength: number;
  /** Body bytes after decoding (the log's chunks carry them; their encoded sizes are often 0). */
  decodedLength: number;
  failed: boolean;
}

type Params = Record<string, unknown>;
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

/** Every Document request of the log, by request id in the order first sent. Pure. */
export function loggedDocuments(log: unknown): LoggedDocument[] {
  if (!Array.isArray(log)) return [];
  const docs = new Map<string, LoggedDocument>();
  for (const m of log as Partial<DevtoolsLogEntry>[]) {
    const p = m?.params as Params | undefined;
    const id = str(p?.requestId);
    const ts = num(p?.timestamp);
    if (!p || !id || ts === undefined) continue;
    const known = docs.get(id);
    switch (m.method) {
      case 'Network.requestWillBeSent': {
        const req = (p.request ?? {}) as Params;
        if (p.type !== 'Document' || !str(p.frameId) || !str(req.url)) break;
        if (known) known.url = str(req.url)!; // a redirect: same id, the new url
        else docs.set(id, { requestId: id, frame: str(p.frameId)!, url: str(req.url)!, method: str(req.method) ?? 'GET', sent: ts * 1e6, chunks: [], status: 0, mimeType: '', encodedLength: 0, decodedLength: 0, failed: false });
        break;
      }
      case 'Network.responseReceived': {
        if (!known) break;
        const res = (p.response ?? {}) as Params;
        known.response = ts * 1e6;
        known.status = num(res.status) ?? 0;
        known.mimeType = str(res.mimeType) ?? '';
        if (res.timing && typeof res.timing === 'object') known.timing = res.timing as ResponseTiming;
        break;
      }
      case 'Network.dataReceived':
        if (known) {
          known.chunks.push({ ts: ts * 1e6, bytes: num(p.encodedDataLength) ?? 0 });
          known.decodedLength += num(p.dataLength) ?? 0;
        }
        break;
      case 'Network.loadingFinished':
        if (known) {
          known.finish = ts * 1e6;
          known.encodedLength = num(p.encodedDataLength) ?? known.encodedLength;
        }
        break;
      case 'Network.loadingFailed':
        if (known) {
          known.finish = ts * 1e6;
          known.failed = true;
        }
        break;
      default:
    }
  }
  return [...docs.values()];
}
