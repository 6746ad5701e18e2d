/**
 * Parents of computations (Table 3.1 rules 4, 10-21, 25):
 *  - script eval: the parse chunk after which it ran (12), the script resource (10), a deferred script
 *    the document's last parse chunk and its resource (17), the computation that
 *    inserted it (14 script, 15 event, 16 timer); a parser-blocking script precedes the next chunk (4);
 *  - CSS eval: its stylesheet (18), and it precedes the frame's next parser-blocking script (11/13);
 *  - timer: the computation that registered it (19 script, 20 event, 21 timer);
 *  - event: the resources of its target element (Appendix A, 'event:element.<name>'), or the computation
 *    that dispatched it (25);
 *  - a script, event or timer that works in another frame's document (it requests a resource there)
 *    waits for that frame's download up to its last chunk (22, 23, 24).
 */
import type { ComputationActivity, ComputationKind } from '../model/types.ts';
import type { EdgeRule } from '../format/types.ts';
import type { RuleContext } from './context.ts';
import { causeNode } from './resources.ts';

const NESTED_RULE: Record<ComputationKind, Partial<Record<ComputationKind, EdgeRule>>> = {
  ScriptEval: { ScriptEval: 14, Event: 15, Timer: 16, CssEval: 13 },
  Timer: { ScriptEval: 19, Event: 20, Timer: 21, CssEval: 19 },
  Event: { ScriptEval: 25, Event: 25, Timer: 25, CssEval: 25 },
  CssEval: { ScriptEval: 2, Event: 2, Timer: 2, CssEval: 2 },
};

export function computationRules(ctx: RuleContext, kept: Set<string>): void {
  const blockingByFrame = new Map<string, ComputationActivity[]>();
  for (const c of ctx.acts.computations) {
    if (!kept.has(c.id)) continue;
    const first = ctx.compFirst(c.id)!;
    const cause = c.triggeredBy;
    // Rule 17: a deferred script waits for the end of parsing (its document's last chunk) and its download.
    const deferred = c.kind === 'ScriptEval' && c.scriptKind === 'defer';
    if (cause.kind === 'token') {
      const chunks = ctx.docChunks.get(cause.doc)?.chunks;
      const last = deferred ? chunks?.[chunks.length - 1]?.id : undefined;
      ctx.edge(last ?? ctx.chunkOfToken(cause.doc, cause.token), first, last ? 17 : c.kind === 'ScriptEval' ? 12 : 1);
      if (c.blocksParser) {
        const d = ctx.docChunks.get(cause.doc);
        const at = d?.chunkOfToken[cause.token];
        const next = at === undefined ? undefined : d!.chunks[at + 1];
        if (next) ctx.edge(ctx.compLast(c.id), next.id, 4);
        if (c.kind === 'ScriptEval') (blockingByFrame.get(c.frame) ?? blockingByFrame.set(c.frame, []).get(c.frame)!).push(c);
      }
    } else if (cause.kind === 'computation') {
      const parentKind = ctx.computations.get(cause.id)?.kind ?? 'ScriptEval';
      ctx.edge(causeNode(ctx, cause), first, NESTED_RULE[c.kind][parentKind] ?? 25);
    }
    if (c.source) ctx.edge(c.source, first, c.kind === 'CssEval' ? 18 : deferred ? 17 : 10);
    if (c.kind === 'Event') {
      const rule = `event:${(c.eventTarget ?? 'element').toLowerCase()}.${c.eventName}`;
      const prev = c.previousOnTarget && kept.has(c.previousOnTarget) ? ctx.compLast(c.previousOnTarget) : undefined;
      if (prev) ctx.edge(prev, first, rule);
      else {
        for (const r of c.eventSubjects ?? []) {
          const frameDoc = [...ctx.docChunks.values()].find((d) => d.doc.resource === r && d.downloadChunks.length > 0);
          if (!frameDoc || frameDoc.doc.frame === c.frame) {
            ctx.edge(r, first, rule);
            continue;
          }
          // Appendix A: an iframe element's (second) load follows the frame's completion chain, whose
          // end, when the page listened to it, is the frame's Window load (itself after every resource
          // of the frame), and the frame's HTML. Otherwise (rule 23) it waits for that frame's
          // document, up to its last download chunk.
          const frameLoad = c.eventName === 'load' ? frameWindowLoad(ctx, kept, frameDoc.doc.frame, c.start) : undefined;
          if (frameLoad) {
            ctx.edge(r, first, rule);
            ctx.edge(ctx.compLast(frameLoad.id), first, 'completion:iframe.load');
          } else ctx.edge(frameDoc.downloadChunks[frameDoc.downloadChunks.length - 1], first, 23);
        }
      }
    }
  }
  frameWorkRules(ctx, kept);
  // CSS blocks the next synchronous script of its frame (Firefox's model, thesis §3.5.1.1).
  for (const c of ctx.acts.computations) {
    if (!kept.has(c.id) || c.kind !== 'CssEval') continue;
    const next = (blockingByFrame.get(c.frame) ?? []).find((s) => s.start >= c.end);
    if (next) ctx.edge(ctx.compLast(c.id), ctx.compFirst(next.id), next.source ? 11 : 13);
  }
}

/** The latest Window load dispatched in `frame` by `before` and kept in the graph (the frame's completion chain end). */
function frameWindowLoad(ctx: RuleContext, kept: Set<string>, frame: string, before: number): ComputationActivity | undefined {
  let best: ComputationActivity | undefined;
  for (const x of ctx.acts.computations) {
    if (x.frame !== frame || !kept.has(x.id) || x.kind !== 'Event' || x.eventName !== 'load' || x.eventTarget !== 'Window' || x.start > before) continue;
    if (!best || x.start >= best.start) best = x;
  }
  return best;
}

const FRAME_WORK_RULE: Record<ComputationKind, EdgeRule | undefined> = { ScriptEval: 22, Event: 23, Timer: 24, CssEval: undefined };

/**
 * Rules 22-24: a computation that manipulates another frame's DOM depends on that frame's complete
 * download. The evidence is a resource it issued in the other frame (an element it created there). The
 * frame's last download chunk must have arrived before the computation ran; otherwise the computation
 * could not have been waiting for it.
 */
function frameWorkRules(ctx: RuleContext, kept: Set<string>): void {
  const framesTouched = new Map<string, Set<string>>();
  for (const r of ctx.acts.resources) {
    if (r.issuedBy.kind !== 'computation') continue;
    const c = ctx.computations.get(r.issuedBy.id);
    if (!c || !kept.has(c.id) || c.frame === r.frame) continue;
    (framesTouched.get(c.id) ?? framesTouched.set(c.id, new Set()).get(c.id)!).add(r.frame);
  }
  for (const [id, frames] of framesTouched) {
    const c = ctx.computations.get(id)!;
    const rule = FRAME_WORK_RULE[c.kind];
    if (rule === undefined) continue;
    for (const frame of frames) {
      const d = [...ctx.docChunks.values()].find((x) => x.doc.frame === frame && x.downloadChunks.length > 0);
      const last = d?.downloadChunks[d.downloadChunks.length - 1];
      const lastEnd = last === undefined ? undefined : ctx.nodeById.get(last)?.end;
      if (last !== undefined && lastEnd !== undefined && lastEnd <= c.start) ctx.edge(last, ctx.compFirst(id)!, rule);
    }
  }
}
