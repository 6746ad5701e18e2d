/**
 * Phase 4: each frame's document with its tokens, synthesised from what the trace tells about parsing
 * (each ParseHTML slice's start line, each tag a cause points at, the end of parsing), and the number of
 * the token each token key became.
 */
import type { DocumentActivity, Token } from '../../../model/types.ts';
import type { Slice, TraceRequest } from '../load.ts';
import { sameDoc, type ActivityContext, type TokenKey } from './context.ts';
import { parseWorkClock, type ParseWorkClock } from './parse-work.ts';
import { holdsNoElement } from './element-free.ts';

/** Token key -> its document and token number. */
export type TokenIndex = Map<TokenKey, { doc: string; token: number }>;

export function documentActivities(ctx: ActivityContext): { documents: DocumentActivity[]; tokenIndex: TokenIndex } {
  const documents: DocumentActivity[] = [];
  const tokenIndex: TokenIndex = new Map();
  for (const [traceFrame, req] of ctx.docRequest) {
    const id = ctx.docId(traceFrame);
    const parses = documentParses(ctx.slices.filter((sl) => sl.kind === 'parse' && sl.frame === traceFrame && sl.url !== undefined && sameDoc(sl.url, req.url)));
    const keys = ctx.tokenKeys.filter((k) => k.doc === id);
    if (parses.length === 0 && keys.length === 0) continue;
    const source = ctx.options.documentSources?.get(req.url.split('#')[0]!);
    // A subframe's document holding no element, none written into it: no chunks (element-free.ts).
    if (keys.length === 0 && traceFrame !== ctx.load.mainFrame && !parses.some((p) => p.scripted) && holdsNoElement(source, req.decodedLength)) continue;
    const work = parseWorkClock(parses, ctx.slices, (sl) => ctx.compOfSlice.has(sl.index));
    const tokens = buildTokens(parses, keys, req, tokenIndex, id, work, source);
    documents.push({ id, frame: ctx.fid(traceFrame), url: req.url, resource: ctx.resId.get(req)!, tokens });
  }
  return { documents, tokenIndex };
}

/**
 * The document parser's own slices among the ParseHTML slices that name the document. A parse run from
 * script is the document's only when it goes on from the line its parser had reached (document.write
 * inserts at the parser's position); innerHTML, insertAdjacentHTML and jQuery's fragments name the same
 * document and frame but start a tokenizer of their own at line 1, often long after the document was
 * parsed (a search page's results). Where the two cannot be told apart (the parser still on that line), the
 * slice is kept.
 */
export function documentParses(parses: Slice[]): Slice[] {
  let reached = 0;
  const out: Slice[] = [];
  for (const p of [...parses].sort((a, b) => a.start - b.start)) {
    const line = p.line ?? 1;
    if (p.scripted && line < reached) continue;
    reached = Math.max(reached, line);
    out.push(p);
  }
  return out;
}

/**
 * A document's tokens in source order: the start of each parse slice, every tag the builder needs, and
 * the end of parsing. Times: when the parser reached the line (interpolated inside the slice that
 * covers it, never after a bound such as the start of the script the tag ran); byte offsets from the
 * document's source when it is known (`sourceOffsets`), else likewise from each slice's parsed byte count or
 * the body's arrivals; with `work`, each token's parse work done before it (parse-work.ts).
 */
