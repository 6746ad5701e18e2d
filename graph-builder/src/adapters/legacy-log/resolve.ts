/**
 * Turns the handlers' records into the source-neutral activity model: assigns ids, converts times to ms
 * since the main document's request, and resolves the log's object pointers into explicit causal links
 * ("issued by", "registered by", "element of", "document of frame").
 */
import type {
  Activities,
  Cause,
  ComputationActivity,
  DocumentActivity,
  FrameActivity,
  ResourceActivity,
} from '../../model/types.ts';
import { NO_CAUSE } from '../../model/types.ts';
import type { ComputationData } from './handlers/computations.ts';
import type { FrameData } from './handlers/frames.ts';
import type { Lined } from './handlers/handler.ts';
import type { MetaData } from './handlers/meta.ts';
import type { ResourceData } from './handlers/resources.ts';
import type { TokenData } from './handlers/tokens.ts';
import { PointerIndex } from './pointers.ts';
import type { RawCached, RawComputation, RawElement, RawObjectHash, RawPreload, RawResource } from './records.ts';
import { isNil } from './records.ts';
import { LegacyLogError } from './reader.ts';
import { lastAtOrBefore } from '../../sorted.ts';
import { isScriptFocus } from '../../rules/select.ts';

export interface HandlerData {
  meta: MetaData;
  frames: FrameData;
  resources: ResourceData;
  tokens: TokenData;
  computations: ComputationData;
}

/** Who a network fetch without requester really belongs to, and when it asked: a cache hit's requester, or the token a preload names. */
type Adopter = Pick<RawCached, 'from' | 'accessTime'>;

type Target =
  | { type: 'token'; rec: Lined<RawObjectHash> }
  | { type: 'element'; rec: Lined<RawElement> }
  | { type: 'computation'; index: number };

/** Event names whose listeners run as a direct consequence of a resource of the target element. */
const ELEMENT_RESOURCE_EVENTS = new Set(['load', 'error', 'readystatechange', 'abort']);

