/**
 * Computation nodes, split into sub-computations at their children's boundaries (thesis §3.5.1: a
 * computation is subdivided around the moments it issued a download or caused another computation, so
 * each child depends only on the work done before it). Parts are comp_N_0..comp_N_k, chained with
 * 'split' edges; an unsplit computation keeps the id comp_N.
 */
import type { ComputationActivity } from '../model/types.ts';
import type { GraphNode } from '../format/types.ts';
import type { RuleContext } from './context.ts';

export function computationNodes(ctx: RuleContext, kept: Set<string>): void {
  const frameUrl = new Map(ctx.acts.frames.map((f) => [f.id, f.url]));
  // One boundary per child, duplicates included: children issued at the same instant each get their
  // own (zero-length) part, in the order they were issued (network fetches before cache hits).
  const cuts = new Map<string, number[]>();
  const mark = (id: string, at: number): void => {
    const c = ctx.computations.get(id);
    if (!c || !(at > c.start && at < c.end)) return;
    (cuts.get(id) ?? cuts.set(id, []).get(id)!).push(at);
  };
  for (const r of ctx.acts.resources) if (r.issuedBy.kind === 'computation') mark(r.issuedBy.id, r.issuedBy.at);
  for (const c of ctx.acts.computations) if (kept.has(c.id) && c.triggeredBy.kind === 'computation') mark(c.triggeredBy.id, c.triggeredBy.at);

  for (const c of ctx.acts.computations) {
    if (!kept.has(c.id)) continue;
    const bounds = (cuts.get(c.id) ?? []).sort((a, b) => a - b);
    if (bounds.length === 0) {
      ctx.addNode(computationNode(c, c.id, c.start, c.end, frameUrl.get(c.frame)));
      ctx.parts.set(c.id, { ids: [c.id], bounds });
      continue;
    }
    const ids: string[] = [];
    const times = [c.start, ...bounds, c.end];
    for (let k = 0; k + 1 < times.length; k++) {
      const id = `${c.id}_${k}`;
      ctx.addNode(computationNode(c, id, times[k]!, times[k + 1]!, frameUrl.get(c.frame), k));
      if (k > 0) ctx.edge(ids[k - 1], id, 'split');
      ids.push(id);
    }
    ctx.parts.set(c.id, { ids, bounds });
  }
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
