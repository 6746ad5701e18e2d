/**
 * Preload-scanner fetches the 2016 renderer held until its parser inserted the document's `<body>`, from a
 * reference graph's raw log. The scanner asked for the URL (`Preload` record) long before the fetch went out
 * (`Resource.sentTime`), and the original builder drew the resource with the span from that ask to its end
 * (`recieveTime`), so the hold is in the node's duration: www.capitalone.com's `option-1-btn.png`, asked for
 * at 2,531 ms, sent at 5,205 (the `<body>` start tag parsed at 5,204), received at 5,390 (185 ms on the
 * network), is a node of 2,859 ms. Blink keeps low-priority requests back until the body is inserted (its
 * scheduler's tight mode, `legacy-raw.ts` `bodyStartOf`); the synthesized page has its `<body>` tag where the
 * source's parser read it, so the replay's browser holds the same requests to the same point before the site
 * sees them (capitalone's twelve images: requested at 2,545, sent to the network at 4,985), and a site serving
 * the node's whole duration counts the hold twice. Of the 332 such resources on 16 of the 64 legacy graphs,
 * 250 on 12 were sent 0-34 ms after the body was parsed; the other 82 (www.xfinity.com's 18, sent 78 ms before
 * it after a 6.3 s pause of the 2016 renderer with nothing recorded; www.qq.com's 56, 554 ms after; www.snapdeal.com's 5, www.wikia.com's 3) were let
 * go by something the replay does not reproduce and keep their drawn span. `extra.preloadHold` on the node
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
/** A fetch sent this soon after its document's `<body>` was parsed was released by it (0-34 ms in the corpus). */
export const BODY_RELEASE_MS = 40;
/** How close the node's duration must be to the ask-to-end span, and the send to the body (the log's times are µs). */
const TOLERANCE_MS = 2;

/** The held preload `r` was drawn from: its duration the span from a scanner's ask to the end of a scanner's fetch sent HELD_MS or more after it, as its document's `<body>` was parsed. */
export function preloadHoldOf(raw: LegacyRawEvidence, r: ResourceNode): PreloadHold | undefined {
  if (r.cached) return undefined;
  const span = r.end - r.start;
  for (const f of raw.fetches.get(r.url) ?? []) {
    if (f.from !== '(nil)') continue;
    for (const p of raw.preloads.get(r.url) ?? []) {
      const body = raw.bodyParsedAt.get(p.doc);
      if (body === undefined || f.sent - body < -TOLERANCE_MS || f.sent - body > BODY_RELEASE_MS) continue;
      if (f.sent - p.at >= HELD_MS && Math.abs(f.received - p.at - span) <= TOLERANCE_MS) return { askedAt: p.at, sentAt: f.sent, receivedAt: f.received };
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
