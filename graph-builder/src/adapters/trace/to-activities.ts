/**
 * TraceLoad (facts from a stock Chromium trace) -> the source-neutral activity model that the rule engine
 * turns into a graph. Where a request's parent comes from:
 *  1. the main thread was running a computation when it was issued -> that computation (Rule 2), even
 *     when Chromium names a parser initiator (e.g. an image created by a script during parsing);
 *  2. a style sheet named as initiator (CSS images, fonts, @import) -> that sheet's CSS evaluation;
 *  3. a parser initiator (document url + line/column) -> the token of that tag (Rule 1);
 *  4. an iframe's document -> the <iframe> tag (from the DevTools log's initiator when present,
 *     else the parse slice in which the frame was created) or the script that created it.
 * Tokens are synthesised per document from what the trace tells about parsing: each ParseHTML slice's
 * start line, each tag that issued a request or ran a script, and the end of parsing.
 */
import type {
  Activities,
  Cause,
  ComputationActivity,
  DocumentActivity,
  FrameActivity,
  ResourceActivity,
  ScriptKindM,
  Token,
} from '../../model/types.ts';
import { NO_CAUSE } from '../../model/types.ts';
import type { Slice, TraceLoad, TraceRequest } from './extract.ts';
import { findTag, tagRefs, type TagRef } from './tags.ts';

/** Parser-initiator positions of requests, from the DevTools log (it names iframe documents' tags). */
export type ExtraInitiators = Map<string, { url: string; line: number; column: number }>;

export interface TraceAdapterOptions {
  extraInitiators?: ExtraInitiators;
  /** HTML source of documents by url (the profiler's documents.json): tags' true positions. */
  documentSources?: Map<string, string>;
  browserVersion?: string;
}

const COMPUTATION_SLICES = new Set(['script', 'timer', 'event', 'xhr', 'style', 'function', 'microtask']);
/** Slices that are part of the computation enclosing them rather than computations of their own. */
const PART_OF_PARENT = new Set(['function', 'microtask']);

const MIME_BY_TYPE: Record<string, string> = {
  Document: 'text/html',
  Stylesheet: 'text/css',
  Script: 'application/javascript',
  Image: 'image/*',
  Font: 'font/*',
  XHR: 'application/octet-stream',
  Fetch: 'application/octet-stream',
};
/** The trace records XHR and fetch() requests as resourceType 'Other'; the initiator's fetchType tells them apart. */
const FETCH_TYPE: Record<string, string> = { xmlhttprequest: 'XHR', fetch: 'Fetch', beacon: 'Ping', eventsource: 'EventSource' };

interface TokenKey {
  doc: string;
  line: number;
  column: number;
  tag: string;
  /** A time the parser must have reached the tag by (a script it ran starts after). */
  bound?: number;
}

