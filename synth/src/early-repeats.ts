/**
 * A parser's memory-cache repeat recorded before the request it used. The legacy graphs keep a
 * zero-length `cached` node per use of a URL and name the URL's request as its original; on three of
 * the 64 graphs the parser's uses come first: www.icicibank.com's `mobile-rightbar-divider.gif`, a
 * repeat at 5,153 ms whose request the DOMContentLoaded handler sends at 5,475 ms (539 ms, on the
 * source's path), reddit.com's `sprite-reddit` (five tags, the request a script's 95 ms later),
 * bitauto's `holder.png` (five, 562 ms). The 2016 browser did not fetch at those tags. Written as tags,
 * the replay fetches at the first of them, and the handler's or script's request is a memory-cache hit
 * that never reaches the network: the rebuilt graph draws the image from the parser (icicibank: the
 * chunk after `personal.jpg` keyed by the gif, not `dropdown-arrow-down.png`, rule 3; `marker -> gif`
 * missing, rule 2). Such a repeat, with no element event of its own, gets no tag: the request is made
 * where the source made it. Pure on the index.
 */
import type { ResourceNode } from '@pcp/graph-builder';
import { servedFrom, type GraphIndex } from './graph-index.ts';
import { elementEvents } from './program.ts';

/** True when `r` is a memory-cache repeat whose request starts after it, and no load or error of its element is drawn. */
export function repeatBeforeItsRequest(ix: GraphIndex, r: ResourceNode): boolean {
  const original = servedFrom(ix, r);
  if (!original || original.start <= r.start) return false;
  const { load, error } = elementEvents(ix, r);
  return !load && !error;
}
