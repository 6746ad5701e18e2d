/**
 * TraceLoad (facts from a stock Chromium trace) -> the source-neutral activity model that the rule engine
 * turns into a graph, in phases around one context (activities/context.ts):
 *  1. select.ts: which activity slices are computations;
 *  2. request-causes.ts: where each request comes from (a computation, a style sheet, a tag);
 *  3. computations.ts: a computation activity per selected slice, with its pending cause;
 *  4. documents.ts: each document's tokens, numbering the tags that causes point at;
 *  5. here: causes resolved to tokens, then resources, computations, frames and the page's marks.
 */
import type { Activities, Cause, ComputationActivity, FrameActivity, ResourceActivity } from '../../model/types.ts';
import { NO_CAUSE } from '../../model/types.ts';
import type { TraceLoad } from './load.ts';
import { ActivityContext, frameDocumentKey, isTokenKey, type PendingCause, type TraceAdapterOptions } from './activities/context.ts';
import { computationActivities, type PendingComputation } from './activities/computations.ts';
import { documentActivities, type TokenIndex } from './activities/documents.ts';
import { causeRequests } from './activities/request-causes.ts';
import { selectComputations } from './activities/select.ts';
import { browserDelay, documentBrowserDelay, frameDocumentBrowserDelay, requestTypeOf } from './activities/browser-delay.ts';
import { resourceStart } from './activities/cache-hit.ts';

export type { ExtraInitiators, TraceAdapterOptions } from './activities/context.ts';

const MIME_BY_TYPE: Record<string, string> = {
  Document: 'text/html',
  Stylesheet: 'text/css',
  Script: 'application/javascript',
  Image: 'image/*',
  Font: 'font/*',
  XHR: 'application/octet-stream',
  Fetch: 'application/octet-stream',
};

export function traceToActivities(load: TraceLoad, options: TraceAdapterOptions = {}, warnings: string[] = []): Activities {
  warnings.push(...load.warnings);
  const ctx = new ActivityContext(load, options, warnings);
  selectComputations(ctx);
  causeRequests(ctx);
  const comps = computationActivities(ctx);
  const { documents, tokenIndex } = documentActivities(ctx);
  const resolve = (c: PendingCause): Cause => {
    if (!isTokenKey(c)) return c;
    const t = tokenIndex.get(c);
    return t ? { kind: 'token', doc: t.doc, token: t.token } : NO_CAUSE;
  };
  const resources = resourceActivities(ctx, resolve);
  const computations = resolvedComputations(comps, resolve);
  settleStyleSheetCauses(resources, computations);
  const acts: Activities = {
    page: ctx.docRequest.get(load.mainFrame)?.url ?? load.frames[0]?.url ?? '',
    frames: frameActivities(ctx),
    resources,
    documents,
    computations,
  };
  if (load.mainThreadTasks?.length) acts.mainThreadTasks = load.mainThreadTasks;
  const mainMarks = load.marks.filter((m) => m.frame === load.mainFrame);
  const dcl = mainMarks.find((m) => m.name === 'domContentLoaded');
  const ld = mainMarks.find((m) => m.name === 'load');
  if (dcl) acts.domContentLoaded = dcl.time;
  if (ld) acts.load = ld.time;
  if (options.browserVersion) acts.browserVersion = options.browserVersion;
  return acts;
}

function resourceActivities(ctx: ActivityContext, resolve: (c: PendingCause) => Cause): ResourceActivity[] {
  const { requests, resId } = ctx;
  const mainDocument = ctx.docRequest.get(ctx.load.mainFrame);
  return requests.map((r) => {
    const bodyBytes = r.chunks.reduce((a, c) => a + c.bytes, 0);
    const end = r.finish ?? r.chunks[r.chunks.length - 1]?.time ?? r.response ?? r.send;
    const start = resourceStart(r);
    const res: ResourceActivity = {
      id: resId.get(r)!,
      url: r.url,
      frame: ctx.fid(r.frame),
      start,
      end: Math.max(end, start),
      mimeType: r.mimeType || MIME_BY_TYPE[r.resourceType] || 'application/octet-stream',
      size: bodyBytes > 0 ? bodyBytes : r.decodedLength,
      method: r.method,
      status: r.failed ? 0 : r.status,
      cached: r.fromCache,
      issuedBy: resolve(ctx.issued.get(r) ?? NO_CAUSE),
      arrivals: r.chunks,
    };
    if (r.response !== undefined) res.responseStart = r.response;
    res.requestType = requestTypeOf(r);
    if (r.priority) res.browserPriority = r.priority;
    if (r.protocol) res.protocol = r.protocol;
    // (the main document's request side is the navigation's: index.ts adds it from the DevTools log)
    const navigationRequest = r !== mainDocument && r.resourceType === 'Document' ? ctx.options.frameDocumentRequests?.get(frameDocumentKey(r.frame, r.url)) : undefined;
    if (navigationRequest !== undefined) res.navigationRequest = navigationRequest;
    const delay =
      r === mainDocument
        ? documentBrowserDelay(r, {})
        : r.resourceType === 'Document'
          ? frameDocumentBrowserDelay(r, navigationRequest)
          : browserDelay(r);
    if (delay) res.browserDelay = delay;
    if (r.fromCache) {
      const original = requests.find((o) => o !== r && o.url === r.url && !o.fromCache && o.send < r.send);
      if (original) res.originalResource = resId.get(original)!;
    }
    return res;
  });
}

function resolvedComputations(comps: PendingComputation[], resolve: (c: PendingCause) => Cause): ComputationActivity[] {
  return comps.map(({ pending, ...c }) => {
    const cause = resolve(pending);
    // A cause inside the computation's own span is "at" a time the rules use to split the causer.
    if (cause.kind === 'computation' && !Number.isFinite(cause.at)) return { ...c, triggeredBy: { kind: 'computation', id: cause.id, at: c.start } };
    return { ...c, triggeredBy: cause };
  });
}

/** Requests a style sheet initiated are issued at the end of its evaluation (their `at` was Infinity). */
function settleStyleSheetCauses(resources: ResourceActivity[], computations: ComputationActivity[]): void {
  for (const r of resources) {
    const cause = r.issuedBy;
    if (cause.kind !== 'computation' || Number.isFinite(cause.at)) continue;
    const css = computations.find((c) => c.id === cause.id);
    r.issuedBy = { kind: 'computation', id: cause.id, at: css ? css.end : r.start };
  }
}

function frameActivities(ctx: ActivityContext): FrameActivity[] {
  return ctx.load.frames.map((f) => {
    const fa: FrameActivity = { id: ctx.fid(f.id), url: ctx.docRequest.get(f.id)?.url ?? f.url, parent: f.parent === null ? null : ctx.fid(f.parent) };
    const d = ctx.docRequest.get(f.id);
    if (d) fa.document = ctx.resId.get(d)!;
    const mark = ctx.load.marks.find((m) => m.frame === f.id && m.name === 'load');
    if (mark) fa.loadTime = mark.time;
    return fa;
  });
}
