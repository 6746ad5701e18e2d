/**
 * Phase 2: where each request comes from (ActivityContext.issued).
 *  1. the main thread was running a computation when it was issued -> that computation (Rule 2), even
 *     when Chromium names a parser initiator (e.g. an image created by a script during parsing);
 *  2. markup a script wrote (document.write) is parsed inside that script: its tags are the writer's;
 *  3. a style sheet named as initiator (CSS images, fonts, @import) -> that sheet's CSS evaluation,
 *     at its end (Infinity until the evaluation's end is known);
 *  4. a parser initiator (document url + line/column) -> the token of that tag (Rule 1);
 *  5. an iframe's document -> the <iframe> tag (from the DevTools log's initiator when present,
 *     else the parse slice in which the frame was created) or the script that created it.
 */
import { NO_CAUSE } from '../../../model/types.ts';
import type { TraceRequest } from '../load.ts';
import type { ActivityContext, PendingCause } from './context.ts';

export function causeRequests(ctx: ActivityContext): void {
  // Style sheets' evaluations, by url, for requests a sheet initiates.
  const cssEvalOf = new Map<string, string>();
  for (const sl of ctx.compSlices) if (sl.name === 'ParseAuthorStyleSheet' && sl.url) cssEvalOf.set(sl.url, ctx.compOfSlice.get(sl.index)!);
  for (const r of ctx.requests) ctx.issued.set(r, causeOf(ctx, r, cssEvalOf));
}

function causeOf(ctx: ActivityContext, r: TraceRequest, cssEvalOf: Map<string, string>): PendingCause {
  const owner = ctx.ownerOf(r.runningAt);
  const init = r.initiator;
  const extra = ctx.options.extraInitiators?.get(r.requestId);
  const writer = owner.parse ? ctx.ownerOf(owner.parse.parent).comp : undefined;
  const written = writer !== undefined && (init?.type !== 'parser' || !ctx.inSource(init.url ?? '', r.url));
  if (owner.comp && !owner.parse) return { kind: 'computation', id: owner.comp, at: r.send };
  if (written) {
    ctx.writtenRequests.add(r);
    return { kind: 'computation', id: writer, at: r.send };
  }
  if (init?.fetchType === 'css' && init.url && cssEvalOf.has(init.url)) return { kind: 'computation', id: cssEvalOf.get(init.url)!, at: Infinity };
  if (init?.type === 'parser' && init.url && init.line !== undefined && ctx.docOfUrl(init.url, r.frame)) {
    const at = ctx.tagPosition(init.url, r.url, init.line, init.column ?? 1);
    return ctx.tokenAt(ctx.docOfUrl(init.url, r.frame)!, at.line, at.column, init.fetchType ?? 'tag');
  }
  const parentFrame = ctx.parentFrame(r.frame) ?? r.frame;
  if (r.resourceType === 'Document' && extra && ctx.docOfUrl(extra.url, parentFrame)) {
    const at = ctx.tagPosition(extra.url, r.url, extra.line, extra.column);
    return ctx.tokenAt(ctx.docOfUrl(extra.url, parentFrame)!, at.line, at.column, 'iframe');
  }
  if (r.resourceType === 'Document' && r.frame !== ctx.load.mainFrame) return frameCreator(ctx, r) ?? NO_CAUSE;
  if (r.resourceType !== 'Document') ctx.warnings.push(`no parent found for ${r.url} (initiator ${init?.type ?? 'none'})`);
  return NO_CAUSE;
}

/**
 * The cause of an iframe's document request without a logged initiator: the slice in which Chromium
 * created the frame (its first, about:blank ParseHTML nests inside it).
 */
function frameCreator(ctx: ActivityContext, r: TraceRequest): PendingCause | undefined {
  const blank = ctx.slices.find((sl) => sl.kind === 'parse' && sl.frame === r.frame && sl.url === 'about:blank');
  if (!blank || blank.parent === undefined) return undefined;
  const owner = ctx.ownerOf(blank.parent);
  if (owner.comp) return { kind: 'computation', id: owner.comp, at: blank.start };
  const parse = owner.parse;
  if (parse?.frame && parse.line !== undefined) return ctx.tokenAt(ctx.docId(parse.frame), parse.line, 1, 'iframe', blank.start);
  return undefined;
}
