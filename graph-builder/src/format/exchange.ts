/**
 * A resource's recorded exchange on the graph's clock: when its request reached the socket and when its
 * response headers came back. One rule for the builder (the most a server delay can be, `merge/server-delays.ts`)
 * and the emulator (the recording's round trips and server pacing, `page-model.ts`).
 *
 * - A subresource's request reaches the socket after the browser's request delay (from its start; for one
 *   Blink's scheduler may hold, from its release: `browserDelay.release` first) and, on a connection it opened,
 *   that connection's handshakes (`.request`, `.connect`); its response headers are read at the network service
 *   `browserDelay.wait` later (sendStart -> receiveHeadersEnd), else the renderer's `responseStart` (which
 *   Chromium may send only with the first body bytes: a server that writes its headers at once and its body
 *   200 ms later gives a 4 ms wait and a responseStart 200 ms on).
 * - The main document's request is its navigation's (`navigation.documentRequest`); a frame's document's is the
 *   browser's navigation request for the frame (`navigationRequest`): a document's `start` is its frame's
 *   commit, after its response. A document's headers are those its commit followed (`browserDelay.commit`
 *   before its start), else the navigation's (main document) or its own `responseStart`.
 */
import { mayBeHeldRequest, type Graph, type GraphNode, type ResourceNode } from './types.ts';

export interface RecordedExchangeTimes {
  /** ms on the graph's clock; undefined when the graph does not record when the request was sent. */
  requestOnSocket: number | undefined;
  /** ms on the graph's clock; undefined when not recorded. */
  firstByte: number | undefined;
}

/**
 * When the main document's response headers were there, on the graph's clock: read by the network service
 * (the document's `browserDelay.commit` before its trace request, the commit), where an emulation's first
 * bytes are; else DevTools' responseReceived (`navigation.documentResponse`), which comes after the headers
 * crossed to the browser process (graphs built before the main document recorded its commit).
 */
export function documentHeadersAt(nav: Graph['navigation'], doc: GraphNode | undefined): number | undefined {
  const commit = doc?.kind === 'resource' ? doc.browserDelay?.commit : undefined;
  if (doc && commit !== undefined) return doc.start - commit;
  return nav?.documentResponse;
}

/** Whether the node is the HTML document of a frame (the main frame's included). */
function isDocument(x: ResourceNode): boolean {
  return x.documentOfFrame !== undefined || x.requestType === 'Document';
}

export function recordedExchangeTimes(graph: Pick<Graph, 'root' | 'navigation'>, x: ResourceNode): RecordedExchangeTimes {
  const bd = x.browserDelay;
  const onSocket = (sent: number | undefined): number | undefined => (sent === undefined ? undefined : sent + (bd?.request ?? 0) + (bd?.connect ?? 0));
  if (x.id === graph.root) return { requestOnSocket: onSocket(graph.navigation?.documentRequest), firstByte: documentHeadersAt(graph.navigation, x) };
  if (isDocument(x)) return { requestOnSocket: onSocket(x.navigationRequest), firstByte: bd?.commit !== undefined ? x.start - bd.commit : x.responseStart };
  const requestOnSocket = onSocket(x.start + (mayBeHeldRequest(x.requestType, x.browserPriority) ? (bd?.release ?? 0) : 0));
  return { requestOnSocket, firstByte: bd?.wait !== undefined && requestOnSocket !== undefined ? requestOnSocket + bd.wait : x.responseStart };
}
