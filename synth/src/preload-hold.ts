/**
 * Downloads the source's renderer held before sending (legacy graphs: `extra.preloadHold`, the importer's
 * `legacy-preload-holds.ts`): the 2016 preload scanner asked for the URL, Blink kept the request back while
 * the parser was blocked, and the original builder drew the node from the ask to the fetch's end, hold
 * included (www.capitalone.com's `option-1-btn.png`: asked at 2,531 ms, sent at 5,205, received at 5,390, a
 * node of 2,859 ms). The replay's Chromium holds its preloads itself before the site sees them (capitalone's
 * twelve images: requested at 2,545, sent to the network at 4,985), so a site serving the drawn span after the
 * request counts the hold twice. Such a download is paced as one the source ran early (ran-early.ts `endBy`,
 * HAR `_endBy`): it ends by the ask on the page's clock plus its drawn span, and no sooner after its request
 * than the fetch's network span (`endByLeast`, HAR `_endByLeast`: its bytes cannot have come faster). The
 * connection queue (queueing.ts) sees it as drawn: queued where it was on the network instead, the held images
 * left their hosts' connections free and other responses there lost the waits queueing.ts takes off them
 * (bild +1,313 ms on 10 responses; synth/README "Session 17: held preloads paced"). Pure.
 */
import type { ResourceNode } from '@pcp/graph-builder';

/** The held preload behind `r` (asked, sent, received: ms on the graph's clock), if the source's renderer held it before sending. */
export function heldFetch(r: ResourceNode): { askedAt: number; sentAt: number; receivedAt: number } | undefined {
  const h = r.extra?.preloadHold as { askedAt?: unknown; sentAt?: unknown; receivedAt?: unknown } | undefined;
  if (typeof h?.askedAt !== 'number' || typeof h.sentAt !== 'number' || typeof h.receivedAt !== 'number') return undefined;
  if (!(h.receivedAt >= h.sentAt && h.sentAt >= h.askedAt)) return undefined;
  return h.receivedAt - h.sentAt < r.end - r.start ? { askedAt: h.askedAt, sentAt: h.sentAt, receivedAt: h.receivedAt } : undefined;
}

/** The least time after its request `r`'s response may end by when paced (its fetch's network span), if held; else undefined. */
export function endByLeast(r: ResourceNode): number | undefined {
  const f = heldFetch(r);
  return f && f.receivedAt - f.sentAt;
}