export function buildTokens(parses: Slice[], keys: TokenKey[], req: TraceRequest, index: TokenIndex, doc: string, work?: ParseWorkClock, source?: string): Token[] {
  const ps = [...parses].sort((a, b) => a.start - b.start);
  const offsets: number[] = [];
  let acc = 0;
  for (const p of ps) {
    offsets.push(acc);
    acc += p.parsedBytes ?? 0;
  }
  const totalBytes = Math.max(acc, req.decodedLength);
  const lastLine = Math.max(1, ...ps.map((p) => p.line ?? 1), ...keys.map((k) => k.line));
  const place = (line: number, bound?: number): { start: number; offset: number; slice: number } => {
    if (ps.length === 0) return { start: bound ?? req.finish ?? req.send, offset: 0, slice: -1 };
    let k = -1;
    for (let i = 0; i < ps.length; i++) if ((ps[i]!.line ?? 1) <= line) k = i;
    if (k < 0) k = 0;
    while (bound !== undefined && k > 0 && ps[k]!.start > bound) k--;
    const p = ps[k]!;
    const nextLine = ps.slice(k + 1).find((q) => (q.line ?? 1) > (p.line ?? 1))?.line ?? lastLine + 1;
    const frac = Math.min(1, Math.max(0, (line - (p.line ?? 1)) / Math.max(1, nextLine - (p.line ?? 1))));
    let start = p.start + (p.end - p.start) * frac;
    if (bound !== undefined) start = Math.min(start, bound);
    return { start, offset: Math.round(offsets[k]! + (p.parsedBytes ?? 0) * frac), slice: k };
  };
  type Entry = { line: number; column: number; tag: string; start: number; offset: number; slice: number; keys: TokenKey[] };
  const entries = new Map<string, Entry>();
  const add = (line: number, column: number, tag: string, bound?: number, key?: TokenKey) => {
    const id = `${line}:${column}`;
    let e = entries.get(id);
    if (!e) {
      const at = place(line, bound);
      e = { line, column, tag, start: at.start, offset: at.offset, slice: at.slice, keys: [] };
      entries.set(id, e);
    } else if (bound !== undefined && bound < e.start) e.start = bound;
    if (key) e.keys.push(key);
  };
  // A slice resumed past a tag begins there when it began (the last one to resume at that point, the one the bytes
  // came for): at the line's start a slice is timed by the line, as before; past a tag, by itself (baidu.com's one
  // long line: the slice at 1,522 ms resumed at column 2,025, the one at 3,625 at 11,677).
  const resumedAt = new Map<string, { line: number; column: number; start: number }>();
  for (const p of ps) {
    const line = p.line ?? 1;
    const column = resumeColumn(p, keys);
    if (column === 0) add(line, 0, '#parse');
    else {
      const at = resumedAt.get(`${line}:${column}`);
      if (!at || p.start > at.start) resumedAt.set(`${line}:${column}`, { line, column, start: p.start });
    }
  }
  for (const r of resumedAt.values()) add(r.line, r.column, '#parse', r.start);
  for (const k of keys) add(k.line, k.column, k.tag, k.bound, k);
  const sorted = [...entries.values()].sort((a, b) => a.line - b.line || a.column - b.column);
  if (acc === 0) offsetsFromArrivals(sorted, ps, req);
  if (source !== undefined && sameLength(source, totalBytes)) {
    sourceOffsets(sorted, source);
    if (ps.length > 1 && new Set(ps.map((p) => p.line ?? 1)).size === 1) timesFromOffsets(sorted, ps, req, totalBytes);
  }
  const parseEnd = ps.length ? Math.max(...ps.map((p) => p.end)) : req.finish ?? req.send;
  const tokens: Token[] = sorted.map((e) => ({ line: e.line, column: e.column, tag: e.tag, isStartTag: true, start: e.start, end: e.start, offset: Math.min(e.offset, totalBytes) }));
  // Times never go backwards in source order (the parser is sequential).
  for (let i = 1; i < tokens.length; i++) if (tokens[i]!.start < tokens[i - 1]!.start) tokens[i]!.start = tokens[i]!.end = tokens[i - 1]!.start;
  tokens.push({ line: lastLine, column: Number.MAX_SAFE_INTEGER, tag: '#end', isStartTag: false, start: parseEnd, end: parseEnd, offset: totalBytes });
  if (work) for (const t of tokens) t.work = work(t.start);
  sorted.forEach((e, i) => {
    for (const k of e.keys) index.set(k, { doc, token: i });
  });
  return tokens;
}

/**
 * Where on its line a parse slice begins: past every tag of that line the parser had reached before the slice
 * began (a script it ran started before it: `bound`), else at the line's start. A slice names only the line its
 * tokenizer was on, and a parser that stops after an inline script at the end of the bytes in (then waits for
 * more) resumes on the script's own line: at column 0 its chunk boundary went before the script, which then
 * hung off a parse chunk starting after it ran (accounts.google.com's CheckConnection script, run at 127 ms,
 * given the chunk of the slice that resumed at 269 ms, 146 ms of the document's wait drawn before it).
 */
export function resumeColumn(p: Slice, keys: readonly TokenKey[]): number {
  let column = 0;
  for (const k of keys) if (k.line === (p.line ?? 1) && k.bound !== undefined && k.bound < p.start) column = Math.max(column, k.column + 1);
  return column;
}

/**
 * Byte offsets when the parse slices carry no parsed-byte counts (Chromium 156's ParseHTML writes none) but
 * the body arrived in pieces: the parser had parsed up to a token no later than it reached the next one, and
 * could have parsed only what had arrived when the slice holding the token before began. So a token's offset
 * is the body received before its predecessor's slice started: the bytes a chunk needs (the next chunk's
 * offset) are never more than had arrived when the parser was working through the chunk.
 */
