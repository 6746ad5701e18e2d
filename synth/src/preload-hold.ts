/**
 * Downloads the source's renderer held before sending (legacy graphs: `extra.preloadHold`, the importer's
 * `legacy-preload-holds.ts`): the 2016 preload scanner asked for the URL, Blink kept the request back while
 * the parser was blocked, and the original builder drew the node from the ask to the fetch's end, hold
 * included (www.capitalone.com's `option-1-btn.png`: asked at 2,531 ms, sent at 5,205, received at 5,390, a
 * node of 2,859 ms). The replay's Chromium holds its preloads itself before the site sees them (capitalone's
 * twelve images: requested at 2,545, sent to the network at 4,985), so the site serves such a download over
 * its network span only (185 ms), and the connection queue (queueing.ts) sees it where it was on the
 * network. Pure.
 */
import type { ResourceNode } from '@pcp/graph-builder';

/** The network fetch behind `r` (sent, received: ms on the graph's clock), if the source's renderer held it before sending. */
export function heldFetch(r: ResourceNode): { sentAt: number; receivedAt: number } | undefined {
  const h = r.extra?.preloadHold as { sentAt?: unknown; receivedAt?: unknown } | undefined;
  if (typeof h?.sentAt !== 'number' || typeof h.receivedAt !== 'number' || !(h.receivedAt >= h.sentAt)) return undefined;
  return h.receivedAt - h.sentAt < r.end - r.start ? { sentAt: h.sentAt, receivedAt: h.receivedAt } : undefined;
}

/** `r` as the site serves it: from its drawn start for its network span only, when its renderer held it; else `r`. */
export function withoutRendererHold(r: ResourceNode): ResourceNode {
  const f = heldFetch(r);
  return f ? { ...r, end: r.start + (f.receivedAt - f.sentAt) } : r;
}

/** `r` where it was on the network, for the connection queue, when its renderer held it; else undefined. */
export function asSent(r: ResourceNode): ResourceNode | undefined {
  const f = heldFetch(r);
  return f && { ...r, start: f.sentAt, end: f.receivedAt };
}
