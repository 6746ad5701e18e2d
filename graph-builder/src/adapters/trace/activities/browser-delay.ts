/**
 * The browser's own time in an exchange (graph field `browserDelay`, format/types.ts): what Chromium spent
 * between the renderer and the socket, which no graph node holds and which a page-load emulator must add
 * beside its network model. Measured from the trace: the renderer's request (ResourceSendRequest), or for a
 * request Blink's scheduler may have held, its release (ThrottlingURLLoader::StartNow), the network service's `timing` (request on the socket, headers) and
 * `finishTime`, and the renderer's ResourceFinish. Pure functions of one request.
 */
import { mayBeHeldRequest, type BrowserDelay } from '../../../format/types.ts';
import type { NavigationTimes } from '../../../model/types.ts';
import type { TraceRequest } from '../load.ts';

const round = (v: number): number => Math.round(Math.max(0, v) * 1000) / 1000;

/** The trace records XHR and fetch() requests as resourceType 'Other'; the initiator's fetchType tells them apart. */
const FETCH_TYPE: Record<string, string> = { xmlhttprequest: 'XHR', fetch: 'Fetch', beacon: 'Ping', eventsource: 'EventSource' };

/** Chromium's request type of a request (graph `requestType`). */
export function requestTypeOf(r: TraceRequest): string {
  return FETCH_TYPE[r.initiator?.fetchType ?? ''] ?? r.resourceType;
}

/**
 * Whether Blink's scheduler may have held the request back (a throttleable request below High priority):
 * its wait there is the emulator's to model, so its browser delay starts at its release, not its send.
 */
export function mayBeHeld(r: TraceRequest): boolean {
  return mayBeHeldRequest(requestTypeOf(r), r.priority);
}

/**
 * A subresource's (or a frame document's) browser delay; undefined when the trace lacks the times. `start`:
 * where the request side begins (default: the send, or the release of a request Blink may have held; null:
 * no request side).
 */
export function browserDelay(r: TraceRequest, start?: number | null): BrowserDelay | undefined {
  const n = r.network;
  if (!n) return undefined;
  const out: BrowserDelay = {};
  const from = start === undefined ? (mayBeHeld(r) ? r.released : r.send) : (start ?? undefined);
  if (from !== undefined) out.request = round(n.sent - n.connect - from);
  if (start === undefined && r.released !== undefined) out.release = round(r.released - r.send);
  if (n.finish !== undefined && r.finish !== undefined) out.response = round(r.finish - n.finish);
  if (n.finish !== undefined) out.read = round(n.finish - n.headers);
  out.wait = round(n.headers - n.sent);
  if (n.handshake !== undefined && n.handshake > 0) out.connect = round(n.handshake);
  return Object.keys(out).length === 0 ? undefined : out;
}

/**
 * A frame's document: the renderer records its request when the frame's navigation commits, so from its
 * response headers at the network service to that record is the commit (a new renderer for a cross-site
 * frame). Its request side starts at the browser's navigation request (`navigationRequest`, from the DevTools
 * log, as the main document's), else it is unknown.
 */
export function frameDocumentBrowserDelay(r: TraceRequest, navigationRequest?: number): BrowserDelay | undefined {
  const out = browserDelay(r, navigationRequest ?? null);
  return r.network ? { ...out, commit: round(r.send - r.network.headers) } : out;
}

/**
 * The main document's: its request starts in the browser (the navigation, `documentRequest`; the trace's
 * send is the commit), so without it there is no request side; its response side is any resource's; and, as a
 * frame's document, its commit from the response headers at the network service (not from DevTools'
 * responseReceived, which comes after the headers crossed to the browser process).
 */
export function documentBrowserDelay(r: TraceRequest, nav: Partial<NavigationTimes>): BrowserDelay | undefined {
  return frameDocumentBrowserDelay(r, nav.documentRequest);
}
