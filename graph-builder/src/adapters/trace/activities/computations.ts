/**
 * Phase 3: a computation activity per selected slice (select.ts), by kind: script evaluation, style
 * sheet evaluation, timer, XHR event, DOM event, or a callback the trace shows no dispatch for. Causes
 * are pending: a token key stands for a tag until the documents' tokens are numbered (documents.ts).
 */
import type { ComputationActivity, ScriptKindM } from '../../../model/types.ts';
import { NO_CAUSE } from '../../../model/types.ts';
import { requestFor, type Slice, type TraceRequest } from '../load.ts';
import { isTokenKey, sameDoc, type ActivityContext, type Owner, type PendingCause } from './context.ts';
import { callbackEvent, EventTargets, windowLoadFrame } from './event-targets.ts';
import { frameOfDescendant, handlerOf } from './slice-tree.ts';

export type PendingComputation = ComputationActivity & { pending: PendingCause };

/** What every kind needs: the slice, its frame and document, and the computation it runs inside. */
interface Site {
  sl: Slice;
  base: Pick<ComputationActivity, 'id' | 'frame' | 'docUrl' | 'start' | 'end'>;
  /** The trace frame it runs in. */
  frameTrace: string;
  docUrl: string;
  parentOwner: Owner;
  /** Its cause when it runs inside another computation (a synchronous dispatch, a nested evaluation). */
  nested: PendingCause | undefined;
}

export function computationActivities(ctx: ActivityContext): PendingComputation[] {
  const targets = new EventTargets(ctx);
  const comps = ctx.compSlices.map((sl) => {
    const site = siteOf(ctx, sl);
    if (sl.kind === 'function' || sl.kind === 'microtask') return callback(ctx, site);
    if (sl.kind === 'script') return scriptEval(ctx, site);
    if (sl.name === 'ParseAuthorStyleSheet') return cssEval(ctx, site);
    if (sl.kind === 'timer') return timer(ctx, site);
    if (sl.kind === 'xhr') return xhrEvent(ctx, site);
    return domEvent(ctx, site, targets);
  });
  chainReadyStates(ctx.compSlices, comps);
  return comps;
}

/**
 * Appendix A (Table A.3): each readystatechange of an XHR "also depends on calling the previous
 * readystatechange event handler in order of state". From HEADERS_RECEIVED (2) on, a request's state
 * changes follow each other (the first on the download, as before; OPENED fires inside open(), before the
 * request); the rules draw the edge from the previous one (`previousOnTarget`), as the legacy logs' chain.
 */
export function chainReadyStates(slices: Slice[], comps: PendingComputation[]): void {
  const last = new Map<string, string>();
  const states = comps.flatMap((c, i) => (slices[i]!.name === 'XHRReadyStateChange' && (slices[i]!.readyState ?? 0) >= 2 && c.eventSubjects?.length ? [c] : []));
  for (const c of states.sort((a, b) => a.start - b.start)) {
    const request = c.eventSubjects![0]!;
    const previous = last.get(request);
    if (previous !== undefined) c.previousOnTarget = previous;
    last.set(request, c.id);
  }
}

/** The frame a slice runs in: an event runs in the frame of its handler (an iframe element's load is handled in the parent frame even though it follows the child frame's own load). */
const frameOfSlice = (ctx: ActivityContext, sl: Slice): string =>
  sl.frame ?? handlerOf(ctx.slices, sl)?.frame ?? frameOfDescendant(ctx.slices, sl) ?? windowLoadFrame(ctx.load, sl) ?? ctx.load.mainFrame;

function siteOf(ctx: ActivityContext, sl: Slice): Site {
  const { load } = ctx;
  const frameTrace = frameOfSlice(ctx, sl);
  const docUrl = ctx.docRequest.get(frameTrace)?.url ?? load.frames.find((f) => f.id === frameTrace)?.url ?? '';
  const parentOwner = ctx.ownerOf(sl.parent);
  const nested: PendingCause | undefined = parentOwner.comp ? { kind: 'computation', id: parentOwner.comp, at: sl.start } : undefined;
  const base = { id: ctx.compOfSlice.get(sl.index)!, frame: ctx.fid(frameTrace), docUrl, start: sl.start, end: Math.max(sl.end, sl.start) };
  return { sl, base, frameTrace, docUrl, parentOwner, nested };
}

/**
 * A callback the trace shows no dispatch for (postMessage, MessagePort messages, promise reactions): an
 * event, kept by the rules only when it leads to a download. Its cause is what scheduled it when a flow
 * says so (the script that called postMessage).
 */
