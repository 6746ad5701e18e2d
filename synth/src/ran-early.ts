/**
 * Downloads the source ran before they ended: a script or style sheet whose first evaluation (caused by
 * its download) starts well before the download's recorded end had its bytes by then. The 2016 builder
 * drew a preloaded resource that the parser then took from the memory cache (`Cached` record) at the
 * access time, with the network fetch's duration after it: steamcommunity.com's `global.js`, fetched by
 * the preload scanner at 296-5,130 ms and run at 5,241 ms, is a node of 5,240-10,073 ms (14 such scripts
 * there, 5 s past the page's 5,767 ms load; www.adexc.net 16, 2.2 s past it). Served over the recorded
 * span, they hold the synthesized page's parser and load event seconds after the source's; the replay
 * ends them when they ran. Pure.
 */
import type { ResourceNode } from '@pcp/graph-builder';
import type { GraphIndex } from './graph-index.ts';
import { heldUntilEvaluated } from './unreceived.ts';

/** An evaluation this far before the recorded end ran on bytes the record says had not come. */
const EARLY_MS = 20;

/** `r` ending at its first evaluation when that ran more than EARLY_MS before its recorded end; else `r`. */
export function endedWhenRun(ix: GraphIndex, r: ResourceNode): ResourceNode {
  const evals = (ix.children.get(r.id) ?? []).map((e) => ix.byId.get(e.to)!).filter((n) => n.kind === 'script_eval' || n.kind === 'css_eval');
  if (!evals.length) return r;
  const ranAt = Math.max(r.start, Math.min(...evals.map((n) => n.start)));
  if (ranAt >= r.end - EARLY_MS) return r;
  const span = ranAt - r.start;
  return { ...r, end: ranAt, ...(r.serverDelay !== undefined && { serverDelay: Math.min(r.serverDelay, span) }) };
}

/** When the replay's response for `r` ends: as recorded, held until it ran (unreceived.ts), or ended when it ran (above). */
export const servedSpan = (ix: GraphIndex, r: ResourceNode): ResourceNode => endedWhenRun(ix, heldUntilEvaluated(ix, r));