export function resolveActivities(h: HandlerData, warnings: string[]): Activities {
  const { resources: rawRes, cached: rawCached, chunks } = h.resources;
  if (rawRes.length === 0) throw new LegacyLogError('no Resource record: the log has no main document to build a graph from');

  // Main frame and document: the Frame without a parent frame; its `id` names its document's Resource.
  const mainFrameRec = h.frames.frames.find((f) => isNil(f.parent) || f.parent === '0');
  const mainRaw = rawRes.find((r) => mainFrameRec !== undefined && r.id === mainFrameRec.id) ?? rawRes[0]!;
  const t0 = mainRaw.sentTime;
  const ms = (t: number): number => (t - t0) * 1000;
  const mainFrame = mainFrameRec?.code ?? mainRaw.frame;

  const odd = new OddValues();

  // ---- resources: network fetches first (by send time), then memory-cache hits (by access time)
  const resources: ResourceActivity[] = [];
  const byRawId = new Map<number, ResourceActivity>();
  const rawOf = new Map<ResourceActivity, Lined<RawResource> | Lined<RawCached>>();
  for (const r of rawRes) {
    if (byRawId.has(r.id)) {
      warnings.push(`line ${r.line}: Resource ${r.id} reported twice; the first is kept`);
      continue;
    }
    const arrivals = (chunks.get(r.id) ?? []).map((c) => ({ time: ms(c.receivedTime), bytes: c.len }));
    const end = Math.max(ms(r.recieveTime), ms(r.sentTime));
    const ra: ResourceActivity = {
      id: `download_${resources.length}`,
      url: r.url,
      frame: r.frame,
      start: ms(r.sentTime),
      end,
      mimeType: r.mimeType,
      size: Math.max(0, r.len),
      method: r.httpMethod,
      status: Number.isInteger(r.httpStatus) ? r.httpStatus : 0,
      // The record's own `cached` flag (an HTTP-cache or revalidated fetch, still a network request with
      // its own timing) is not a memory-cache reuse: only `Cached` records are (the reference agrees).
      cached: false,
      issuedBy: NO_CAUSE,
      arrivals,
    };
    if (arrivals.length) ra.responseStart = arrivals[0]!.time;
    ra.sourceLine = r.line;
    resources.push(ra);
    byRawId.set(r.id, ra);
    rawOf.set(ra, r);
  }
  const networkByUrl = new Map<string, ResourceActivity[]>();
  for (const r of resources) (networkByUrl.get(r.url) ?? networkByUrl.set(r.url, []).get(r.url)!).push(r);
  // Memory-cache hits that repeat a network fetch are the same download seen twice: a hit without a
  // requester, or from the requester of a network fetch of the url, is dropped; a hit on a url that the
  // preload scanner fetched (network record without requester) names that fetch's real requester.
  const adopted = new Map<Lined<RawResource>, Adopter>();
  const rawNetByUrl = new Map<string, Lined<RawResource>[]>();
  for (const r of rawRes) (rawNetByUrl.get(r.url) ?? rawNetByUrl.set(r.url, []).get(r.url)!).push(r);
  const hitSeen = new Set<string>();
  const runs = new PointerIndex<number>();
  h.computations.computations.forEach((c, i) => runs.add(c.code, c.startTime, i));
  const keptCached = rawCached.filter((c) => {
    if (isNil(c.from)) return false;
    // A run of a script, timer or handler asking twice for one url is one dependency; another run of
    // the same code (a repeating timer, the handler of a later event: the address is the same) asks
    // anew, and so does an element asking again (re-rendered, re-inserted).
    const run = runs.lookup(c.from, c.accessTime);
    const key = `${c.url}\u0000${c.from}\u0000${run ?? ''}`;
    if (hitSeen.has(key) && run !== undefined) return false;
    hitSeen.add(key);
    const net = rawNetByUrl.get(c.url) ?? [];
    const same = net.find((r) => r.from === c.from);
    if (same) return false;
    const preloaded = net.find((r) => isNil(r.from) && r !== mainRaw && !adopted.has(r));
    if (preloaded) {
      adopted.set(preloaded, c);
      return false;
    }
    return true;
  });
  // A redirect's target is fetched without a requester; the element's memory-cache hits on the url it
  // asked for carry the target's id (www.2ch.net: Resource 21338 x.bidswitch.net/sync, line 169, `from`
  // (nil); Cached line 1025, apac-jp-sync.bidswitch.net/sync with id 21338 from the <img> token of line
  // 756). The first such hit names the fetch's requester; the hits stay resources of their own.
  for (const r of rawRes) {
    if (!isNil(r.from) || r === mainRaw || adopted.has(r)) continue;
    const hit = rawCached.filter((c) => c.id === r.id && c.url !== r.url && !isNil(c.from)).reduce<Lined<RawCached> | undefined>((a, c) => (a === undefined || c.accessTime < a.accessTime ? c : a), undefined);
    if (hit) adopted.set(r, hit);
  }
  // A fetch the preload scanner made for a token it names (`Preload` with the token's address, just
  // before the request) is that token's, though the network record has no requester (www.ndtv.com:
  // Preload line 7938 for the safeframe's <img> 0x7fe58e411070 at 16558.209040 s, Resource 4347 `from
  // (nil)` at 16558.209083 s, line 942; the token itself is parsed at 16558.578580 s, line 5058).
  const parsedAfter = (code: string, t: number): boolean => h.tokens.tokens.some((x) => x.code === code && x.startTime >= t);
  for (const r of rawRes) {
    if (!isNil(r.from) || r === mainRaw || adopted.has(r)) continue;
    const scan = h.tokens.preloads
      .filter((p) => p.url === r.url && !isNil(p.code) && p.time <= r.sentTime && parsedAfter(p.code, p.time))
      .reduce<Lined<RawPreload> | undefined>((a, p) => (a === undefined || p.time >= a.time ? p : a), undefined);
    if (scan) adopted.set(r, { from: scan.code, accessTime: r.sentTime });
  }
  for (const c of keptCached) {
    const t = ms(c.accessTime);
    const originals = networkByUrl.get(c.url) ?? [];
    const original = latestBefore(originals, t) ?? originals[0];
    const ra: ResourceActivity = {
      id: `download_${resources.length}`,
      url: c.url,
      frame: typeof c.frame === 'string' && c.frame !== '' ? c.frame : (original?.frame ?? mainFrame),
      start: t,
      end: t,
      mimeType: (typeof c.mimeType === 'string' && c.mimeType) || original?.mimeType || '',
      size: typeof c.len === 'number' && c.len > 0 ? c.len : (original?.size ?? 0),
      method: typeof c.httpMethod === 'string' && c.httpMethod ? c.httpMethod : (original?.method ?? 'GET'),
      status: original?.status ?? 200,
      cached: true,
      issuedBy: NO_CAUSE,
      arrivals: [],
    };
    if (original) ra.originalResource = original.id;
    ra.sourceLine = c.line;
    resources.push(ra);
    rawOf.set(ra, c);
  }
  const byUrl = new Map<string, ResourceActivity[]>();
  for (const r of resources) (byUrl.get(r.url) ?? byUrl.set(r.url, []).get(r.url)!).push(r);
  const byFromPointer = new Map<string, ResourceActivity[]>();
  const effectiveFrom = new Map<ResourceActivity, string>();
  const byAnyRawId = new Map<number, ResourceActivity[]>();
  for (const [ra, raw] of rawOf) (byAnyRawId.get(raw.id) ?? byAnyRawId.set(raw.id, []).get(raw.id)!).push(ra);
  for (const [ra, raw] of rawOf) {
    const from = ('sentTime' in raw ? adopted.get(raw)?.from : undefined) ?? raw.from;
    effectiveFrom.set(ra, from);
    if (!isNil(from)) (byFromPointer.get(from) ?? byFromPointer.set(from, []).get(from)!).push(ra);
  }

  // ---- frames: code = frame id; `id` = raw id of the Resource holding its document
  const frames: FrameActivity[] = [];
  const frameIds = new Set<string>();
  for (const f of h.frames.frames) {
    const doc = byRawId.get(f.id);
    const parent = isNil(f.parent) || f.parent === '0' ? null : f.parent;
    const change = h.frames.changes.find((c) => c.code === f.code);
    const fa: FrameActivity = { id: f.code, url: doc?.url ?? change?.url ?? '', parent, loadTime: ms(f.loadTime) };
    if (doc) fa.document = doc.id;
    frames.push(fa);
    frameIds.add(f.code);
  }
  if (!frameIds.has(mainFrame)) {
    frames.unshift({ id: mainFrame, url: mainRaw.url, parent: null, document: byRawId.get(mainRaw.id)!.id });
    frameIds.add(mainFrame);
  }
  const orphanFrames = new Set<string>();
  const ensureFrame = (id: string): void => {
    if (frameIds.has(id)) return;
    frameIds.add(id);
    orphanFrames.add(id);
    frames.push({ id, url: '', parent: mainFrame });
  };
  for (const r of resources) ensureFrame(r.frame);
  for (const f of frames) if (f.parent !== null && !frameIds.has(f.parent)) f.parent = mainFrame;
  if (orphanFrames.size) warnings.push(`${orphanFrames.size} frame(s) used without a Frame record (${[...orphanFrames].slice(0, 3).join(', ')}): attached to the main frame`);

  // ---- documents: the network parser's tokens (comp = nil), grouped per frame and document url
  const documents: DocumentActivity[] = [];
  const docById = new Map<string, DocumentActivity>();
  const docByKey = new Map<string, DocumentActivity>();
  const tokenPlace = new Map<Lined<RawObjectHash>, { doc: DocumentActivity; index: number }>();
  /** Per document: the parser's own work so far, the sum of its tokens' spans (waits for bytes and scripts excluded). */
  const parserWork = new Map<DocumentActivity, number>();
  for (const t of h.tokens.tokens) {
    if (!isNil(t.comp)) continue;
    ensureFrame(t.frame);
    const key = `${t.frame}\u0000${t.doc}`;
    let doc = docByKey.get(key);
    if (!doc) {
      doc = { id: `doc_${documents.length}`, frame: t.frame, url: t.doc, tokens: [], offsetsIncludeWrites: true };
      const carrier = (networkByUrl.get(t.doc) ?? []).find((r) => r.frame === t.frame) ?? networkByUrl.get(t.doc)?.[0];
      if (carrier) doc.resource = carrier.id;
      documents.push(doc);
      docByKey.set(key, doc);
    }
    tokenPlace.set(t, { doc, index: doc.tokens.length });
    docById.set(doc.id, doc);
    if (!(Number.isInteger(t.row) && t.row >= 0 && Number.isInteger(t.column) && t.pos >= 0)) odd.note('token position', t.line, `row ${t.row}, column ${t.column}, pos ${t.pos}`);
    doc.tokens.push({
      // v1 lines are 1-based integers (rows are 0-based); negative columns are kept (parse.ts clamps them
      // and keeps the source value), fractional ones are cut.
      line: Math.max(1, Math.floor(t.row) + 1),
      column: Math.floor(t.column),
      tag: t.tagName,
      isStartTag: t.isStartTag !== 0,
      start: ms(t.startTime),
      end: ms(t.endTime),
      offset: Math.max(0, t.pos),
      work: parserWork.get(doc) ?? 0,
    });
    parserWork.set(doc, (parserWork.get(doc) ?? 0) + Math.max(0, ms(t.endTime) - ms(t.startTime)));
  }
  // A frame navigated after creation (about:blank first, then its real page, or a FrameChange) is
  // named after the last document its parser read that was downloaded.
  for (const f of frames) {
    const parsed = documents.filter((d) => d.frame === f.id && d.resource);
    const last = parsed[parsed.length - 1];
    if (last && (!f.document || f.url === 'about:blank' || f.url === '')) {
      f.document = last.resource;
      f.url = last.url;
    }
  }

  // ---- computations
  const raws = h.computations.computations;
  const comps: ComputationActivity[] = raws.map((c, i) => ({
    id: `comp_${i}`,
    kind: c.type === 'execScript' ? 'ScriptEval' : c.type === 'recalcStyle' ? 'CssEval' : c.type === 'timer' ? 'Timer' : 'Event',
    frame: c.frame,
    docUrl: c.docUrl,
    start: ms(c.startTime),
    end: Math.max(ms(c.endTime), ms(c.startTime)),
    triggeredBy: NO_CAUSE,
    sourceLine: c.line,
  }));
  for (const c of comps) ensureFrame(c.frame);

  const compIndex = new PointerIndex<number>();
  raws.forEach((c, i) => compIndex.add(c.code, c.startTime, i));
  const any = new PointerIndex<Target>();
  for (const t of h.tokens.tokens) any.add(t.code, t.startTime, { type: 'token', rec: t });
  for (const e of h.tokens.elements) any.add(e.code, e.startTime, { type: 'element', rec: e });
  raws.forEach((c, i) => any.add(c.code, c.startTime, { type: 'computation', index: i }));
  // The preload scanner fetches for a token before the parser reaches it: its Preload record carries
  // the token's address at scan time, so a reference then resolves to the token parsed later.
  const tokenIndex = new PointerIndex<Lined<RawObjectHash>>();
  for (const t of h.tokens.tokens) tokenIndex.add(t.code, t.startTime, t);
  const preloadTokens = new Map<string, { time: number; rec: Lined<RawObjectHash> }[]>();
  const tokensByCode = new Map<string, Lined<RawObjectHash>[]>();
  for (const t of h.tokens.tokens) (tokensByCode.get(t.code) ?? tokensByCode.set(t.code, []).get(t.code)!).push(t);
  for (const p of h.tokens.preloads) {
    const later = tokensByCode.get(p.code)?.find((t) => t.startTime >= p.time);
    if (later) (preloadTokens.get(p.code) ?? preloadTokens.set(p.code, []).get(p.code)!).push({ time: p.time, rec: later });
  }

  const compCause = (index: number, at: number): Cause => {
    const c = comps[index]!;
    return { kind: 'computation', id: c.id, at: Math.min(Math.max(at, c.start), c.end) };
  };
  const tokenBefore = (frame: string, docUrl: string, t: number): Cause => {
    const doc = docByKey.get(`${frame}\u0000${docUrl}`);
    if (!doc) return NO_CAUSE;
    const i = lastAtOrBefore(doc.tokens, t);
    return i < 0 ? NO_CAUSE : { kind: 'token', doc: doc.id, token: i };
  };
  const causeOf = (target: Target | undefined, at: number): Cause => {
    if (!target) return NO_CAUSE;
    if (target.type === 'computation') return compCause(target.index, ms(at));
    const rec = target.rec;
    if (!isNil(rec.comp)) {
      const ci = compIndex.lookup(rec.comp, rec.startTime);
      if (ci !== undefined) return compCause(ci, ms(target.type === 'token' ? rec.endTime : rec.startTime));
    }
    if (target.type === 'token') {
      const place = tokenPlace.get(target.rec);
      if (place) return { kind: 'token', doc: place.doc.id, token: place.index };
    }
    return tokenBefore(rec.frame, rec.doc, ms(rec.startTime));
  };
  const resolveFrom = (pointer: string | undefined, at: number): Cause => {
    if (pointer === undefined || isNil(pointer)) return NO_CAUSE;
    const pre = preloadTokens.get(pointer);
    const direct = any.lookup(pointer, at);
    if (pre && (!direct || (direct.type === 'token' ? direct.rec.startTime > at : true))) {
      const p = [...pre].reverse().find((e) => e.time <= at + 1e-6) ?? pre[0]!;
      return causeOf({ type: 'token', rec: p.rec }, at);
    }
    return causeOf(direct, at);
  };

  // A <script src> fetch starts when the parser closes the element: a script requested after its end
  // tag was parsed hangs off the end tag.
  const followEndTag = (cause: Cause, t: number): Cause => {
    if (cause.kind !== 'token') return cause;
    const doc = docById.get(cause.doc)!;
    const tok = doc.tokens[cause.token]!;
    const next = doc.tokens[cause.token + 1];
    if (tok.tag === 'script' && tok.isStartTag && next && !next.isStartTag && next.tag === tok.tag && next.start <= t) return { ...cause, token: cause.token + 1 };
    return cause;
  };

  // ---- resource causes ("issued by")
  let unresolved = 0;
  for (const [ra, raw] of rawOf) {
    if (raw === mainRaw) continue;
    const adopter = 'sentTime' in raw ? adopted.get(raw) : undefined;
    const from = adopter ? adopter.from : raw.from;
    const at = adopter ? adopter.accessTime : 'sentTime' in raw ? raw.sentTime : raw.accessTime;
    ra.issuedBy = followEndTag(resolveFrom(from, at), ms(at));
    if (ra.issuedBy.kind === 'none' && !isNil(raw.from)) unresolved++;
  }
  if (unresolved) warnings.push(`${unresolved} resource(s) name an initiator absent from the log; they have no parent in the graph`);

  // ---- computation causes and kind-specific fields
  const sourceOf = (url: string, frame: string, from: string | undefined, at: number): string | undefined => {
    const cands = byUrl.get(url);
    if (!cands?.length) {
      // A redirected script or style sheet runs under its final url, which no fetch record carries
      // (www.aliexpress.com: widget.us.criteo.com fetched, sslwidget.criteo.com run): its element's fetch.
      const own = from && !isNil(from) ? (byFromPointer.get(from) ?? []).filter((r) => r.start <= at) : [];
      return own.reduce<ResourceActivity | undefined>((a, r) => (a === undefined || r.start >= a.start ? r : a), undefined)?.id;
    }
    const samePointer = from && !isNil(from) ? cands.filter((r) => rawOf.get(r)?.from === from && r.start <= at) : [];
    if (samePointer.length) return samePointer[samePointer.length - 1]!.id;
    const sameFrame = cands.filter((r) => r.frame === frame);
    return (latestBefore(sameFrame, at) ?? latestBefore(cands, at) ?? cands[0]!).id;
  };
  /**
   * Where the network parser stood while a script document.write had put in its document ran, when it
   * waited for that script: no token of the document parsed between the write and the script's end
   * (www.ndtv.com: Adform.DHTML.js, written at 16559.592346 s, log line 5140, runs .721944-.736728, line
   * 6499; the parser goes on at .736736, line 5185). Undefined when the parser went on (an async
   * script) or had finished.
   */
  const writtenScriptPause = (raw: Lined<RawComputation>, c: ComputationActivity): Cause | undefined => {
    const el = isNil(raw.from) ? undefined : any.lookup(raw.from, raw.startTime);
    if (el?.type !== 'token' || isNil(el.rec.comp)) return undefined;
    const doc = docByKey.get(`${el.rec.frame}\u0000${el.rec.doc}`);
    if (!doc) return undefined;
    const at = lastAtOrBefore(doc.tokens, c.start);
    const next = doc.tokens[at + 1];
    if (at < 0 || next === undefined || next.start < c.end || lastAtOrBefore(doc.tokens, ms(el.rec.startTime)) !== at) return undefined;
    return { kind: 'token', doc: doc.id, token: at };
  };
  const lastEventOnTarget = new Map<string, number>();
  raws.forEach((raw, i) => {
    const c = comps[i]!;
    if (raw.type === 'execScript') {
      const url = raw.urlRecalcStyle ?? '';
      c.scriptUrl = url || raw.docUrl;
      c.scriptKind = url ? 'sync' : 'inline';
      let cause = resolveFrom(raw.from, raw.startTime);
      if (cause.kind === 'token') {
        // A script declared in HTML runs once the parser reaches the end of its element, blocking the
        // rest of the document (sync/inline). When the parser went on past the element first, the
        // script was async (ran when its download ended) or, when parsing had finished, deferred.
        const doc = docById.get(cause.doc)!;
        const declared = cause.token;
        const closing = doc.tokens[declared + 1];
        const isAdjacent = (k: number): boolean => k <= declared || (k === declared + 1 && closing !== undefined && !closing.isStartTag && closing.tag === doc.tokens[declared]!.tag);
        // Tokens stamped at the script's very start (the clock's resolution: vk.com, log lines 447-454,
        // six tokens and two scripts at 4958.107987 s) may follow it: the parser did not pass the
        // element when the tokens before that instant allow it was still there.
        let j = lastAtOrBefore(doc.tokens, c.start);
        let before = j;
        while (before >= 0 && doc.tokens[before]!.start >= c.start) before--;
        // The element's own end tag stamped at that instant was parsed before the script ran.
        if (!isAdjacent(j) && isAdjacent(before)) j = isAdjacent(declared + 1) && closing!.start <= c.start ? declared + 1 : before;
        const adjacent = isAdjacent(j);
        if (adjacent || !url) {
          cause = { kind: 'token', doc: doc.id, token: Math.max(j, declared) };
          c.blocksParser = true;
        } else if (j === doc.tokens.length - 1 && c.start >= doc.tokens[j]!.end) {
          c.scriptKind = 'defer';
          cause = { kind: 'token', doc: doc.id, token: j };
        } else {
          c.scriptKind = 'async';
          cause = NO_CAUSE;
        }
      } else if (url && cause.kind === 'computation') {
        // A script element inserted by script runs when its download ends: its resource, itself issued
        // by the inserting computation, is its only parent (rule 10). One that document.write put in the
        // page is parser-inserted: when its document's parser waited for it, it blocks like a declared one.
        const paused = writtenScriptPause(raw, c);
        c.scriptKind = paused ? 'write' : 'async';
        if (paused) c.blocksParser = true;
        cause = paused ?? NO_CAUSE;
      }
      c.triggeredBy = cause;
      if (url) {
        const src = sourceOf(url, raw.frame, raw.from, c.start);
        if (src) c.source = src;
      }
    } else if (raw.type === 'recalcStyle') {
      const url = raw.urlRecalcStyle ?? '';
      c.styleUrl = url || raw.docUrl;
      if (url) {
        const src = sourceOf(url, raw.frame, raw.from, c.start);
        if (src) c.source = src;
      }
    } else if (raw.type === 'timer') {
      c.timerId = raw.code;
      // The delay as the page asked for it; normalisation clamps a negative one to 0 (keeping this value).
      const delay = Number(raw.urlRecalcStyle);
      c.timerDelay = Number.isFinite(delay) ? delay : 0;
      if (c.timerDelay < 0) odd.note('timer delay', raw.line, `${c.timerDelay} ms, 0 used, the source value kept in extra.originalDelay`);
      const reg = compIndex.lookup(raw.from, raw.startTime);
      if (reg !== undefined && reg !== i) c.triggeredBy = compCause(reg, Infinity);
      else if (raw.from !== undefined) c.triggeredBy = resolveFrom(raw.from, raw.startTime);
    } else {
      let xhrSubject: ResourceActivity | undefined;
      c.eventName = raw.name ?? raw.urlRecalcStyle ?? '';
      c.eventTarget = raw.targetType ?? 'Element';
      const target = raw.target ?? raw.from;
      if (target && !isNil(target)) {
        // Events on one object follow each other: an element's repeated event of one kind, and every
        // event of an XHR after its latest readystatechange (progress, load, the next state).
        // An XHR object is reused for several requests (and its address by later objects): a
        // readystatechange names its request (`info` "<state> : <url>"), so its chain is per request.
        const xhr = c.eventTarget === 'XMLHTTPRequest';
        // State 1 (OPENED) fires inside open(), before the request is sent: the chain that follows the
        // response starts at state 2 (HEADERS_RECEIVED).
        const xhrState = xhr ? /^(\d+) : (.*)$/.exec(raw.info ?? '') : null;
        const xhrUrl = xhrState && Number(xhrState[1]) >= 2 ? xhrState[2] : undefined;
        const key = xhr ? `${target}\u0000xhr` : `${target}\u0000${c.eventTarget}\u0000${c.eventName}`;
        const requestKey = xhrUrl !== undefined ? `${key}\u0000${xhrUrl}` : undefined;
        const prev = lastEventOnTarget.get(requestKey ?? key);
        if (prev !== undefined) c.previousOnTarget = comps[prev]!.id;
        else if (xhrUrl !== undefined) {
          // The request's first state change follows its response: the latest fetch of that url by the XHR.
          const fetches = (byFromPointer.get(target) ?? []).filter((r) => r.url === xhrUrl && r.start <= c.start);
          const latest = fetches.reduce<ResourceActivity | undefined>((a, r) => (a === undefined || r.start >= a.start ? r : a), undefined);
          if (latest) xhrSubject = latest;
        }
        if (!xhr || c.eventName === 'readystatechange') lastEventOnTarget.set(key, i);
        if (requestKey) lastEventOnTarget.set(requestKey, i);
      }
      // `info` names the resource an element event reports on ("Resource:<id>"), when the browser knew it.
      const named = /^Resource:(\d+)$/.exec(raw.info ?? '');
      // Cache hits carry the id of the fetch they reuse: the element's own copy is the latest one it
      // (or, failing that, anyone) obtained before the event.
      let namedRes: ResourceActivity | undefined;
      if (named) {
        const all = (byAnyRawId.get(Number(named[1])) ?? []).filter((r) => r.start <= c.start);
        const own = all.filter((r) => effectiveFrom.get(r) === (raw.target ?? raw.from));
        namedRes = (own.length ? own : all).reduce<ResourceActivity | undefined>((a, r) => (a === undefined || r.start >= a.start ? r : a), undefined) ?? byRawId.get(Number(named[1]));
      }
      // "Computation:<ptr>": the computation that dispatched it (e.g. postMessage's sender).
      const sender = /^Computation:(\S+)$/.exec(raw.info ?? '');
      if (sender) {
        const si = compIndex.lookup(sender[1], raw.startTime);
        // Dispatched inside its sender (element.focus() fires focusin/focus at once: www.google.de, log
        // lines 867 and 872-873): the sender's part running then; else its end.
        const inside = si !== undefined && isScriptFocus(c) && raws[si]!.startTime <= raw.startTime && raw.endTime <= raws[si]!.endTime;
        if (si !== undefined && si !== i) c.triggeredBy = compCause(si, inside ? ms(raw.startTime) : Infinity);
      }
      // A message's `target` names its sender when that is a computation (postMessage from a script,
      // timer or another message handler): the message was dispatched by it.
      if (!sender && c.eventName === 'message' && target && !isNil(target)) {
        const si = compIndex.lookup(target, raw.startTime);
        if (si !== undefined && si !== i && raws[si]!.startTime <= raw.startTime) c.triggeredBy = compCause(si, Infinity);
      }
      if (raw.info === 'interactive' || raw.info === 'complete') c.readyState = raw.info;
      if (namedRes) c.eventSubjects = [namedRes.id];
      else if (xhrSubject) c.eventSubjects = [xhrSubject.id];
      else if (target && !isNil(target) && ELEMENT_RESOURCE_EVENTS.has(c.eventName)) {
        // Addresses are reused: the element's resource is the latest one it requested before the event.
        const subjects = (byFromPointer.get(target) ?? []).filter((r) => r.start <= c.start);
        const latest = subjects.reduce<ResourceActivity | undefined>((a, r) => (a === undefined || r.start >= a.start ? r : a), undefined);
        if (latest) c.eventSubjects = [latest.id];
      }
    }
  });
  // Re-entrancy: a computation running inside another (an event dispatched by a script, a script
  // inserted and run synchronously) is caused by the enclosing one when nothing else explains it.
  // Style recalculations are not: the engine runs them when it needs styles, not because of the
  // computation it interrupts (their parent is their stylesheet).
  nestUnder(comps);

  const load = frames.find((f) => f.id === mainFrame)?.loadTime;
  const acts: Activities = { page: h.meta.page ?? mainRaw.url, frames, resources, documents, computations: comps };
  if (load !== undefined) acts.load = load;
  odd.report(warnings);
  if (!h.meta.complete) warnings.push('the log has no Complete record: it may be truncated; the graph covers what was read');
  return acts;
}

