/**
 * Downloads the source's frame load did not wait for: a resource requested before its frame's window load
 * whose recorded end is after it (outlasting.ts's test). Every such download Chromium would hold the load
 * for (a style sheet, script, image or font; not an XHR, which no load waits for, nor a video or audio,
 * which holds it only until its metadata, nor a script a computation inserts, which goes into its own
 * about:blank frame, outlasting.ts) had its bytes when the load fired: the
 * record's end is not when they came. steamcommunity.com's `motiva-sans-light-italic.ttf`, requested at
 * 5,176 ms and recorded ending at 5,882 (raw log: `Resource` 15836, `recieveTime` 10,844.877 s), after the
 * page's load at 5,767 (10,844.762 s); served over the recorded 706 ms it held the synthesized page's load
 * past the `allcontenthome` XHR's answer (6,137 ms in the replay, 5,997 in the source), whose handler's 28
 * images then joined the load (11.8 s against 5.8). The images of session 11's class 8 (thesaurus.com:
 * preloaded at 840 ms, received at 4,277, drawn from the memory-cache access at 3,962 to 7,399, past the
 * 6,455 ms load) are such downloads too. 58 resources on 10 of the 64 legacy graphs (xfinity.com 18,
 * capitalone.com 13, thesaurus.com 11; beyond the ones ran-early.ts already ends); the replay ends them at
 * the load. Pure.
 */
import type { ResourceNode } from '@pcp/graph-builder';
import { isComputation, xhrEvents, type GraphIndex } from './graph-index.ts';
import { frameLoadDuring } from './outlasting.ts';

/** Whether a computation inserts `r` as a script element (outlasting.ts moves such a script out of the frame's load). */
const scriptByComputation = (ix: GraphIndex, r: ResourceNode): boolean =>
  (ix.children.get(r.id) ?? []).some((e) => ix.byId.get(e.to)?.kind === 'script_eval')
  && (ix.parents.get(r.id) ?? []).some((e) => isComputation(ix.byId.get(e.from)!));

/** A media element holds its frame's load only until it has its metadata, not for its whole download. */
const isMedia = (r: ResourceNode): boolean => /^(video|audio)\//i.test(r.mimeType) || r.requestType === 'Media';

/** `r` ending at its frame's window load when that fired during its recorded download and would wait for it; else `r`. */
export function endedByFrameLoad(ix: GraphIndex, r: ResourceNode): ResourceNode {
  const loadAt = frameLoadDuring(ix, r);
  if (loadAt === undefined || isMedia(r) || xhrEvents(ix, r).length || scriptByComputation(ix, r)) return r;
  const span = loadAt - r.start;
  return { ...r, end: loadAt, ...(r.serverDelay !== undefined && { serverDelay: Math.min(r.serverDelay, span) }) };
}
