/**
 * Frame completion (thesis §3.5.2, Figure 3.9). Each frame's completion events, when the page listened
 * to them, follow its last parse chunk in Chrome's order: readystatechange(interactive) ->
 * DOMContentLoaded (Document, then Window) -> readystatechange(complete) -> load (Window).
 * For the main frame the builder inserts artificial zero-length markers: DOMContentLoaded after the
 * last parse chunk and the deferred scripts (which run between them, HTML's "the end"), and load after DOMContentLoaded and every resource requested before the page's load
 * ('completion:<step>' rules; resources -> load is Appendix A's 'event:window.load').
 *
 * Load also waits for the async and module scripts evaluated before it (a script element delays the load
 * event until its script ran), on sources that give request types.
 *
 * "Every resource" means those that hold up the load event in a real browser (§3.5.2: the frame stays
 * "interactive" while its outstanding requests download). Blink's Resource::IsLoadEventBlockingResourceType
 * leaves out raw fetches — XMLHttpRequest, fetch(), EventSource, beacons —, media, text tracks, prefetches
 * and manifests: a page's XHR still in flight does not delay its load event. Sources that do not give the
 * request type (legacy logs) keep the original builder's rule: every resource.
 */
import type { ComputationActivity, ResourceActivity } from '../model/types.ts';
import type { MarkerNode } from '../format/types.ts';
import type { RuleContext } from './context.ts';

export const DCL_MARKER = 'marker_domContentLoaded';
export const LOAD_MARKER = 'marker_load';

/** Request types (Chromium's names, as DevTools reports them) that do not delay the window load event. */
export const NOT_LOAD_BLOCKING = new Set(['XHR', 'Fetch', 'EventSource', 'Ping', 'Media', 'TextTrack', 'Prefetch', 'Manifest', 'WebSocket', 'CSPViolationReport', 'Preflight']);

const CHAIN_EVENTS = new Set(['readystatechange', 'DOMContentLoaded', 'load']);
const isChainEvent = (c: ComputationActivity): boolean =>
  c.kind === 'Event' && CHAIN_EVENTS.has(c.eventName ?? '') && (c.eventTarget === 'Document' || c.eventTarget === 'Window') && (c.eventSubjects?.length ?? 0) === 0;

export interface CompletionTimes {
  domContentLoaded: number;
  load: number;
}