export function traceToActivities(load: TraceLoad, options: TraceAdapterOptions = {}, warnings: string[] = []): Activities {
  warnings.push(...load.warnings);
  const slices = load.slices;
  const frameIds = new Map(load.frames.map((f, i) => [f.id, String(i)]));
  const fid = (traceFrame: string | undefined): string => frameIds.get(traceFrame ?? '') ?? '0';

  // Requests Chromium makes for itself after the load (the favicon) are not part of the page.
  const requests = load.requests.filter((r) => !(r.initiator?.type === 'other' && /\/favicon\.ico(\?|$)/.test(r.url)));
  const resId = new Map<TraceRequest, string>(requests.map((r, i) => [r, `download_${i}`]));

  // Each frame's document: its last Document request (an iframe first commits about:blank).
  const docRequest = new Map<string, TraceRequest>();
  for (const r of requests) if (r.resourceType === 'Document' && frameIds.has(r.frame)) docRequest.set(r.frame, r);
  const docId = (traceFrame: string) => `doc_${fid(traceFrame)}`;
  const docOfUrl = (url: string, traceFrame: string): string | undefined => {
    const d = docRequest.get(traceFrame);
    if (d && sameDoc(d.url, url)) return docId(traceFrame);
    for (const [f, r] of docRequest) if (sameDoc(r.url, url)) return docId(f);
    return undefined;
  };

  // Slices that issued something: a request, a timer, an async task.
  const issuedSomething = new Set<number>();
  for (const r of load.requests) if (r.runningAt !== undefined) issuedSomething.add(r.runningAt);
  for (const t of load.timers) if (t.runningAt !== undefined) issuedSomething.add(t.runningAt);
  for (const sl of slices) if (sl.scheduledBy !== undefined) issuedSomething.add(sl.scheduledBy);

  // --- Computations: activity slices that are not part of an enclosing one.
  const compOfSlice = new Map<number, string>();
  const compSlices: Slice[] = [];
  for (const sl of slices) {
    if (!COMPUTATION_SLICES.has(sl.kind) || sl.name === 'UpdateLayoutTree') continue;
    const parent = sl.parent !== undefined ? slices[sl.parent] : undefined;
    if (PART_OF_PARENT.has(sl.kind) && parent && COMPUTATION_SLICES.has(parent.kind)) continue;
    // Events and callbacks only matter when page code ran (a FunctionCall inside). A script's own
    // dispatchEvent runs its listeners without one: such an event counts when its listeners issued work.
    const synthetic = sl.kind === 'event' && parent !== undefined && COMPUTATION_SLICES.has(parent.kind) && issuedSomething.has(sl.index);
    if ((sl.kind === 'event' || sl.kind === 'xhr') && !handlerOf(slices, sl) && !synthetic) continue;
    if (sl.kind === 'microtask' && !handlerOf(slices, sl)) continue;
    compOfSlice.set(sl.index, `comp_${compSlices.length}`);
    compSlices.push(sl);
  }
  /** Innermost computation or parse slice at or above a slice. */
  const ownerOf = (index: number | undefined): { comp?: string; parse?: Slice } => {
    for (let i = index; i !== undefined; i = slices[i]!.parent) {
      const c = compOfSlice.get(i);
      if (c) return { comp: c };
      if (slices[i]!.kind === 'parse') return { parse: slices[i]! };
    }
    return {};
  };

  // Style sheets' evaluations, by url, for requests a sheet initiates.
  const cssEvalOf = new Map<string, string>();
  compSlices.forEach((sl) => {
    if (sl.name === 'ParseAuthorStyleSheet' && sl.url) cssEvalOf.set(sl.url, compOfSlice.get(sl.index)!);
  });

  // --- Causes of requests (phase 1: token keys; indices come once each document's tokens are sorted).
  const tokenKeys: TokenKey[] = [];
  type PendingCause = Cause | TokenKey;
  const isKey = (c: PendingCause): c is TokenKey => !('kind' in c);
  const issued = new Map<TraceRequest, PendingCause>();
  const writtenRequests = new Set<TraceRequest>();
  // A tag's true position in its document when the source is known (see tags.ts), else the reported one.
  const refsOf = new Map<string, TagRef[]>();
  /** The document's src/href tags, parsed once; undefined when its source is unknown. */
  const refsFor = (docUrl: string): TagRef[] | undefined => {
    const source = options.documentSources?.get(docUrl.split('#')[0]!);
    if (source === undefined) return undefined;
    let refs = refsOf.get(docUrl);
    if (!refs) refsOf.set(docUrl, (refs = tagRefs(source, docUrl)));
    return refs;
  };
  const tagPosition = (docUrl: string, url: string, line: number, column: number): { line: number; column: number } => {
    const refs = refsFor(docUrl);
    const tag = refs && findTag(refs, url, line, column);
    return tag ? { line: tag.line, column: tag.column } : { line, column };
  };
  /** Whether the document's source (when known) has a tag for `url`; true when the source is unknown. */
  const inSource = (docUrl: string, url: string): boolean => refsFor(docUrl)?.some((t) => t.url === url.split('#')[0]) ?? true;
  const tokenAt = (doc: string, line: number, column: number, tag: string, bound?: number): TokenKey => {
    const k: TokenKey = { doc, line, column, tag, ...(bound !== undefined ? { bound } : {}) };
    tokenKeys.push(k);
    return k;
  };
  for (const r of requests) {
    const owner = ownerOf(r.runningAt);
    const init = r.initiator;
    const extra = options.extraInitiators?.get(r.requestId);
    // Markup a script wrote (document.write) is parsed inside that script: its tags are the writer's.
    const writer = owner.parse ? ownerOf(owner.parse.parent).comp : undefined;
    const written = writer !== undefined && (init?.type !== 'parser' || !inSource(init.url ?? '', r.url));
    if (owner.comp && !(owner.parse)) {
      issued.set(r, { kind: 'computation', id: owner.comp, at: r.send });
    } else if (written) {
      issued.set(r, { kind: 'computation', id: writer, at: r.send });
      writtenRequests.add(r);
    } else if (init?.fetchType === 'css' && init.url && cssEvalOf.has(init.url)) {
      issued.set(r, { kind: 'computation', id: cssEvalOf.get(init.url)!, at: Infinity });
    } else if (init?.type === 'parser' && init.url && init.line !== undefined && docOfUrl(init.url, r.frame)) {
      const at = tagPosition(init.url, r.url, init.line, init.column ?? 1);
      issued.set(r, tokenAt(docOfUrl(init.url, r.frame)!, at.line, at.column, init.fetchType ?? 'tag'));
    } else if (r.resourceType === 'Document' && extra && docOfUrl(extra.url, parentFrame(load, r.frame) ?? r.frame)) {
      const at = tagPosition(extra.url, r.url, extra.line, extra.column);
      issued.set(r, tokenAt(docOfUrl(extra.url, parentFrame(load, r.frame) ?? r.frame)!, at.line, at.column, 'iframe'));
    } else if (r.resourceType === 'Document' && r.frame !== load.mainFrame) {
      issued.set(r, frameCreator(slices, r, ownerOf, tokenAt, docId) ?? NO_CAUSE);
    } else {
      issued.set(r, NO_CAUSE);
      if (r.resourceType !== 'Document') warnings.push(`no parent found for ${r.url} (initiator ${init?.type ?? 'none'})`);
    }
  }

  // --- Computation activities (phase 1).
  const reqByUrl = (url: string, frame: string | undefined, before: number): TraceRequest | undefined => {
    let best: TraceRequest | undefined;
    for (const r of requests) if (r.url === url && (!frame || r.frame === frame) && (r.finish ?? r.send) <= before + 1 && (!best || r.send > best.send)) best = r;
    return best ?? requests.find((r) => r.url === url);
  };
  // The request an XHR event reports on: the latest request of its url sent before the event.
  const xhrRequest = (url: string, at: number): TraceRequest | undefined => {
    let best: TraceRequest | undefined;
    for (const r of requests) if (r.url === url && r.send <= at && (!best || r.send > best.send)) best = r;
    return best;
  };

  const comps: Array<ComputationActivity & { pending: PendingCause }> = [];
  const isWindowLoad = windowLoadTest(load);
  const claimedByEvents = new Set<TraceRequest>();
  compSlices.forEach((sl) => {
    const id = compOfSlice.get(sl.index)!;
    // An event runs in the frame of its handler (an iframe element's load is handled in the parent
    // frame even though it follows the child frame's own load).
    const frameTrace = sl.frame ?? handlerOf(slices, sl)?.frame ?? frameOfDescendant(slices, sl) ?? load.mainFrame;
    const frame = fid(frameTrace);
    const docUrl = docRequest.get(frameTrace)?.url ?? load.frames.find((f) => f.id === frameTrace)?.url ?? '';
    const parentOwner = ownerOf(sl.parent);
    const nested: PendingCause | undefined = parentOwner.comp ? { kind: 'computation', id: parentOwner.comp, at: sl.start } : undefined;
    const base = { id, frame, docUrl, start: sl.start, end: Math.max(sl.end, sl.start) };
    if (sl.kind === 'function' || sl.kind === 'microtask') {
      // A callback the trace shows no dispatch for (postMessage, MessagePort messages, promise
      // reactions): an event, kept by the rules only when it leads to a download. Its cause is what
      // scheduled it when a flow says so (the script that called postMessage).
      const scheduler = sl.scheduledBy !== undefined ? ownerOf(sl.scheduledBy).comp : undefined;
      const pending: PendingCause = nested ?? (scheduler ? { kind: 'computation', id: scheduler, at: sl.scheduledAt ?? sl.start } : NO_CAUSE);
      comps.push({ ...base, kind: 'Event', triggeredBy: NO_CAUSE, pending, ...callbackEvent(sl) });
    } else if (sl.kind === 'script') {
      const url = sl.url ?? docUrl;
      const req = !sameDoc(url, docUrl) ? reqByUrl(url, frameTrace, sl.start) : undefined;
      const inline = sameDoc(url, docUrl);
      const kind: ScriptKindM = inline ? 'inline' : req && writtenRequests.has(req) ? 'write' : scriptKind(req, sl, parentOwner);
      let pending: PendingCause;
      // An inline script runs inside the parse slice that reached it, or (held back by a pending style
      // sheet) in a task of its own: either way its cause is its tag's position.
      if (inline && !nested && sl.line !== undefined) {
        const doc = docOfUrl(docUrl, frameTrace);
        pending = doc ? tokenAt(doc, sl.line, Math.max(1, (sl.column ?? 1) - 8), 'script', sl.start) : NO_CAUSE;
      } else if (nested) pending = nested;
      else if (req) {
        const c = issued.get(req) ?? NO_CAUSE;
        // A parser-inserted script runs after the parser reached its tag: bound that token's time.
        if (isKey(c) && (kind === 'sync' || kind === 'write')) c.bound = Math.min(c.bound ?? Infinity, sl.start);
        // An async script waits for its download alone (Rule 10), not for the chunk that declared it.
        pending = isKey(c) && kind === 'async' ? NO_CAUSE : c;
      } else pending = NO_CAUSE;
      comps.push({
        ...base,
        kind: 'ScriptEval',
        triggeredBy: NO_CAUSE,
        pending,
        scriptUrl: url,
        scriptKind: kind,
        ...(req ? { source: resId.get(req)! } : {}),
        blocksParser: inline ? !nested : kind === 'sync' || kind === 'write',
      });
    } else if (sl.name === 'ParseAuthorStyleSheet') {
      const req = sl.url ? reqByUrl(sl.url, frameTrace, sl.start) : undefined;
      comps.push({
        ...base,
        kind: 'CssEval',
        triggeredBy: NO_CAUSE,
        // A style sheet's evaluation waits for its download (Rule 18); its <link> chunk is already behind that.
        pending: nested ?? NO_CAUSE,
        styleUrl: sl.url ?? docUrl,
        ...(req ? { source: resId.get(req)! } : {}),
      });
    } else if (sl.kind === 'timer') {
      const install = [...load.timers].reverse().find((t) => t.timerId === sl.timerId && t.time <= sl.start && (!t.frame || !sl.frame || t.frame === sl.frame));
      const owner = install ? ownerOf(install.runningAt) : {};
      comps.push({
        ...base,
        kind: 'Timer',
        triggeredBy: NO_CAUSE,
        pending: owner.comp ? { kind: 'computation', id: owner.comp, at: install!.time } : NO_CAUSE,
        timerId: sl.timerId ?? '',
        timerDelay: install?.timeout ?? 0,
      });
    } else if (sl.kind === 'xhr') {
      const req = sl.url ? xhrRequest(sl.url, sl.start) : undefined;
      comps.push({
        ...base,
        kind: 'Event',
        triggeredBy: NO_CAUSE,
        // The XHR's own download orders it after its sender (Appendix A); only a synchronous dispatch
        // (readyState 1 inside send()) has a computation parent.
        pending: nested ?? NO_CAUSE,
        eventName: sl.name === 'XHRLoad' ? 'load' : 'readystatechange',
        eventTarget: 'XMLHTTPRequest',
        ...(req ? { eventSubjects: [resId.get(req)!] } : {}),
      });
    } else {
      const { target, subjects } = eventTarget(isWindowLoad, requests, resId, sl, frameTrace, handlerOf(slices, sl), claimedByEvents, options.extraInitiators);
      comps.push({
        ...base,
        kind: 'Event',
        triggeredBy: NO_CAUSE,
        pending: nested ?? NO_CAUSE,
        eventName: sl.eventType ?? 'event',
        eventTarget: target,
        ...(subjects.length ? { eventSubjects: subjects } : {}),
      });
    }
  });

  // --- Documents and their tokens (phase 2), then resolve token causes to indices.
  const documents: DocumentActivity[] = [];
  const tokenIndex = new Map<TokenKey, { doc: string; token: number }>();
  for (const [traceFrame, req] of docRequest) {
    const id = docId(traceFrame);
    const parses = slices.filter((sl) => sl.kind === 'parse' && sl.frame === traceFrame && sl.url !== undefined && sameDoc(sl.url, req.url));
    const keys = tokenKeys.filter((k) => k.doc === id);
    if (parses.length === 0 && keys.length === 0) continue;
    const tokens = buildTokens(parses, keys, req, tokenIndex, id);
    documents.push({ id, frame: fid(traceFrame), url: req.url, resource: resId.get(req)!, tokens });
  }
  const resolve = (c: PendingCause): Cause => {
    if (!isKey(c)) return c;
    const t = tokenIndex.get(c);
    return t ? { kind: 'token', doc: t.doc, token: t.token } : NO_CAUSE;
  };

  const resources: ResourceActivity[] = requests.map((r) => {
    const bodyBytes = r.chunks.reduce((a, c) => a + c.bytes, 0);
    const end = r.finish ?? r.chunks[r.chunks.length - 1]?.time ?? r.response ?? r.send;
    const res: ResourceActivity = {
      id: resId.get(r)!,
      url: r.url,
      frame: fid(r.frame),
      start: r.send,
      end: Math.max(end, r.send),
      mimeType: r.mimeType || MIME_BY_TYPE[r.resourceType] || 'application/octet-stream',
      size: bodyBytes > 0 ? bodyBytes : r.decodedLength,
      method: r.method,
      status: r.failed ? 0 : r.status,
      cached: r.fromCache,
      issuedBy: resolve(issued.get(r) ?? NO_CAUSE),
      arrivals: r.chunks,
    };
    if (r.response !== undefined) res.responseStart = r.response;
    res.requestType = FETCH_TYPE[r.initiator?.fetchType ?? ''] ?? r.resourceType;
    if (r.priority) res.browserPriority = r.priority;
    if (r.fromCache) {
      const original = requests.find((o) => o !== r && o.url === r.url && !o.fromCache && o.send < r.send);
      if (original) res.originalResource = resId.get(original)!;
    }
    return res;
  });
  const computations: ComputationActivity[] = comps.map(({ pending, ...c }) => {
    const cause = resolve(pending);
    // A cause inside the computation's own span is "at" a time the rules use to split the causer.
    if (cause.kind === 'computation' && !Number.isFinite(cause.at)) return { ...c, triggeredBy: { kind: 'computation', id: cause.id, at: c.start } };
    return { ...c, triggeredBy: cause };
  });
  for (const r of resources) {
    if (r.issuedBy.kind === 'computation' && !Number.isFinite(r.issuedBy.at)) {
      const css = computations.find((c) => c.id === (r.issuedBy as { id: string }).id);
      r.issuedBy = { kind: 'computation', id: r.issuedBy.id, at: css ? css.end : r.start };
    }
  }

  const frames: FrameActivity[] = load.frames.map((f) => {
    const fa: FrameActivity = { id: fid(f.id), url: docRequest.get(f.id)?.url ?? f.url, parent: f.parent === null ? null : fid(f.parent) };
    const d = docRequest.get(f.id);
    if (d) fa.document = resId.get(d)!;
    const mark = load.marks.find((m) => m.frame === f.id && m.name === 'load');
    if (mark) fa.loadTime = mark.time;
    return fa;
  });
  const mainMarks = load.marks.filter((m) => m.frame === load.mainFrame);
  const acts: Activities = {
    page: docRequest.get(load.mainFrame)?.url ?? load.frames[0]?.url ?? '',
    frames,
    resources,
    documents,
    computations,
  };
  const dcl = mainMarks.find((m) => m.name === 'domContentLoaded');
  const ld = mainMarks.find((m) => m.name === 'load');
  if (dcl) acts.domContentLoaded = dcl.time;
  if (ld) acts.load = ld.time;
  if (options.browserVersion) acts.browserVersion = options.browserVersion;
  return acts;
}