/** Values real logs carry that graph format v1 cannot hold as they are: counted per kind, one warning each. */
class OddValues {
  private readonly seen = new Map<string, { count: number; first: string }>();

  note(what: string, line: number, detail: string): void {
    const s = this.seen.get(what);
    if (s) s.count++;
    else this.seen.set(what, { count: 1, first: `line ${line}: ${detail}` });
  }

  report(warnings: string[]): void {
    for (const [what, s] of this.seen) warnings.push(`${s.count} odd ${what}(s) adjusted to fit graph format v1 (first at ${s.first})`);
  }
}

function latestBefore<T extends { start: number }>(list: T[], t: number): T | undefined {
  let best: T | undefined;
  for (const r of list) if (r.start <= t + 1e-3) best = r;
  return best;
}


function nestUnder(comps: ComputationActivity[]): void {
  // comps are sorted by start; a stack of open computations finds the innermost encloser.
  const stack: ComputationActivity[] = [];
  for (const c of comps) {
    while (stack.length && stack[stack.length - 1]!.end <= c.start) stack.pop();
    const outer = stack[stack.length - 1];
    // Another frame's Window load inside a script: an about:blank frame inserted by the script loads
    // synchronously, within the script (www.etsy.com, log lines 4527, 270 and 8931-8932).
    const sameThread = c.frame === outer?.frame || (outer?.kind === 'ScriptEval' && c.kind === 'Event' && c.eventTarget === 'Window' && c.eventName === 'load');
    if (outer && c.end <= outer.end && c.triggeredBy.kind === 'none' && sameThread && c.kind !== 'CssEval') {
      c.triggeredBy = { kind: 'computation', id: outer.id, at: c.start };
    }
    stack.push(c);
  }
}