export function completionRules(ctx: RuleContext, kept: Set<string>): CompletionTimes {
  const acts = ctx.acts;
  const main = acts.frames.find((f) => f.parent === null) ?? acts.frames[0];
  const mainId = main?.id ?? '';
  const lastChunkOfFrame = new Map<string, { id: string; end: number }>();
  for (const d of ctx.docChunks.values()) {
    const last = d.chunks[d.chunks.length - 1];
    if (!last) continue;
    const prev = lastChunkOfFrame.get(d.doc.frame);
    // A frame's own document is the one carried by its document resource; else the latest parsed.
    const isOwn = main && acts.frames.find((f) => f.id === d.doc.frame)?.document === d.doc.resource;
    // Parsed: when the parser reached the document's end (its last token), not the last chunk's end (a
    // chunk lasts its parse work, rules/parse.ts).
    const end = Math.max(d.doc.tokens[d.doc.tokens.length - 1]!.end, last.start);
    if (!prev || isOwn) lastChunkOfFrame.set(d.doc.frame, { id: last.id, end });
  }

  const chainOf = new Map<string, ComputationActivity[]>();
  for (const c of acts.computations) {
    if (kept.has(c.id) && isChainEvent(c)) (chainOf.get(c.frame) ?? chainOf.set(c.frame, []).get(c.frame)!).push(c);
  }

  // Main frame: the page's own DOMContentLoaded and Window load events serve as the markers when it
  // listened to them (as the original builder did); otherwise zero-length markers are inserted.
  const mainLast = lastChunkOfFrame.get(mainId);
  const mainChain = (chainOf.get(mainId) ?? []).sort((a, b) => a.start - b.start);
  // The document's own dispatch is the marker (the original builder's choice on all 64 sample sites), even
  // where a Window listener's record comes first.
  const dcls = mainChain.filter((c) => c.eventName === 'DOMContentLoaded');
  const realDcl = dcls.find((c) => c.eventTarget === 'Document') ?? dcls[0];
  const realLoad = mainChain.find((c) => c.eventName === 'load' && c.eventTarget === 'Window');
  const parsedAt = mainLast?.end ?? 0;
  // Deferred scripts run once parsing ends and before DOMContentLoaded (HTML's "the end" of parsing): the
  // main frame's, recorded before its DOMContentLoaded, hold the inserted marker too.
  const mainDeferred = deferredBefore(acts.computations, kept, mainId, realDcl?.start ?? acts.domContentLoaded);
  const dclTime = realDcl ? realDcl.start : Math.max(parsedAt, ...mainDeferred.map((c) => c.end));
  const blocksLoad = (r: ResourceActivity): boolean => r.requestType === undefined || !NOT_LOAD_BLOCKING.has(r.requestType);
  const lastResourceEnd = Math.max(dclTime, ...acts.resources.filter((r) => r.start <= dclTime && blocksLoad(r)).map((r) => r.end));
  const reported = acts.load !== undefined && acts.load >= dclTime ? acts.load : undefined;
  const loadTime = realLoad ? realLoad.start : (reported ?? lastResourceEnd);

  const marker = (id: string, name: string, t: number): MarkerNode => ({ id, kind: 'marker', markerName: name, frame: mainId, start: t, end: t });
  const dclId = realDcl ? ctx.compFirst(realDcl.id)! : DCL_MARKER;
  const loadId = realLoad ? ctx.compFirst(realLoad.id)! : LOAD_MARKER;
  if (!realDcl) ctx.addNode(marker(DCL_MARKER, 'domContentLoaded', dclTime));
  if (!realLoad) ctx.addNode(marker(LOAD_MARKER, 'load', loadTime));

  for (const f of acts.frames) {
    const events = (chainOf.get(f.id) ?? []).sort((a, b) => a.start - b.start);
    const steps: { id: string; name: string }[] = [];
    const last = lastChunkOfFrame.get(f.id);
    if (last) steps.push({ id: last.id, name: 'parsed' });
    const isMain = f.id === mainId;
    const step = (c: ComputationActivity): { id: string; name: string } => ({ id: ctx.compFirst(c.id)!, name: `${c.eventTarget?.toLowerCase()}.${c.eventName}` });
    const frameDcl = isMain ? dclTime : (events.find((c) => c.eventName === 'DOMContentLoaded')?.start ?? Infinity);
    const isComplete = (c: ComputationActivity): boolean => (c.readyState ? c.readyState === 'complete' : c.start > frameDcl);
    const interactive = events.filter((c) => c.eventName === 'readystatechange' && !isComplete(c));
    const dcl = events.filter((c) => c.eventName === 'DOMContentLoaded');
    const complete = events.filter((c) => c.eventName === 'readystatechange' && isComplete(c));
    const loads = events.filter((c) => c.eventName === 'load' && c !== realLoad);
    steps.push(...interactive.map(step));
    // DOMContentLoaded dispatches in the order they ran, the main frame's marker among them.
    if (isMain && !realDcl) steps.push({ id: dclId, name: 'domContentLoaded' });
    // An inserted load marker stands for a load the page did not record; a 'complete' readystatechange
    // dispatched after the marker's time (www.gsmarena.com: 58 s later, the main frame's loadTime 0)
    // follows it, as the original builder chained them.
    const late = (c: ComputationActivity): boolean => isMain && !realLoad && c.start > loadTime;
    steps.push(...dcl.map((c) => (c === realDcl ? { id: dclId, name: 'domContentLoaded' } : step(c))), ...complete.filter((c) => !late(c)).map(step));
    if (isMain) steps.push({ id: loadId, name: 'load' });
    steps.push(...complete.filter(late).map(step), ...loads.map(step));
    for (let k = 1; k < steps.length; k++) {
      const from = k === 1 ? steps[0]!.id : lastPartOf(ctx, steps[k - 1]!.id);
      ctx.edge(from, steps[k]!.id, `completion:${steps[k]!.name}`);
    }
    // DOMContentLoaded (the frame's first dispatch, the main frame's marker) waits for the deferred scripts.
    const firstDcl = isMain ? dclId : dcl[0] && ctx.compFirst(dcl[0].id);
    const deferred = isMain ? mainDeferred : deferredBefore(acts.computations, kept, f.id, dcl[0]?.start);
    if (firstDcl) for (const c of deferred) ctx.edge(lastPartOf(ctx, ctx.compFirst(c.id)!), firstDcl, 'completion:domContentLoaded');
    // Window load waits for every resource of the frame requested before it (Appendix A).
    const frameLoad = loads.find((c) => c.eventTarget === 'Window');
    const windowLoad = isMain ? loadId : frameLoad ? ctx.compFirst(frameLoad.id) : undefined;
    if (!windowLoad) continue;
    const limit = isMain ? loadTime : frameLoad!.start;
    for (const r of acts.resources) {
      // The main document is the graph's root; a subframe's own document is among its resources.
      if (r.start > limit || (isMain && r.id === f.document) || !blocksLoad(r)) continue;
      if (isMain || r.frame === f.id) ctx.edge(r.id, windowLoad, 'event:window.load');
    }
    // ... and for its async and module scripts to have run, not only for their download: a script element
    // delays its document's load event until its script ran (HTML; Blink's ScriptRunner holds the load event
    // for each pending async script), so an async script evaluated before load holds it. Chrome traces only
    // (the script's request has a request type); legacy logs keep the original builder's rule.
    for (const c of acts.computations) {
      if (c.kind !== 'ScriptEval' || (c.scriptKind !== 'async' && c.scriptKind !== 'module') || !kept.has(c.id) || c.end > limit) continue;
      if (!isMain && c.frame !== f.id) continue;
      const source = c.source === undefined ? undefined : acts.resources.find((r) => r.id === c.source);
      if (source?.requestType === undefined) continue;
      ctx.edge(lastPartOf(ctx, ctx.compFirst(c.id)!), windowLoad, 'event:window.load');
    }
  }
  ctx.markers = { domContentLoaded: dclId, load: loadId };
  return { domContentLoaded: dclTime, load: loadTime };
}

/** Frame f's deferred scripts that ran before its recorded DOMContentLoaded (none when that is unknown). */
function deferredBefore(comps: ComputationActivity[], kept: Set<string>, frame: string, dcl: number | undefined): ComputationActivity[] {
  if (dcl === undefined) return [];
  return comps.filter((c) => c.frame === frame && c.kind === 'ScriptEval' && c.scriptKind === 'defer' && kept.has(c.id) && c.end <= dcl);
}

function lastPartOf(ctx: RuleContext, nodeId: string): string {
  const m = /^(comp_\d+)_0$/.exec(nodeId);
  return m ? (ctx.compLast(m[1]!) ?? nodeId) : nodeId;
}
