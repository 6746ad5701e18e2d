/**
 * When the replayed page's browser will request a resource, for the connection queue (queueing.ts).
 * Graphs imported from the original PCP layout draw a resource the 2016 preload scanner fetched at
 * the time its parser reached the tag, with the span it measured from the real request: 637 of the
 * 773 parser resources its logs mark as preloads (`from` (nil)) start in the graphs more than 100 ms
 * after their log's `sentTime` (www.siteadvisor.com's `widget.js`: sent at 5,451 ms, drawn at 6,378,
 * 387 ms both), against 3 of the 1,486 the parser requested itself. Chromium's preload scanner
 * requests such a tag as soon as its bytes arrive (document-pace.ts), as the 2016 browser did, so the
 * requests of one host queue for its six connections there, not where the graph draws them; the queue
 * is modelled on that schedule: each such request at its tag's arrival, lasting its recorded span.
 * Iframes are not preloaded. Trace graphs keep the real request times: unchanged. Pure.
 */
import type { DownloadChunkNode, ResourceNode } from '@pcp/graph-builder';
import type { GraphIndex } from './graph-index.ts';
import { chunkArrival, hasInterpolatedTimes } from './document-pace.ts';
import { elementIssueOf } from './program.ts';

/**
 * When the tag of parser resource `r` reaches the browser, if its document's chunk times are interpolated (`timed`:
 * which download chunks count; any whose time is known for the page's clock, ran-early.ts).
 */
export function tagArrival(ix: GraphIndex, r: ResourceNode, timed: (d: DownloadChunkNode) => boolean = hasInterpolatedTimes): number | undefined {
  let at: number | undefined;
  for (const e of ix.parents.get(r.id) ?? []) {
    const chunk = ix.byId.get(e.from);
    if (chunk?.kind !== 'parse_chunk') continue;
    for (const f of ix.parents.get(chunk.id) ?? []) {
      const d = ix.byId.get(f.from);
      if (d?.kind !== 'download_chunk' || !timed(d)) continue;
      const doc = ix.byId.get((d as DownloadChunkNode).resource);
      if (doc?.kind === 'resource') at = Math.min(at ?? Infinity, chunkArrival(ix, doc, d));
    }
  }
  return at;
}

/** `r` as the replay's browser will request it: a preloadable tag at its arrival when that is earlier, its recorded span kept. */
export function asRequested(ix: GraphIndex, r: ResourceNode): ResourceNode {
  const at = elementIssueOf(ix, r) === 'iframe' ? undefined : tagArrival(ix, r);
  return at !== undefined && at < r.start ? { ...r, start: at, end: at + (r.end - r.start) } : r;
}
