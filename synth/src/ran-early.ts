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
 * 2016, drawn from 2,866-3,326). Pure.
 */
import type { ResourceNode } from '@pcp/graph-builder';
import { firstEvaluationStart, type GraphIndex } from './graph-index.ts';

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