function offsetsFromArrivals(sorted: Array<{ offset: number; slice: number }>, ps: Slice[], req: TraceRequest): void {
  if (req.chunks.length < 2 || ps.length === 0) return;
  const receivedBefore = (t: number): number => bodyReceived(req, t, false);
  for (let i = 1; i < sorted.length; i++) {
    const prev = sorted[i - 1]!.slice;
    sorted[i]!.offset = prev < 0 ? 0 : Math.max(sorted[i - 1]!.offset, receivedBefore(ps[prev]!.start));
  }
}

/** Whether a document's logged source is the body the trace counted (UTF-8 bytes within 2%: a re-encoded Latin-1 page is close, another version of the page is not). */
function sameLength(source: string, bytes: number): boolean {
  const own = Buffer.byteLength(source);
  return bytes > 0 && Math.abs(own - bytes) <= 0.02 * bytes;
}

/**
 * Tags' byte offsets from the document's source (the profiler's documents.json): a tag's line and column
 * (1-based) as a UTF-8 byte position. The trace's parse slices name lines only, so in a document of one long
 * line (minified HTML, a synthesized page) every token falls in the last slice and the arrivals give every tag
 * the whole body: the page's preload-scanned requests then waited for the whole document in an emulation (a
 * 78 kB one-line page trickled over 340 ms: its images asked for at 87-114 ms, emulated at 411). A parse
 * slice's start (`#parse`) keeps the arrivals' offset: the line a slice names is where the tokenizer was, which
 * runs ahead of what it parsed (a resumed slice of a small page names the line past its end). Offsets never go
 * back in source order. `sorted` is in source order.
 */
function sourceOffsets(sorted: Array<{ line: number; column: number; tag: string; offset: number }>, source: string): void {
  let line = 1;
  let char = 0; // index in `source` of (line, 1)
  let bytes = 0; // UTF-8 bytes before `at`
  let at = 0; // index in `source` the byte count has reached
  let reached = 0;
  for (const e of sorted) {
    if (e.tag !== '#parse' || e.column > 0) { // a slice resumed past a tag (resumeColumn): there, not where the arrivals say
      while (line < e.line) {
        const nl = source.indexOf('\n', char);
        if (nl < 0) break;
        char = nl + 1;
        line++;
      }
      const target = Math.min(source.length, char + Math.max(0, e.column - 1));
      if (target > at) {
        bytes += Buffer.byteLength(source.slice(at, target));
        at = target;
      }
      e.offset = bytes;
    }
    reached = e.offset = Math.max(reached, e.offset);
  }
}

/**
 * Times in a document whose parse slices all name one line (one long line of HTML): the line says nothing of
 * where a slice was, so each token goes to the first parse slice (one that did some work) that ended with the
 * token's bytes in, never after its bound; the sequential pass after keeps them in order. Before, every token
 * fell in the last slice, and the work of all the slices before it (a trickled page's whole parse) was taken
 * for main-thread work the first chunk waited for. A token the parser reached only after a blocking script ran
 * may be placed before that script: a lower bound, as the offsets are.
 */
function timesFromOffsets(sorted: Array<{ offset: number; start: number; keys: TokenKey[] }>, ps: Slice[], req: TraceRequest, totalBytes: number): void {
  const working = ps.filter((p) => p.end > p.start);
  if (working.length === 0) return;
  const encoded = bodyReceived(req, Infinity, true);
  // Decoded bytes in by each working slice's end (pieces count encoded bytes).
  const inBy = working.map((p) => (encoded > 0 ? (bodyReceived(req, p.end, true) / encoded) * totalBytes : totalBytes));
  let k = 0; // offsets never go back in source order, so neither does the slice
  for (const e of sorted) {
    while (k < working.length - 1 && inBy[k]! < e.offset) k++;
    const bounds = e.keys.flatMap((key) => (key.bound !== undefined ? [key.bound] : []));
    e.start = bounds.length ? Math.min(working[k]!.start, ...bounds) : working[k]!.start;
  }
}

/** The body's (encoded) bytes the renderer had received before `t`, or by `t` when `inclusive`. */
function bodyReceived(req: TraceRequest, t: number, inclusive: boolean): number {
  let bytes = 0;
  for (const c of req.chunks) if (c.time < t || (inclusive && c.time === t)) bytes += c.bytes;
  return bytes;
}
