/**
 * Network requests of the page's frames from time 0 on: ResourceSendRequest (url, type, priority,
 * initiator, and what the main thread was running when it was issued), ResourceReceiveResponse,
 * ResourceReceivedData (body chunks) and ResourceFinish. A response, chunk or finish counts only after its
 * request's send in the trace, as Chromium writes them; a redirect re-sends under the same requestId
 * (the first send is kept, with the last url and the ones before it). From the response's `timing` and the finish's `finishTime`:
 * the network service's times (`network`); from the loader starts: when the renderer released it.
 * A page frame whose document request the trace lacks gets it from the DevTools log (logged-documents.ts).
 */
import type { Handler } from '../../handler.ts';
import type { Initiator, TraceRequest } from '../load.ts';
import {
  callFrames,
  finite,
  IGNORED_URL,
  isNetworkEvent,
  isResourceSendRequest,
  networkData,
  NETWORK_EVENTS,
  sendRequestData,
  text,
  threadOf,
  type NetworkEvent,
  type RawInitiator,
  type ResourceSendRequest,
  type TraceEvent,
} from '../trace-events.ts';
import type { FrameData } from './frames.ts';
import type { InitiatorData } from './initiators.ts';
import type { LoaderStartData } from './loader-starts.ts';
import type { LoggedDocument } from '../logged-documents.ts';
import { ready } from './run.ts';

export interface RequestData {
  /** By send time. */
  requests: TraceRequest[];
  /** `pid:tid` of the thread that sent the main document's request (the main frame's renderer main thread). */
  documentThread?: string;
  warnings: string[];
}

/** A request's initiator as the trace reports it (positions made 1-based), or undefined without a type. */
export function initiatorOf(init: RawInitiator | undefined, stackTrace: unknown): Initiator | undefined {
  if (!init || !text(init.type)) return undefined;
  const i: Initiator = { type: text(init.type)! };
  if (text(init.url)) i.url = text(init.url);
  if (finite(init.lineNumber) !== undefined) i.line = finite(init.lineNumber)! + 1;
  if (finite(init.columnNumber) !== undefined) i.column = finite(init.columnNumber)! + 1;
  if (text(init.fetchType)) i.fetchType = text(init.fetchType);
  const stack = callFrames(init.stack?.callFrames ?? stackTrace);
  if (stack) i.stack = stack;
  return i;
}

function requestOf(e: ResourceSendRequest, frames: FrameData, initiators: InitiatorData): TraceRequest | undefined {
  const d = sendRequestData(e);
  const url = text(d.url) ?? '';
  const frame = text(d.frame) ?? '';
  if (IGNORED_URL.test(url) || !frames.frames.has(frame) || e.ts < frames.origin) return undefined;
  const req: TraceRequest = {
    requestId: text(d.requestId) ?? `${e.pid}.${e.ts}`,
    url,
    frame,
    resourceType: text(d.resourceType) ?? 'Other',
    method: text(d.requestMethod) ?? 'GET',
    send: frames.ms(e.ts),
    chunks: [],
    encodedLength: 0,
    decodedLength: 0,
    failed: false,
    fromCache: false,
    status: 0,
    mimeType: '',
  };
  if (text(d.priority)) req.priority = text(d.priority);
  if (text(d.renderBlocking)) req.renderBlocking = text(d.renderBlocking);
  const initiator = initiatorOf(d.initiator, d.stackTrace);
  if (initiator) req.initiator = initiator;
  const running = initiators.enclosing(threadOf(e), req.send);
  if (running !== undefined) req.runningAt = running;
  return req;
}

/** Applies a response, chunk or finish to its request. */
function update(r: TraceRequest, e: NetworkEvent, ms: (ts: number) => number): void {
  const d = networkData(e);
  switch (e.name) {
    case 'ResourceReceiveResponse':
      r.response = ms(e.ts);
      r.status = finite(d.statusCode) ?? r.status;
      r.mimeType = text(d.mimeType) ?? r.mimeType;
      r.protocol = text(d.protocol) ?? r.protocol;
      r.fromCache = d.fromCache === true || d.fromMemoryCache === true;
      networkTiming(r, d.timing, ms);
      break;
    case 'ResourceReceivedData':
      r.chunks.push({ time: ms(e.ts), bytes: finite(d.encodedDataLength) ?? 0 });
      break;
    case 'ResourceFinish':
      r.finish = ms(e.ts);
      r.failed = d.didFail === true;
      r.encodedLength = finite(d.encodedDataLength) ?? r.encodedLength;
      r.decodedLength = finite(d.decodedBodyLength) ?? r.decodedLength;
      if (r.network && (finite(d.finishTime) ?? 0) > 0) r.network.finish = ms(d.finishTime! * 1e6);
      break;
    default:
  }
}

