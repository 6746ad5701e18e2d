/**
 * Computation nodes, split into sub-computations at their children's boundaries (thesis §3.5.1: a
 * computation is subdivided around the moments it issued a download or caused another computation, so
 * each child depends only on the work done before it). Parts are comp_N_0..comp_N_k, chained with
 * 'split' edges; an unsplit computation keeps the id comp_N.
 */
import type { ComputationActivity } from '../model/types.ts';
import type { GraphNode } from '../format/types.ts';
import type { RuleContext } from './context.ts';
import { isScriptFocus } from './select.ts';

/** A cut in a computation: a child issued at `at`; a re-entrant child also leaves a gap until `resume`. */
interface Cut {
  at: number;
  resume?: number;
  child?: string;
}

export function computationNodes(ctx: RuleContext, kept: Set<string>): void {
  const frameUrl = new Map(ctx.acts.frames.map((f) => [f.id, f.url]));
  // One cut per child, duplicates included: children issued at the same instant each get their own
  // (zero-length) part, in the order they were issued (network fetches before cache hits).
  const cuts = new Map<string, Cut[]>();
  const mark = (id: string, cut: Cut): void => {
    const c = ctx.computations.get(id);
    if (!c || !(cut.at > c.start && cut.at < c.end)) return;
    (cuts.get(id) ?? cuts.set(id, []).get(id)!).push(cut);
  };
  for (const r of ctx.acts.resources) if (r.issuedBy.kind === 'computation') mark(r.issuedBy.id, { at: r.issuedBy.at });
  for (const c of ctx.acts.computations) {
    if (!kept.has(c.id) || c.triggeredBy.kind !== 'computation') continue;
    const parent = ctx.computations.get(c.triggeredBy.id);
    // Re-entrant: a script that ran inside its parent (a script element inserted and run at once, or a
    // nested call) pauses the parent: the part before leads to the script and the script to the part
    // after (§3.5.1). So do a window error and a Window load dispatched inside a script, and a focus
    // change a script or timer made (when its cause is the part running then: a sender named by the
    // event's `info` is linked from its end); other events
    // dispatched inside a computation stay single cuts: making every event re-entrant agreed less with
    // the original builder (critical-path Jaccard 0.841 vs 0.854 over the corpus).
    const reentrant = parent !== undefined && kept.has(parent.id) && (c.kind === 'ScriptEval' || isScriptFocus(c) || isSyncWindowEvent(c, parent.kind)) && c.start > parent.start && c.end < parent.end && c.triggeredBy.at <= c.start;
    mark(c.triggeredBy.id, reentrant ? { at: c.start, resume: c.end, child: c.id } : { at: c.triggeredBy.at });
  }

  const resumes: { child: string; part: string }[] = [];
  for (const c of ctx.acts.computations) {
    if (!kept.has(c.id)) continue;
    const list = (cuts.get(c.id) ?? []).sort((a, b) => a.at - b.at);
    if (list.length === 0) {
      ctx.addNode(computationNode(c, c.id, c.start, c.end, frameUrl.get(c.frame)));
      ctx.parts.set(c.id, { ids: [c.id], bounds: [] });
      continue;
    }
    const ids: string[] = [];
    let from = c.start;
    for (let k = 0; k <= list.length; k++) {
      const id = `${c.id}_${k}`;
      const to = k < list.length ? list[k]!.at : c.end;
      const prev = list[k - 1];
      const start = Math.min(prev?.resume ?? from, to);
      ctx.addNode(computationNode(c, id, start, to, frameUrl.get(c.frame), k));
      if (prev?.child) resumes.push({ child: prev.child, part: id });
      else if (k > 0) ctx.edge(ids[k - 1], id, 'split');
      ids.push(id);
      from = to;
    }
    ctx.parts.set(c.id, { ids, bounds: list.map((x) => x.at) });
  }
  for (const r of resumes) ctx.edge(ctx.compLast(r.child), r.part, 'split');
}

/**
 * Window events dispatched synchronously inside a computation that waits for them: `error` (window.onerror
 * runs inside the faulty script, Appendix A, or between the listeners of an event or a timer's callback
 * when one throws: www.chinadaily.com.cn) and `load` (an about:blank frame's load, fired inside the
 * script that inserted the frame).
 */
function isSyncWindowEvent(c: ComputationActivity, parent: ComputationActivity['kind']): boolean {
  if (c.kind !== 'Event' || c.eventTarget !== 'Window') return false;
  return c.eventName === 'error' ? parent !== 'CssEval' : c.eventName === 'load' && parent === 'ScriptEval';
}

function computationNode(c: ComputationActivity, id: string, start: number, end: number, frameUrl: string | undefined, part?: number): GraphNode {
  // The document the computation ran against, when it is not its frame's (e.g. a script of the page
  // running in an about:blank child frame): kept for the original layout's per-eval `docUrl`.
  const extra = frameUrl !== undefined && c.docUrl !== frameUrl ? { extra: { legacy: { docUrl: c.docUrl } } } : {};
  const base = { id, frame: c.frame, start, end, ...(part === undefined ? {} : { part }), ...extra };
  switch (c.kind) {
    case 'ScriptEval':
      return { ...base, kind: 'script_eval', scriptUrl: c.scriptUrl ?? c.docUrl, scriptKind: c.scriptKind ?? 'inline' };
    case 'CssEval':
      return { ...base, kind: 'css_eval', styleUrl: c.styleUrl ?? c.docUrl };
    case 'Timer':
      return { ...base, kind: 'timer', timerId: c.timerId ?? c.id, timerDelay: c.timerDelay ?? 0 };
    case 'Event':
      return { ...base, kind: 'event', eventName: c.eventName ?? '', eventTarget: c.eventTarget ?? '' };
  }
}