function callback(ctx: ActivityContext, { sl, base, nested }: Site): PendingComputation {
  const scheduler = sl.scheduledBy !== undefined ? ctx.ownerOf(sl.scheduledBy).comp : undefined;
  const pending: PendingCause = nested ?? (scheduler ? { kind: 'computation', id: scheduler, at: sl.scheduledAt ?? sl.start } : NO_CAUSE);
  return { ...base, kind: 'Event', triggeredBy: NO_CAUSE, pending, ...callbackEvent(sl) };
}

function scriptEval(ctx: ActivityContext, { sl, base, frameTrace, docUrl, parentOwner, nested }: Site): PendingComputation {
  const url = sl.url ?? docUrl;
  const req = !sameDoc(url, docUrl) ? requestBefore(ctx.requests, url, frameTrace, sl.start) : undefined;
  const inline = sameDoc(url, docUrl);
  const kind: ScriptKindM = inline ? 'inline' : req && ctx.writtenRequests.has(req) ? 'write' : scriptKind(req, sl, parentOwner);
  let pending: PendingCause;
  // An inline script runs inside the parse slice that reached it, or (held back by a pending style
  // sheet) in a task of its own: either way its cause is its tag's position.
  if (inline && !nested && sl.line !== undefined) {
    const doc = ctx.docOfUrl(docUrl, frameTrace);
    pending = doc ? ctx.tokenAt(doc, sl.line, Math.max(1, (sl.column ?? 1) - 8), 'script', sl.start) : NO_CAUSE;
  } else if (nested) pending = nested;
  else if (req) {
    const c = ctx.issued.get(req) ?? NO_CAUSE;
    // A parser-inserted script runs after the parser reached its tag: bound that token's time.
    if (isTokenKey(c) && (kind === 'sync' || kind === 'write')) c.bound = Math.min(c.bound ?? Infinity, sl.start);
    // An async script waits for its download alone (Rule 10), not for the chunk that declared it.
    pending = isTokenKey(c) && kind === 'async' ? NO_CAUSE : c;
  } else pending = NO_CAUSE;
  return {
    ...base,
    kind: 'ScriptEval',
    triggeredBy: NO_CAUSE,
    pending,
    scriptUrl: url,
    scriptKind: kind,
    ...(req ? { source: ctx.resId.get(req)! } : {}),
    blocksParser: inline ? !nested : kind === 'sync' || kind === 'write',
  };
}

function cssEval(ctx: ActivityContext, { sl, base, frameTrace, docUrl, nested }: Site): PendingComputation {
  const req = sl.url ? requestBefore(ctx.requests, sl.url, frameTrace, sl.start) : undefined;
  return {
    ...base,
    kind: 'CssEval',
    triggeredBy: NO_CAUSE,
    // A style sheet's evaluation waits for its download (Rule 18); its <link> chunk is already behind that.
    pending: nested ?? NO_CAUSE,
    styleUrl: sl.url ?? docUrl,
    ...(req ? { source: ctx.resId.get(req)! } : {}),
  };
}

function timer(ctx: ActivityContext, { sl, base }: Site): PendingComputation {
  const install = [...ctx.load.timers].reverse().find((t) => t.timerId === sl.timerId && t.time <= sl.start && (!t.frame || !sl.frame || t.frame === sl.frame));
  const owner = install ? ctx.ownerOf(install.runningAt) : {};
  return {
    ...base,
    kind: 'Timer',
    triggeredBy: NO_CAUSE,
    pending: owner.comp ? { kind: 'computation', id: owner.comp, at: install!.time } : NO_CAUSE,
    timerId: sl.timerId ?? '',
    timerDelay: install?.timeout ?? 0,
  };
}

function xhrEvent(ctx: ActivityContext, { sl, base, nested }: Site): PendingComputation {
  const req = sl.url ? xhrRequest(ctx.requests, sl.url, sl.start) : undefined;
  return {
    ...base,
    kind: 'Event',
    triggeredBy: NO_CAUSE,
    // The XHR's own download orders it after its sender (Appendix A); only a synchronous dispatch
    // (readyState 1 inside send()) has a computation parent.
    pending: nested ?? NO_CAUSE,
    eventName: sl.name === 'XHRLoad' ? 'load' : 'readystatechange',
    eventTarget: 'XMLHTTPRequest',
    ...(req ? { eventSubjects: [ctx.resId.get(req)!] } : {}),
  };
}

function domEvent(ctx: ActivityContext, { sl, base, frameTrace, nested }: Site, targets: EventTargets): PendingComputation {
  const { target, subjects, after } = targets.targetOf(sl, frameTrace, handlerOf(ctx.slices, sl));
  return {
    ...base,
    kind: 'Event',
    triggeredBy: NO_CAUSE,
    pending: nested ?? (after ? afterRun(ctx, after) : undefined) ?? (target === 'Element' && !subjects.length ? unattributedElementEvent(ctx, sl, frameTrace) : NO_CAUSE),
    eventName: sl.eventType ?? 'event',
    eventTarget: target,
    ...(subjects.length ? { eventSubjects: subjects } : {}),
  };
}

