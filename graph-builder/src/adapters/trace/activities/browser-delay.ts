/**
 * The browser's own time in an exchange (graph field `browserDelay`, format/types.ts): what Chromium spent
 * between the renderer and the socket, which no graph node holds and which a page-load emulator must add
 * beside its network model. Measured from the trace: the renderer's release of the request
 * (ThrottlingURLLoader::StartNow), the network service's `timing` (request on the socket, headers) and
 * `finishTime`, and the renderer's ResourceFinish. Pure functions of one request.
 */
import type { BrowserDelay } from '../../../format/types.ts';
import type { NavigationTimes } from '../../../model/types.ts';
import type { TraceRequest } from '../load.ts';

const round = (v: number): number => Math.round(Math.max(0, v) * 1000) / 1000;

/** A subresource's (or a frame document's) browser delay; undefined when the trace lacks the times. */
export function browserDelay(r: TraceRequest): BrowserDelay | undefined {
  const n = r.network;
  if (!n) return undefined;
  const out: BrowserDelay = {};
  if (r.released !== undefined) out.request = round(n.sent - n.connect - r.released);
  if (n.finish !== undefined && r.finish !== undefined) out.response = round(r.finish - n.finish);
  return out.request === undefined && out.response === undefined ? undefined : out;
}

/**
 * The main document's: its request starts in the browser (the navigation, `documentRequest`), not at a
 * renderer's release; its response side is any resource's (network end -> renderer finish).
 */
export function documentBrowserDelay(r: TraceRequest, nav: NavigationTimes): BrowserDelay | undefined {
  const n = r.network;
  if (!n || nav.documentRequest === undefined) return browserDelay(r);
  return { ...browserDelay(r), request: round(n.sent - n.connect - nav.documentRequest) };
}
