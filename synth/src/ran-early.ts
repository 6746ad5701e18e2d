/**
 * Downloads the source ran before they ended: a script or style sheet whose first evaluation (caused by
 * its download) starts well before the download's recorded end. The 2016 preload scanner fetched it and
 * the parser later took it from the memory cache (`Cached` record); the 2016 builder drew it from that
 * access with the fetch's duration after it: steamcommunity.com's `global.js`, fetched 296-5,130 ms and
 * run at 5,241 ms, is a node of 5,240-10,073 ms (374 such downloads on 55 of the 64 legacy graphs, 343
 * with a `Preload` record at the fetch's start, 345 ended by the time they ran). The replay's preload
 * scanner asks for it where 2016's did, so the site serves it over its recorded span like any download
 * (the critical path compares that duration; session 11 to 15 served it ending when it ran, and the
 * rebuilt node was short); for the connection queue (queueing.ts) it is where it was fetched, its span
 * ending when it ran, not at the parser's access (www.adexc.net's 19 scripts: sent at 125-130 ms in
 * 2016, drawn from 2,866-3,326). That span already holds the 2016 browser's own waits before its request left
 * (it starts at the renderer's request, `Resource.sentTime`), which the replay's browser adds again before the
 * request reaches the site (Blink's scheduler, six connections per host: youdao.com's five preloaded scripts
 * 580-928 ms rebuilt against 350-460 recorded, `release` 189-461): the site ends such a response by its
 * request's time on the page's clock plus its span (`endBy`, HAR `_endBy`, the replay's `endingBy`), so the
 * waits count once. Pure.
 */
import type { ResourceNode } from '@pcp/graph-builder';
import { firstEvaluationStart, type GraphIndex } from './graph-index.ts';
import { tagArrival } from './preload.ts';
import { elementIssueOf } from './program.ts';
import { heldFetch } from './preload-hold.ts';

/** An evaluation this far before the recorded end ran on bytes the record says had not come. */
const EARLY_MS = 20;

/** When `r` first ran, if that was more than EARLY_MS before its recorded end; else undefined. */
export function ranBeforeEnd(ix: GraphIndex, r: ResourceNode): number | undefined {
  const first = firstEvaluationStart(ix, r);
  if (first === undefined) return undefined;
  const ranAt = Math.max(r.start, first);
  return ranAt < r.end - EARLY_MS ? ranAt : undefined;
}

/** `r` as fetched, for the connection queue: its recorded span ending when it ran, when it ran before its end; else `r`. */
export function asFetched(ix: GraphIndex, r: ResourceNode): ResourceNode {
  const ran = ranBeforeEnd(ix, r);
  return ran === undefined ? r : { ...r, start: ran - (r.end - r.start), end: ran };
}

/** Any download chunk's time: the synthesized document sends its bytes then, on the page's clock (document-pace.ts). */
const anyChunk = (): boolean => true;

/**
 * When the response to `r` must have ended, on the page's clock (ms after the page's document was requested), when
 * it ran before its recorded end: the replay's browser asks for it when the 2016 one did (`asFetched`) or, when
 * earlier, as its tag's bytes arrive (the preload scanner; iframes are not preloaded), and it lasts its recorded
 * span from there; a download the source's renderer held before sending (preload-hold.ts) the same from the
 * scanner's ask (capitalone's `option-1-btn.png`: 2,531 + 2,859 = 5,390, its recorded end); else undefined.
 * youdao.com's `jquery-1.12.3.min.js`: its tag's bytes came at 807 ms, the 2016 renderer fetched it at 1,271 and ran it at 1,658 (388 ms): by 807 + 388 = 1,195. `pageStart`: the page
 * document's request on the graph's clock.
 */
export function endBy(ix: GraphIndex, r: ResourceNode, pageStart = 0): number | undefined {
  const held = heldFetch(r);
  const ran = held ? undefined : ranBeforeEnd(ix, r);
  const span = r.end - r.start;
  // the scanner's ask of a held preload (preload-hold.ts); else asFetched's start
  const asked = held ? held.askedAt : ran === undefined ? undefined : ran - span;
  if (asked === undefined) return undefined;
  const tag = elementIssueOf(ix, r) === 'iframe' ? undefined : tagArrival(ix, r, anyChunk);
  return Math.min(asked, tag ?? Infinity) + span - pageStart;
}
