/**
 * How long the 2016 browser's ResourceScheduler held each image before it asked the network for it: a
 * recorded span starts at Blink's request (`Resource.sentTime`, session 16) and the scheduler of 2016
 * Chromium sat in the browser process after that point, so its hold is inside the span. Its rule
 * (content/browser/loader/resource_scheduler.cc, `ShouldStartRequest`): a delayable request (below
 * MEDIUM: images) to a host without request priorities (HTTP/1.1: http here, as queueing.ts) waits
 * while the page is in its layout-blocking phase (the main document's `<body>` not yet parsed, or a
 * request made before it still in flight) and more than one non-delayable request is in flight.
 * Chromium 156 applies the same rule to the replay's requests, so a site that held such an image for
 * its whole span would count the hold twice (thesaurus.com's six `static.sfdict.com` images: held 3.0 s
 * in 2016 behind the head's scripts, then served in 25-420 ms; the replay served each over 3 s and
 * the host's six connections were taken when `new-home-51232.js` asked, 2.9 s of wait). The site takes
 * the hold off like a connection wait. Only for images the parser requests (`byParser`): Chromium 156's
 * preload scanner asks for them before the parser reaches them and holds them as 2016 did (on session
 * 17's kept loads, 271 of the 491 such images the rule holds were held half as long or more by the
 * replay's scheduler; imgur's, indiatimes' and xfinity's waited 0.5-2.6 s for a connection instead),
 * but it sends an image a script or a style sheet asks for at once (3 of 40 held: steamcommunity's `ugc` image, which 2016 held 4.2 s, came
 * 4.1 s early and its path with it). The one delayable request the rule lets through is not
 * modelled; an image the rule would hold past its end evidently was not held (that one, or a request the
 * rule misreads: 245 of the 778 http images it reaches on the 64 legacy graphs): no hold. Pure.
 */
import type { ParseChunkNode, ResourceNode } from '@pcp/graph-builder';
import type { TagPosition } from './body-start.ts';

/** When the parser of a document with `chunks` began the chunk holding its `<body>` tag (Infinity when none does). */
export function bodyParsedAt(chunks: readonly ParseChunkNode[], body: TagPosition | undefined): number {
  if (!body) return Infinity;
  const at = chunks.filter((c) => c.endLine > body.line || (c.endLine === body.line && c.endColumn >= body.column));
  return at.length ? Math.min(...at.map((c) => c.start)) : Infinity;
}

const isImage = (r: ResourceNode): boolean => r.mimeType.toLowerCase().startsWith('image/');
const isDelayable = (r: ResourceNode): boolean => isImage(r) && r.url.startsWith('http:');

/**
 * ms each held image (by node id) waited in the 2016 scheduler, of `resources` (the page's requests) with the main
 * document's body parsed at `bodyAt`; only images `byParser` says a parser tag requested.
 */
export function schedulerHolds(resources: readonly ResourceNode[], bodyAt: number, byParser: (r: ResourceNode) => boolean = () => true): Map<string, number> {
  const live = resources.filter((r) => !r.cached && /^https?:/.test(r.url));
  const blocking = live.filter((r) => !isImage(r));
  const layoutBlocking = blocking.filter((r) => r.start < bodyAt);
  const inFlight = (list: readonly ResourceNode[], t: number): ResourceNode[] => list.filter((r) => r.start <= t && r.end > t);
  const holds = new Map<string, number>();
  for (const d of live.filter((r) => isDelayable(r) && byParser(r))) {
    let t = d.start;
    while (t < d.end) {
      const tight = t < bodyAt || inFlight(layoutBlocking, t).length > 0;
      const others = inFlight(blocking, t);
      if (!tight || others.length <= 1) break;
      t = Math.min(...others.map((r) => r.end), t < bodyAt ? bodyAt : Infinity); // the next moment the count can drop
    }
    if (t > d.start && t < d.end) holds.set(d.id, t - d.start); // released before its end: else the rule did not hold it
  }
  return holds;
}