/** A cause at the end of the computation slice `run` (what a dispatch in the same task follows). */
function afterRun(ctx: ActivityContext, run: Slice): PendingCause | undefined {
  const id = ctx.compOfSlice.get(run.index);
  return id === undefined ? undefined : { kind: 'computation', id, at: run.end };
}

/**
 * Element events the browser fires from its own tasks after something the page did: a load or error
 * (a download ended), a scroll (after a scroll), a transition's or animation's event (after a style
 * change), a media element's play (after play()). Dispatched outside any computation, the trace names
 * no cause for them.
 */
const AFTER_THE_PAGE = new Set(['load', 'error', 'scroll', 'transitionend', 'webkitTransitionEnd', 'animationstart', 'animationiteration', 'animationend', 'webkitAnimationStart', 'webkitAnimationIteration', 'webkitAnimationEnd', 'play', 'playing', 'pause']);

/**
 * An element event of `AFTER_THE_PAGE` whose element or cause the trace does not tell (a load with no
 * resource left to claim, a scroll or transitionend the page asked for): it stays in order after what
 * its renderer thread ran last before the dispatch, with a warning, rather than starting the page as a
 * root (session 10: a scroll after a load handler scrolled, a transitionend after a timer changed a style).
 * Other than a load or error (handled in the parent frame of an iframe's document), what ran last in
 * the event's own `frame`, when anything did: frames of one site share a thread, and a scroll one frame
 * asked for is not another's (www.2ch.net: two ad frames' scrolls in one animation frame).
 */
export function unattributedElementEvent(ctx: ActivityContext, sl: Slice, frame?: string): PendingCause {
  if (!AFTER_THE_PAGE.has(sl.eventType ?? '')) return NO_CAUSE;
  const own = frame !== undefined && sl.eventType !== 'load' && sl.eventType !== 'error';
  let prev: Slice | undefined;
  for (const pass of own ? [true, false] : [false]) {
    for (const x of ctx.compSlices) if (x.thread === sl.thread && x.index !== sl.index && x.end <= sl.start + 1e-6 && (!prev || x.end > prev.end) && (!pass || frameOfSlice(ctx, x) === frame)) prev = x;
    if (prev) break;
  }
  const id = prev && ctx.compOfSlice.get(prev.index);
  const what = sl.eventType === 'load' || sl.eventType === 'error' ? 'no element found for' : 'no cause in the trace for';
  ctx.warnings.push(`${what} the ${sl.eventType} event at ${sl.start.toFixed(3)} ms${id ? `: ordered after ${id}, what its thread ran last` : ''}`);
  return id ? { kind: 'computation', id, at: prev!.end } : NO_CAUSE;
}

/** The request a script or style sheet evaluation ran: the latest of its url (and frame) done by then, its url before a redirect too. */
function requestBefore(requests: TraceRequest[], url: string, frame: string | undefined, before: number): TraceRequest | undefined {
  let best: TraceRequest | undefined;
  for (const r of requests) if (requestFor(r, url) && (!frame || r.frame === frame) && (r.finish ?? r.send) <= before + 1 && (!best || r.send > best.send)) best = r;
  return best ?? requests.find((r) => requestFor(r, url));
}

/** The request an XHR event reports on: the latest request of its url sent before the event. */
function xhrRequest(requests: TraceRequest[], url: string, at: number): TraceRequest | undefined {
  let best: TraceRequest | undefined;
  for (const r of requests) if (r.url === url && r.send <= at && (!best || r.send > best.send)) best = r;
  return best;
}

/**
 * Chromium's render-blocking status tells how a parser-inserted script was declared:
 * sync in <head> 'blocking', sync in <body> 'in_body_parser_blocking', async 'potentially_blocking',
 * defer 'non_blocking', inserted by script 'dynamically_injected_non_blocking'.
 */
function scriptKind(req: TraceRequest | undefined, sl: Slice, parentOwner: Owner): ScriptKindM {
  if (sl.name === 'v8.evaluateModule') return 'module';
  if (!req) return 'async';
  if (req.initiator?.type === 'parser' && parentOwner.parse && req.runningAt !== undefined) return 'write';
  switch (req.renderBlocking) {
    case 'blocking':
    case 'in_body_parser_blocking':
      return 'sync';
    case 'non_blocking':
      return req.initiator?.type === 'parser' ? 'defer' : 'async';
    default:
      return 'async';
  }
}