/** The network service's times of a response (`timing` of ResourceReceiveResponse), when it has them. */
function networkTiming(r: TraceRequest, t: ReturnType<typeof networkData>['timing'] | LoggedDocument['timing'], ms: (ts: number) => number): void {
  const base = finite(t?.requestTime);
  const send = finite(t?.sendStart);
  const headers = finite(t?.receiveHeadersEnd);
  if (!t || base === undefined || base <= 0 || send === undefined || send < 0 || headers === undefined || headers < 0) return;
  const span = (a: number | undefined, b: number | undefined): number => (a !== undefined && b !== undefined && a >= 0 && b >= a ? b - a : 0);
  const t0 = ms(base * 1e6);
  const handshake = span(finite(t.connectStart), finite(t.connectEnd));
  r.network = { sent: t0 + send, headers: t0 + headers, connect: span(finite(t.dnsStart), finite(t.dnsEnd)) + handshake };
  if (handshake > 0) r.network.handshake = handshake;
}

/** Each request's loader start: the first one of its url at or after its send not taken by an earlier request. */
function assignReleases(requests: TraceRequest[], loaders: LoaderStartData, frames: FrameData): void {
  const next = new Map<string, number>();
  for (const r of requests) {
    const starts = loaders.starts.get(r.url);
    if (!starts) continue;
    let i = next.get(r.url) ?? 0;
    while (i < starts.length && frames.ms(starts[i]!) < r.send) i++;
    if (i < starts.length) r.released = frames.ms(starts[i++]!);
    next.set(r.url, i);
  }
}

/**
 * A frame's document request from the DevTools log. The trace records a frame's document when its
 * navigation commits, after the response; the commit itself is not in the log, so the response stands
 * for it (the frame's commit delay comes out short).
 */
export function requestFromLog(d: LoggedDocument, ms: (ts: number) => number): TraceRequest {
  const last = d.chunks[d.chunks.length - 1]?.ts;
  const r: TraceRequest = {
    requestId: d.requestId,
    url: d.url,
    frame: d.frame,
    resourceType: 'Document',
    method: d.method,
    send: ms(d.response ?? d.sent),
    chunks: d.chunks.map((c) => ({ time: ms(c.ts), bytes: c.bytes })),
    encodedLength: d.encodedLength,
    decodedLength: d.decodedLength,
    failed: d.failed,
    fromCache: false,
    status: d.status,
    mimeType: d.mimeType,
  };
  if (d.response !== undefined) r.response = ms(d.response);
  if (d.finish !== undefined || last !== undefined) r.finish = ms(Math.max(d.finish ?? -Infinity, last ?? -Infinity));
  networkTiming(r, d.timing, ms);
  // The log's end of loading is the network service's (ResourceFinish's finishTime); the renderer's is its last chunk.
  if (r.network && d.finish !== undefined) r.network.finish = ms(d.finish);
  return r;
}

/** Page frames (not the main one) without a document request in the trace: the last the log has of each. */
function missingFrameDocuments(requests: Map<string, TraceRequest>, frames: FrameData, logged: readonly LoggedDocument[]): LoggedDocument[] {
  const documented = new Set([...requests.values()].filter((r) => r.resourceType === 'Document').map((r) => r.frame));
  const out: LoggedDocument[] = [];
  for (const id of frames.frames.keys()) {
    if (id === frames.mainFrame || documented.has(id)) continue;
    const doc = logged.filter((d) => d.frame === id && !requests.has(d.requestId) && d.sent >= frames.origin).at(-1);
    if (doc && !IGNORED_URL.test(doc.url)) out.push(doc);
  }
  return out;
}

export function requestHandler(loggedDocuments: readonly LoggedDocument[] = []): Handler<TraceEvent, RequestData, { frames: FrameData; initiators: InitiatorData; loaderStarts: LoaderStartData }> {
  /** The network events in trace order: whether one applies depends on the page's frames, known at the end. */
  let network: NetworkEvent[] = [];
  let out: RequestData | undefined;
  return {
    kinds: NETWORK_EVENTS,
    deps: ['frames', 'initiators', 'loaderStarts'],
    reset() {
      network = [];
      out = undefined;
    },
    handleEvent(e) {
      if (isNetworkEvent(e)) network.push(e);
    },
    finalize({ frames, initiators, loaderStarts }) {
      const requests = new Map<string, TraceRequest>();
      let documentThread: string | undefined;
      for (const e of network) {
        if (isResourceSendRequest(e)) {
          const req = requestOf(e, frames, initiators);
          if (!req) continue;
          if (req.frame === frames.mainFrame && req.send === 0) documentThread ??= threadOf(e);
          const prev = requests.get(req.requestId);
          if (!prev) requests.set(req.requestId, req);
          else if (prev.url !== req.url) {
            (prev.redirectedFrom ??= []).push(prev.url);
            prev.url = req.url;
          }
        } else {
          const r = requests.get(text(networkData(e).requestId) ?? '');
          if (r) update(r, e, frames.ms);
        }
      }
      const warnings = [...requests.values()].filter((r) => r.finish === undefined).map((r) => `request ${r.url} never finished in the trace`);
      for (const d of missingFrameDocuments(requests, frames, loggedDocuments)) {
        requests.set(d.requestId, requestFromLog(d, frames.ms));
        warnings.push(`frame document ${d.url} is not in the trace (its renderer's first events were lost); taken from the DevTools log`);
      }
      const sorted = [...requests.values()].sort((a, b) => a.send - b.send);
      assignReleases(sorted, loaderStarts, frames);
      out = { requests: sorted, warnings, ...(documentThread ? { documentThread } : {}) };
      network = [];
    },
    data: () => ready(out, 'requests'),
  };
}
