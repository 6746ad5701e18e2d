/**
 * The priority Chromium gives each request of the synthesized page, for the connection queue
 * (queueing.ts): Blink's ResourceFetcher::ComputeLoadPriority as the page writes its tags. Style
 * sheets, fonts and frames' documents VeryHigh; a style sheet written `media="print"`
 * (sheet-blocking.ts) VeryLow; a parser-blocking script High; an async, deferred or script-inserted
 * script Low; XHRs and fetches High; images High. An image starts Low and Blink raises the visible
 * ones (the synthesized page's images are small and inline: nearly all) to High at the next layout,
 * walking its set of loading images in hash order (ResourceFetcher::UpdateAllImageResourcePriorities):
 * which of a host's images gets a freed connection first no model of the page can know
 * (www.indiatimes.com's 100 images of one host: the 10th requested waited 2.9 s, the 40th 0.4 s), so
 * they go first come first served here. A parser-blocking script found after the first image (a "late"
 * script) would be Medium and lose its host's connections to the raised images (www.xfinity.com's
 * `s_code.ashx`, `clu.js`, `wdredirection`: 6.46 s behind 40 carousel images, served at once in the
 * source); the synthesizer writes every parser-blocking script `fetchpriority="high"`. Written so,
 * images stay Low (delayable: at most ten in flight per page, so the page's async scripts waited
 * behind them: www.ndtv.com's rubicon `11990.js` 4.8 s) and async scripts High (no longer held by
 * Blink's own scheduler: www.csdn.net's `cbjs.baidu.com/js/m.js` ran 14 s early): both tried, both
 * worse (synth/README.md, "Session 16"). The names are the trace's (`browserPriority`). Pure.
 */
import type { ResourceNode } from '@pcp/graph-builder';
import type { GraphIndex } from './graph-index.ts';
import { writtenScriptKind } from './document.ts';
import { elementIssueOf } from './program.ts';
import { PRIORITY } from './queueing.ts';
import { sheetHeldNoScript } from './sheet-blocking.ts';

/** The parse chunk whose tag requests `r`, if the parser requested it. */
function declaringChunk(ix: GraphIndex, r: ResourceNode) {
  for (const e of ix.parents.get(r.id) ?? []) {
    const n = ix.byId.get(e.from);
    if (n?.kind === 'parse_chunk') return n;
  }
  return undefined;
}

/** The priority of `r` as the replayed page requests it. */
export function replayPriority(ix: GraphIndex, r: ResourceNode): number {
  const chunk = declaringChunk(ix, r);
  switch (elementIssueOf(ix, r)) {
    case 'link': return chunk && sheetHeldNoScript(ix, r, chunk) ? PRIORITY.VeryLow : PRIORITY.VeryHigh;
    case 'font':
    case 'iframe': return PRIORITY.VeryHigh;
    case 'script': {
      const kind = chunk && writtenScriptKind(ix, r, chunk);
      return chunk && kind !== 'async' && kind !== 'defer' ? PRIORITY.High : PRIORITY.Low;
    }
    default: return PRIORITY.High; // img (raised at the next layout), xhr, fetch
  }
}
