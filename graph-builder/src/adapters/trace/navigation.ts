/**
 * Where the page's clock sits in the navigation. The page's time 0 is the trace's record of the main
 * document's request (ResourceSendRequest), which the renderer writes when the navigation commits — after
 * the browser has already sent the request and received the response. Navigation Timing's origin is the
 * `navigationStart` mark (blink.user_timing) of that navigation, and the DevTools network log has the real
 * request and response times (its `timestamp` is the trace's monotonic clock in seconds), read with the
 * frames' other document requests by `loggedDocuments`. The load event's start is Navigation Timing's
 * `loadEventStart` mark; the trace's `MarkLoad` comes after the window's load handlers ran (loadEventEnd).
 */
import type { NavigationTimes } from '../../model/types.ts';
import type { TraceEvent } from './reader.ts';
import { frameDocumentKey } from './activities/context.ts';
import type { LoggedDocument } from './logged-documents.ts';

/**
 * The main frame's navigation times in ms relative to `origin` (µs on the trace clock), or undefined when
 * the trace has no navigationStart mark for it (e.g. a trace started after the navigation).
 */
export function navigationTimes(events: TraceEvent[], origin: number, mainFrame: string, docs: readonly LoggedDocument[] = []): NavigationTimes | undefined {
  let start: TraceEvent | undefined;
  // The main frame's `loadEventStart` mark of the page's document: the first after time 0 (the initial
  // about:blank document marks its own before), read in the same pass.
  let loadStart: number | undefined;
  for (const e of events) {
    if (e.name === 'loadEventStart') {
      if (e.args?.frame === mainFrame && e.ts >= origin && (loadStart === undefined || e.ts < loadStart)) loadStart = e.ts;
      continue;
    }
    if (e.name !== 'navigationStart' || e.ts > origin) continue;
    const d = (e.args?.data ?? {}) as Record<string, unknown>;
    // The initial about:blank document of a frame also marks a navigationStart, with no document url.
    if (e.args?.frame !== mainFrame || typeof d.documentLoaderURL !== 'string' || d.documentLoaderURL === '') continue;
    if (!start || e.ts > start.ts) start = e;
  }
  if (!start) return undefined;
  const ms = (ts: number): number => (ts - origin) / 1000;
  const out: NavigationTimes = { navigationStart: ms(start.ts) };
  const navigationId = ((start.args?.data ?? {}) as Record<string, unknown>).navigationId;
  const doc = navigationDocument(docs, typeof navigationId === 'string' ? navigationId : undefined, mainFrame, start.ts, origin);
  if (doc) out.documentRequest = ms(doc.sent);
  else {
    const fetch = events.find((e) => e.name === 'fetchStart' && e.args?.frame === mainFrame && e.ts >= start!.ts && e.ts <= origin);
    if (fetch) out.documentRequest = ms(fetch.ts);
  }
  if (doc?.response !== undefined) out.documentResponse = ms(doc.response);
  if (loadStart !== undefined) out.loadEventStart = ms(loadStart);
  return out;
}

/**
 * The main document's request in the DevTools log: the frame's first Document request sent between the
 * navigation's start and the page's time 0 (µs, trace clock), the navigation's own when its id is known.
 */
function navigationDocument(docs: readonly LoggedDocument[], navigationId: string | undefined, frame: string, from: number, to: number): LoggedDocument | undefined {
  return docs.find((d) => d.frame === frame && d.sent >= from && d.sent <= to && (navigationId === undefined || d.requestId === navigationId));
}

/**
 * When the browser began each subframe's navigation: its Document request in the DevTools log
 * (logged-documents.ts; the browser's request, before the trace's record at the frame's commit), in ms
 * relative to `origin` (µs on the trace clock), keyed `frameDocumentKey(frame, url)` (the url after redirects).
 */
export function frameDocumentRequests(docs: LoggedDocument[], origin: number, mainFrame: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const d of docs) {
    const key = frameDocumentKey(d.frame, d.url);
    if (d.frame !== mainFrame && !out.has(key)) out.set(key, (d.sent - origin) / 1000);
  }
  return out;
}
