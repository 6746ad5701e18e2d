/**
 * Requests the source never saw end and its load waited for: a resource node of no bytes and no span (the 2016
 * log has the request the parser or a script made, no `Resource` and no `Cached` record), not a cache hit, never
 * evaluated, whose element fired no error, of a type Chromium's load event waits for (`<img>`, `<script>`, `<link>`,
 * `<iframe>`, a font), with its frame's window load among its children (the 2016 builder hangs a frame's load off
 * each request the frame made before it: www.walmart.com's `tap.gif`, requested at 3,703 ms by `rum.js`, a child of
 * the load at 10,335). Its response came (or failed) after its request and before that load: the log bounds it,
 * though it does not time it. The replay answers it at once (the lower bound); the site now serves it to end 1 ms
 * before its earliest child on the page's clock (the upper bound): headers held, HAR `_endBy` so that a request
 * the replay's browser makes late still ends by then (`replay/src/pace.ts` `endingBy`). walmart's
 * `pubads_impl_95.js` (3,547 ms) has a window error at 4,445 among its children: it ends by 4,444. 126 such requests
 * before the load on 37 of the 64 legacy graphs, 95 of them of a load-holding type and element (synth/README.md,
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

/** `r` held to that time (its server delay the whole span: the headers come then), else `r`. */
export function heldToItsLoad(ix: GraphIndex, r: ResourceNode): ResourceNode {
  const by = unendedBy(ix, r);
  return by === undefined ? r : { ...r, end: by, serverDelay: by - r.start };
}