/** The same document, ignoring the fragment. */
function sameDoc(a: string, b: string): boolean {
  return a.split('#')[0] === b.split('#')[0];
}

function parentFrame(load: TraceLoad, frame: string): string | undefined {
  return load.frames.find((f) => f.id === frame)?.parent ?? undefined;
}

/** The first slice on the same thread that starts inside `sl` (slices are sorted by start) and passes `pred`. */
function firstInside(slices: Slice[], sl: Slice, pred: (s: Slice) => boolean): Slice | undefined {
  for (let i = sl.index + 1; i < slices.length && slices[i]!.start <= sl.end; i++) {
    const s = slices[i]!;
    if (s.thread === sl.thread && pred(s)) return s;
  }
  return undefined;
}

/** The first page-code call inside a slice (an event's handler): page code ran. */
function handlerOf(slices: Slice[], sl: Slice): Slice | undefined {
  return firstInside(slices, sl, (s) => s.kind === 'function' && s.end <= sl.end + 1e-6);
}

function frameOfDescendant(slices: Slice[], sl: Slice): string | undefined {
  return firstInside(slices, sl, (s) => s.frame !== undefined && s.frame !== '')?.frame;
}

/**
 * Chromium's render-blocking status tells how a parser-inserted script was declared:
 * sync in <head> 'blocking', sync in <body> 'in_body_parser_blocking', async 'potentially_blocking',
 * defer 'non_blocking', inserted by script 'dynamically_injected_non_blocking'.
 */
