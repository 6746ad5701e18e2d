/**
 * Requests the source never saw end and its load waited for: a resource node of no bytes and no span (the 2016
 * log has the request the parser or a script made, no `Resource` and no `Cached` record), not a cache hit, never
 * evaluated, whose element fired no error, of a type Chromium's load event waits for (`<img>`, `<script>`, `<link>`,
 * `<iframe>`, a font), with its frame's window load among its children (the 2016 builder hangs a frame's load off
 * each request the frame made before it: www.walmart.com's `tap.gif`, requested at 3,703 ms by `rum.js`, a child of
 * the load at 10,335). Its response came (or failed) after its request and before that load: the log bounds it,
 * though it does not time it. The replay answered it at once (the lower bound); the site now serves it to end 1 ms
 * before its earliest child on the page's clock (the upper bound): the headers at once, the body held to then, as
 * unreceived.ts holds a download until it ran (`_chunks`; an empty body gets one byte to hold), and HAR `_endAt`, so
 * that it ends then however early or late the replay's browser asks (`replay/src/pace.ts` `endingAt`): the replay's
 * page runs ahead of the source's (walmart's `rum.js` asks for `tap.gif` at 1,287 ms), and its span from the request
 * alone ended it at 7,918 (load 8,139 ms against the source's 10,335). walmart's
 * `pubads_impl_95.js` (3,547 ms) has a window error at 4,445 among its children: it ends by 4,444. 126 such requests
 * before the load on 37 of the 64 legacy graphs, 91 of them on 24 graphs held so (synth/README.md,
 * "Session 18: unended requests"). Pure.
 */
import type { ResourceNode } from '@pcp/graph-builder';
import { childrenOf, firstEvaluationStart, isMemoryCacheRepeat, type GraphIndex } from './graph-index.ts';
import { elementEvents, elementIssueOf, type Issue } from './program.ts';

/** A span this short with no bytes is a request the log saw no response for (unreceived.ts). */
const NO_SPAN_MS = 0.5;

/** How long before its earliest child such a response ends. */
export const MARGIN_MS = 1;

/** Elements whose request Chromium's load event waits for (XHR, fetch and beacons it does not). */
const HOLDS_LOAD: ReadonlySet<Issue> = new Set<Issue>(['img', 'script', 'link', 'iframe', 'font']);

/**
 * When the response to `r` must have ended, on the graph's clock, when it is such a request (above): `MARGIN_MS`
 * before its earliest child, its frame's window load the latest; undefined for any other resource, and when that
 * time is not after its request.
 */
export function unendedBy(ix: GraphIndex, r: ResourceNode): number | undefined {
  if (r.cached || r.size > 0 || r.end - r.start >= NO_SPAN_MS || !/^https?:\/\//.test(r.url)) return undefined;
  if (firstEvaluationStart(ix, r) !== undefined || isMemoryCacheRepeat(ix, r)) return undefined;
  if (!HOLDS_LOAD.has(elementIssueOf(ix, r)) || elementEvents(ix, r).error) return undefined;
  const children = childrenOf(ix, r.id);
  if (!children.some((n) => n.kind === 'event' && n.eventTarget.toLowerCase() === 'window' && n.eventName === 'load')) return undefined;
  const by = Math.min(...children.map((n) => n.start)) - MARGIN_MS;
  return by > r.start ? by : undefined;
}

/** `r` held to that time, else `r`. */
export function heldToItsLoad(ix: GraphIndex, r: ResourceNode): ResourceNode {
  const by = unendedBy(ix, r);
  return by === undefined ? r : { ...r, end: by };
}
