/**
 * Preload-scanner fetches the 2016 renderer held before sending, from a reference graph's raw log. The
 * scanner asked for the URL (`Preload` record) long before the fetch went out (`Resource.sentTime`), and
 * the original builder drew the resource with the span from that ask to its end (`recieveTime`), so the
 * renderer's hold (Blink's scheduler keeping image preloads back while the parser was blocked) is in the
 * node's duration: www.capitalone.com's `option-1-btn.png`, asked for at 2,531 ms, sent at 5,205, received at
 * 5,390 (185 ms on the network), is a node of 2,859 ms. 332 such resources on 16 of the 64 legacy graphs
 * (held 20 ms to 6.3 s). The replay's browser holds its own preloads the same way before the site sees the
 * request, so a site serving the node's whole duration counts the hold twice (capitalone's twelve images:
 * requested at 2,545, released by Chromium at 4,985, then served 2.8 s). `extra.preloadHold` on the node
 * keeps the three times; the synthesizer serves the fetch's network span (`synth/src/preload-hold.ts`). Pure.
 */
import type { GraphNode, ResourceNode } from './types.ts';
import type { LegacyRawEvidence } from './legacy-raw.ts';

/** The times of a held preload, ms on the reference graph's clock. */
export interface PreloadHold {
  /** The preload scanner asked for the URL (`Preload`). */
  askedAt: number;
  /** The fetch went out (`Resource.sentTime`). */
  sentAt: number;
  /** The fetch ended (`Resource.recieveTime`). */
  receivedAt: number;
}

/** A hold shorter than this is the scanner's own hop, not a scheduler's. */
export const HELD_MS = 20;
/** How close the node's duration must be to the ask-to-end span (the log's times are µs; the graph keeps them). */
const SPAN_TOLERANCE_MS = 2;

/** The held preload `r` was drawn from, if its duration is the span from a scanner's ask to the end of a scanner's fetch sent HELD_MS or more after it. */
export function preloadHoldOf(raw: LegacyRawEvidence, r: ResourceNode): PreloadHold | undefined {
  if (r.cached) return undefined;
  const span = r.end - r.start;
  for (const f of raw.fetches.get(r.url) ?? []) {
    if (f.from !== '(nil)') continue;
    for (const askedAt of raw.preloads.get(r.url) ?? []) {
      if (f.sent - askedAt >= HELD_MS && Math.abs(f.received - askedAt - span) <= SPAN_TOLERANCE_MS) return { askedAt, sentAt: f.sent, receivedAt: f.received };
    }
  }
  return undefined;
}

/** `extra.preloadHold` on every resource drawn from a held preload (`preloadHoldOf`). */
export function addPreloadHolds(nodes: GraphNode[], raw: LegacyRawEvidence): void {
  for (const n of nodes) {
    if (n.kind !== 'resource') continue;
    const hold = preloadHoldOf(raw, n);
    if (hold) n.extra = { ...n.extra, preloadHold: hold };
  }
}
