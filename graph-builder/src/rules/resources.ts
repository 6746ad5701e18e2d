/**
 * Resource nodes and their parents (Table 3.1 rules 1-2): a resource depends on the parse chunk that
 * declared it (rule 1) or the part of the computation that issued it (rule 2). A frame's document
 * resource leads to the frame's first download chunk (rules 5-8, by the kind of the frame's creator).
 */
import type { Cause } from '../model/types.ts';
import type { EdgeRule, ResourceNode } from '../format/types.ts';
import type { RuleContext } from './context.ts';

export function resourceNodes(ctx: RuleContext): void {
  const docOfFrame = new Map<string, string>();
  for (const f of ctx.acts.frames) if (f.document) docOfFrame.set(f.document, f.id);
  for (const r of ctx.acts.resources) {
    const node: ResourceNode = {
      id: r.id,
      kind: 'resource',
      frame: r.frame,
      start: r.start,
      end: r.end,
      url: r.url,
      mimeType: r.mimeType,
      size: r.size,
      method: r.method,
      status: r.status,
      cached: r.cached,
      priority: { mimeType: 0, criticalPath: 0 },
      onCriticalPath: false,
    };
    if (r.responseStart !== undefined) node.responseStart = r.responseStart;
    if (r.navigationRequest !== undefined) node.navigationRequest = r.navigationRequest;
    if (r.requestType !== undefined) node.requestType = r.requestType;
    if (r.browserPriority !== undefined) node.browserPriority = r.browserPriority;
    if (r.protocol !== undefined) node.protocol = r.protocol;
    if (r.browserDelay !== undefined) node.browserDelay = r.browserDelay;
    // Chromium's body pieces (the trace's; legacy logs' chunks already give their download chunks offsets).
    if (r.requestType !== undefined && r.arrivals.length > 1) node.arrivals = r.arrivals.map((a) => ({ at: a.time, bytes: a.bytes }));
    const frame = docOfFrame.get(r.id);
    if (frame) node.documentOfFrame = frame;
    if (r.originalResource) node.extra = { originalResource: r.originalResource };
    ctx.addNode(node);
  }
}

/** The node standing for a cause: the parse chunk of a token, the running part of a kept computation
 *  (or of its nearest kept ancestor when it was left out of the graph). */
export function causeNode(ctx: RuleContext, cause: Cause): string | undefined {
  let c: Cause = cause;
  for (let hops = 0; hops < 64; hops++) {
    if (c.kind === 'none') return undefined;
    if (c.kind === 'token') return ctx.chunkOfToken(c.doc, c.token);
    const node = hops === 0 ? ctx.claimNodeAt(c.id, c.at) : ctx.compNodeAt(c.id, c.at);
    if (node) return node;
    c = ctx.computations.get(c.id)?.triggeredBy ?? { kind: 'none' };
  }
  return undefined;
}

export function resourceRules(ctx: RuleContext): void {
  for (const r of ctx.acts.resources) {
    const parent = causeNode(ctx, r.issuedBy);
    ctx.edge(parent, r.id, r.issuedBy.kind === 'token' ? 1 : 2);
  }
  // Document of frame -> its first download chunk; the rule names the frame creator's kind.
  for (const d of ctx.docChunks.values()) {
    const first = d.downloadChunks[0];
    const resId = d.doc.resource;
    if (!first || !resId) continue;
    const r = ctx.resources.get(resId)!;
    let rule: EdgeRule = 5;
    if (r.issuedBy.kind === 'computation') {
      const kind = ctx.computations.get(r.issuedBy.id)?.kind;
      rule = kind === 'Event' ? 7 : kind === 'Timer' ? 8 : 6;
    }
    ctx.edge(resId, first, rule);
  }
}
