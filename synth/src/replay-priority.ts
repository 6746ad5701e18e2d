/**
 * The priority Chromium gives each request of the synthesized page, for the connection queue
 * (queueing.ts): Blink's ResourceFetcher::ComputeLoadPriority as the page writes its tags. Style
 * sheets, fonts and frames' documents VeryHigh; a style sheet written `media="print"`
 * (sheet-blocking.ts) VeryLow; scripts, XHRs and fetches High; images Low. The synthesizer writes
 * every `<img>` `fetchpriority="low"` and every script `fetchpriority="high"`. Without them an image
 * starts Low and Blink raises the visible ones to High after a layout, walking its set of loading
 * images in hash order (ResourceFetcher::UpdateAllImageResourcePriorities): the replay gave a host's
 * connections to its images in an order no model of the page can know (www.indiatimes.com's 100 images
 * of one host: the 10th requested waited 2.9 s, the 40th 0.4 s), and the raised images overtook the
 * scripts of the host, late ones (Medium) and async ones (Low), that the 2016 browser had served at once
 * (www.xfinity.com's `s_code.ashx`, `clu.js`: 6.46 s behind 40 carousel images; www.indiatimes.com's
 * `main.js` behind 100 images when they were written High, load 1.8 times the source's); a Low
 * async script waited behind the page's ten delayable requests (www.ndtv.com's rubicon `11990.js`,
 * 4.8 s). Images a style sheet requests (`background-image` on `<html>`, visible) cannot be written
 * so: High, as the first layout makes them. The names are the trace's (`browserPriority`). Pure.
 */
import type { ResourceNode } from '@pcp/graph-builder';
import type { GraphIndex } from './graph-index.ts';
import { elementIssueOf } from './program.ts';
import { PRIORITY } from './queueing.ts';
import { sheetHeldNoScript } from './sheet-blocking.ts';

/** Whether a style sheet's rules request `r`. */
const requestedBySheet = (ix: GraphIndex, r: ResourceNode): boolean => (ix.parents.get(r.id) ?? []).some((e) => ix.byId.get(e.from)?.kind === 'css_eval');

/** Whether `r`'s tag is a style sheet written `media="print"`. */
function printSheet(ix: GraphIndex, r: ResourceNode): boolean {
  for (const e of ix.parents.get(r.id) ?? []) {
    const n = ix.byId.get(e.from);
    if (n?.kind === 'parse_chunk' && sheetHeldNoScript(ix, r, n)) return true;
  }
  return false;
}

/** The priority of `r` as the replayed page requests it. */
export function replayPriority(ix: GraphIndex, r: ResourceNode): number {
  switch (elementIssueOf(ix, r)) {
    case 'link': return printSheet(ix, r) ? PRIORITY.VeryLow : PRIORITY.VeryHigh;
    case 'font':
    case 'iframe': return PRIORITY.VeryHigh;
    case 'img': return requestedBySheet(ix, r) ? PRIORITY.High : PRIORITY.Low;
    default: return PRIORITY.High; // script (fetchpriority="high"), xhr, fetch
  }
}