function scriptKind(req: TraceRequest | undefined, sl: Slice, parentOwner: { comp?: string; parse?: Slice }): ScriptKindM {
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

/**
 * A test of whether a 'load' dispatch is the window's (which evidence it uses is settled once per
 * trace). Chromium ends a frame's load in one task: window load,
 * then (for an iframe) its owner element's load in the parent, then pageshow. So the window's load is
 * followed by pageshow, or by the owner's load and then pageshow. Traces without pageshow fall back on
 * the frame's load mark, which Chromium sets around the window load dispatch (an element's load that
 * happens to run then is mistaken for it).
 */
function windowLoadTest(load: TraceLoad): (sl: Slice, frame: string) => boolean {
  const slices = load.slices;
  if (slices.some((x) => x.eventType === 'pageshow')) {
    return (sl) => {
      const next = siblingEvent(slices, sl, 1);
      if (next?.eventType === 'pageshow') return siblingEvent(slices, sl, -1)?.eventType !== 'load';
      return next?.eventType === 'load' && siblingEvent(slices, next, 1)?.eventType === 'pageshow';
    };
  }
  return (sl, frame) => {
    const mark = load.marks.find((m) => m.frame === frame && m.name === 'load');
    return mark !== undefined && mark.time >= sl.start - 2 && mark.time <= sl.end + 2;
  };
}

/** The event dispatch right before (dir -1) or after (dir 1) `sl` at the same level, within 1 ms. */
function siblingEvent(slices: Slice[], sl: Slice, dir: 1 | -1): Slice | undefined {
  for (let i = sl.index + dir; i >= 0 && i < slices.length; i += dir) {
    const x = slices[i]!;
    if (dir === 1 && x.start > sl.end + 1) return undefined;
    if (dir === -1 && x.start < sl.start - 50) return undefined;
    if (x.thread !== sl.thread || x.parent !== sl.parent || x.kind !== 'event') continue;
    if (dir === 1) return x.start >= sl.end - 1e-6 ? x : undefined;
    return x.end <= sl.start + 1e-6 && x.end >= sl.start - 1 ? x : undefined;
  }
  return undefined;
}

/** The tag of the element whose resource it is, for element events (Appendix A Table A.2). */
const TAG_OF_TYPE: Record<string, string> = { Stylesheet: 'link', Script: 'script', Image: 'img', Document: 'iframe', Media: 'video', Font: 'link' };

/**
 * What a dispatch-less callback was. A window.postMessage delivery is a V8 async task named
 * 'postMessage'. A MessagePort message runs in a task that the receiving port's mojo watcher posted
 * (SimpleWatcher::Notify) from inside the sender's script: the sender wrote to the port's local pipe.
 * Anything else stays a window callback.
 */
function callbackEvent(sl: Slice): { eventName: string; eventTarget: string } {
  if (sl.asyncTask === 'postMessage') return { eventName: 'message', eventTarget: 'Window' };
  if (sl.postedFrom?.startsWith(MOJO_WATCHER)) return { eventName: 'message', eventTarget: 'MessagePort' };
  return { eventName: 'callback', eventTarget: 'Window' };
}
const MOJO_WATCHER = 'mojo/public/cpp/system/simple_watcher.cc';

/**
 * An event's DOM target, which trace events do not name: completion events of the frame's document and
 * window by name and timing, a message to the window, else the element whose resource loaded (or
 * failed): the element on the line of an inline handler (onload="…" reports the document and the
 * element's line), else the resource that finished last before the dispatch and no earlier element
 * event claimed.
 */
function eventTarget(
  isWindowLoad: (sl: Slice, frame: string) => boolean,
  requests: TraceRequest[],
  resId: Map<TraceRequest, string>,
  sl: Slice,
  frame: string,
  handler: Slice | undefined,
  claimed: Set<TraceRequest>,
  extra: ExtraInitiators | undefined,
): { target: string; subjects: string[] } {
  const type = sl.eventType ?? '';
  if (sl.windowTarget) return { target: 'Window', subjects: [] };
  if (type === 'DOMContentLoaded' || type === 'readystatechange' || type === 'visibilitychange') return { target: 'Document', subjects: [] };
  if (type === 'message') return { target: 'Window', subjects: [] };
  if (type === 'load' && isWindowLoad(sl, frame)) return { target: 'Window', subjects: [] };
  if (type !== 'load' && type !== 'error') return { target: 'Element', subjects: [] };
  const candidates = requests.filter((r) => (r.finish ?? r.send) <= sl.start + 1e-6 && r.resourceType !== 'XHR' && r.resourceType !== 'Fetch' && !claimed.has(r));
  // Where the element's tag is: the parser initiator, or for an iframe's document the DevTools log's.
  const tagAt = (r: TraceRequest) => (r.initiator?.type === 'parser' ? r.initiator : extra?.get(r.requestId));
  const byLine = handler?.url && handler.line !== undefined
    ? candidates.filter((r) => {
        const at = tagAt(r);
        return at?.url !== undefined && sameDoc(at.url, handler.url!) && at.line === handler.line;
      })
    : [];
  const pool = byLine.length ? byLine : candidates;
  let best: TraceRequest | undefined;
  for (const r of pool) if (!best || (r.finish ?? r.send) > (best.finish ?? best.send)) best = r;
  if (!best) return { target: 'Element', subjects: [] };
  claimed.add(best);
  return { target: TAG_OF_TYPE[best.resourceType] ?? 'Element', subjects: [resId.get(best)!] };
}

/**
 * The cause of an iframe's document request without a logged initiator: the slice in which Chromium
 * created the frame (its first, about:blank ParseHTML nests inside it).
 */
function frameCreator(
  slices: Slice[],
  r: TraceRequest,
  ownerOf: (i: number | undefined) => { comp?: string; parse?: Slice },
  tokenAt: (doc: string, line: number, column: number, tag: string, bound?: number) => TokenKey,
  docId: (frame: string) => string,
): Cause | TokenKey | undefined {
  const blank = slices.find((sl) => sl.kind === 'parse' && sl.frame === r.frame && sl.url === 'about:blank');
  if (!blank || blank.parent === undefined) return undefined;
  const owner = ownerOf(blank.parent);
  if (owner.comp) return { kind: 'computation', id: owner.comp, at: blank.start };
  const parse = owner.parse;
  if (parse?.frame && parse.line !== undefined) return tokenAt(docId(parse.frame), parse.line, 1, 'iframe', blank.start);
  return undefined;
}

/**
 * A document's tokens in source order: the start of each parse slice, every tag the builder needs, and
 * the end of parsing. Times: when the parser reached the line (interpolated inside the slice that
 * covers it, never after a bound such as the start of the script the tag ran); byte offsets likewise
 * from each slice's parsed byte count.
 */
function buildTokens(parses: Slice[], keys: TokenKey[], req: TraceRequest, index: Map<TokenKey, { doc: string; token: number }>, doc: string): Token[] {
  const ps = [...parses].sort((a, b) => a.start - b.start);
  const offsets: number[] = [];
  let acc = 0;
  for (const p of ps) {
    offsets.push(acc);
    acc += p.parsedBytes ?? 0;
  }
  const totalBytes = Math.max(acc, req.decodedLength);
  const lastLine = Math.max(1, ...ps.map((p) => p.line ?? 1), ...keys.map((k) => k.line));
  const place = (line: number, bound?: number): { start: number; offset: number } => {
    if (ps.length === 0) return { start: bound ?? req.finish ?? req.send, offset: 0 };
    let k = -1;
    for (let i = 0; i < ps.length; i++) if ((ps[i]!.line ?? 1) <= line) k = i;
    if (k < 0) k = 0;
    while (bound !== undefined && k > 0 && ps[k]!.start > bound) k--;
    const p = ps[k]!;
    const nextLine = ps.slice(k + 1).find((q) => (q.line ?? 1) > (p.line ?? 1))?.line ?? lastLine + 1;
    const frac = Math.min(1, Math.max(0, (line - (p.line ?? 1)) / Math.max(1, nextLine - (p.line ?? 1))));
    let start = p.start + (p.end - p.start) * frac;
    if (bound !== undefined) start = Math.min(start, bound);
    return { start, offset: Math.round(offsets[k]! + (p.parsedBytes ?? 0) * frac) };
  };
  type Entry = { line: number; column: number; tag: string; start: number; offset: number; keys: TokenKey[] };
  const entries = new Map<string, Entry>();
  const add = (line: number, column: number, tag: string, bound?: number, key?: TokenKey) => {
    const id = `${line}:${column}`;
    let e = entries.get(id);
    if (!e) {
      const at = place(line, bound);
      e = { line, column, tag, start: at.start, offset: at.offset, keys: [] };
      entries.set(id, e);
    } else if (bound !== undefined && bound < e.start) e.start = bound;
    if (key) e.keys.push(key);
  };
  for (const p of ps) add(p.line ?? 1, 0, '#parse');
  for (const k of keys) add(k.line, k.column, k.tag, k.bound, k);
  const sorted = [...entries.values()].sort((a, b) => a.line - b.line || a.column - b.column);
  const parseEnd = ps.length ? Math.max(...ps.map((p) => p.end)) : req.finish ?? req.send;
  const tokens: Token[] = sorted.map((e) => ({ line: e.line, column: e.column, tag: e.tag, isStartTag: true, start: e.start, end: e.start, offset: Math.min(e.offset, totalBytes) }));
  // Times never go backwards in source order (the parser is sequential).
  for (let i = 1; i < tokens.length; i++) if (tokens[i]!.start < tokens[i - 1]!.start) tokens[i]!.start = tokens[i]!.end = tokens[i - 1]!.start;
  tokens.push({ line: lastLine, column: Number.MAX_SAFE_INTEGER, tag: '#end', isStartTag: false, start: parseEnd, end: parseEnd, offset: totalBytes });
  sorted.forEach((e, i) => {
    for (const k of e.keys) index.set(k, { doc, token: i });
  });
  return tokens;
}
