/**
 * The priority Chromium gives each request of the synthesized page, for the connection queue
 * (queueing.ts): Blink's ResourceFetcher::ComputeLoadPriority as the page writes its tags. Style
 * sheets, fonts and frames' documents VeryHigh; a style sheet written `media="print"`
 * (sheet-blocking.ts) VeryLow; a parser-blocking script High, Medium when its frame requested an image
 * before it (a "late" script, found by the preload scanner after the first image); an async, deferred
 * or script-inserted script Low; XHRs and fetches High. Images are Low: the synthesizer writes every
 * `<img>` `fetchpriority="low"`. Without it an image starts Low and Blink raises the visible ones to
 * High after a layout, walking its set of loading images in hash order
 * (ResourceFetcher::UpdateAllImageResourcePriorities): the replay gave a host's connections to its
 * images in an order no model of the page can know (www.indiatimes.com's 100 images of one host: the
 * 10th requested waited 2.9 s, the 40th 0.4 s), and raised images overtook the late scripts (Medium)
 * the 2016 browser had run before them. Images a style sheet requests (`background-image` on `<html>`,
 * visible) cannot be written so: High, as the first layout makes them. The names are the trace's
 * (`browserPriority`). Pure.
 */
import type { ParseChunkNode, ResourceNode } from '@pcp/graph-builder';
import type { GraphIndex } from './graph-index.ts';
import { writtenScriptKind } from './document.ts';
import { elementIssueOf } from './program.ts';
import { sheetHeldNoScript } from './sheet-blocking.ts';

/** Chromium's request priorities by the trace's names, in net::RequestPriority's order (higher goes first). */
export const PRIORITY = { VeryLow: 0, Low: 1, Medium: 2, High: 3, VeryHigh: 4 } as const;

/** The parse chunk whose tag requests `r`, if the parser requested it. */
function declaringChunk(ix: GraphIndex, r: ResourceNode): ParseChunkNode | undefined {
  for (const e of ix.parents.get(r.id) ?? []) {
    const n = ix.byId.get(e.from);
    if (n?.kind === 'parse_chunk') return n;
  }
  return undefined;
}

/** Whether a style sheet's rules request `r`. */
const requestedBySheet = (ix: GraphIndex, r: ResourceNode): boolean => (ix.parents.get(r.id) ?? []).some((e) => ix.byId.get(e.from)?.kind === 'css_eval');

/** The priority of each of `requested` (as the replay requests them: start = its request) by node id. */
export function replayPriorities(ix: GraphIndex, requested: readonly ResourceNode[]): Map<string, number> {
  const firstImage = new Map<string, number>(); // frame -> when its first image was requested
  for (const r of requested) {
    if (elementIssueOf(ix, r) === 'img') firstImage.set(r.frame, Math.min(firstImage.get(r.frame) ?? Infinity, r.start));
  }
  const out = new Map<string, number>();
  for (const r of requested) {
    const chunk = declaringChunk(ix, r);
    switch (elementIssueOf(ix, r)) {
      case 'link':
        out.set(r.id, chunk && sheetHeldNoScript(ix, r, chunk) ? PRIORITY.VeryLow : PRIORITY.VeryHigh);
        break;
      case 'font':
      case 'iframe':
        out.set(r.id, PRIORITY.VeryHigh);
        break;
      case 'script': {
        const kind = chunk && writtenScriptKind(ix, r, chunk);
        const blocking = chunk !== undefined && kind !== 'async' && kind !== 'defer';
        out.set(r.id, !blocking ? PRIORITY.Low : (firstImage.get(r.frame) ?? Infinity) < r.start ? PRIORITY.Medium : PRIORITY.High);
        break;
      }
      case 'img':
        out.set(r.id, requestedBySheet(ix, r) ? PRIORITY.High : PRIORITY.Low);
        break;
      default: // xhr, fetch
        out.set(r.id, PRIORITY.High);
    }
  }
  return out;
}
