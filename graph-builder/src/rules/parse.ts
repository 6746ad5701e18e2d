/**
 * Parse and download chunks (thesis §3.5.1; Table 3.1 rules 3, 5-9). A document's parse splits after
 * every token that issues a download or after which a script runs; each parse chunk has a matching
 * download chunk (the bytes it parsed). Rule 3: ParseChunk(n-1) and DownloadChunk(n) -> ParseChunk(n);
 * rule 9: DownloadChunk(n-1) -> DownloadChunk(n); the document's resource leads to its first chunk.
 */
import type { Activities, DocumentActivity, Token } from '../model/types.ts';
import type { DownloadChunkNode, ParseChunkNode } from '../format/types.ts';
import type { RuleContext } from './context.ts';

export function boundaryTokens(acts: Activities, kept: Set<string>): Map<string, Set<number>> {
  const b = new Map<string, Set<number>>();
  const mark = (doc: string, token: number): void => {
    (b.get(doc) ?? b.set(doc, new Set()).get(doc)!).add(token);
  };
  for (const r of acts.resources) if (r.issuedBy.kind === 'token') mark(r.issuedBy.doc, r.issuedBy.token);
  for (const c of acts.computations) if (kept.has(c.id) && c.triggeredBy.kind === 'token') mark(c.triggeredBy.doc, c.triggeredBy.token);
  return b;
}

export function parseChunkRules(ctx: RuleContext, boundaries: Map<string, Set<number>>): void {
  ctx.acts.documents.forEach((doc, docIndex) => {
    if (doc.tokens.length === 0) return;
    const cuts = boundaries.get(doc.id) ?? new Set<number>();
    const chunkOfToken = new Int32Array(doc.tokens.length);
    const chunks: ParseChunkNode[] = [];
    let first = 0;
    for (let i = 0; i < doc.tokens.length; i++) {
      chunkOfToken[i] = chunks.length;
      if (cuts.has(i) || i === doc.tokens.length - 1) {
        chunks.push(parseChunk(doc, docIndex, chunks.length, doc.tokens[first]!, doc.tokens[i]!));
        first = i + 1;
      }
    }
    const resource = doc.resource ? ctx.resources.get(doc.resource) : undefined;
    const downloadChunks: string[] = [];
    const bytes = doc.offsetsIncludeWrites ? tokenSpanBytes(doc, chunkOfToken, chunks.length) : documentBytes(doc, chunkOfToken, chunks.length, resource?.size ?? 0);
    chunks.forEach((pc, n) => {
      ctx.addNode(pc);
      if (n > 0) ctx.edge(chunks[n - 1]!.id, pc.id, 3);
      if (!resource) return;
      const { offset, size } = bytes[n]!;
      const dc: DownloadChunkNode = {
        id: `dchunk_${docIndex}_${n}`,
        kind: 'download_chunk',
        frame: doc.frame,
        resource: resource.id,
        index: n,
        offset,
        size,
        ...chunkTimes(resource, offset, size),
      };
      ctx.addNode(dc);
      downloadChunks.push(dc.id);
      ctx.edge(dc.id, pc.id, 3);
      if (n > 0) ctx.edge(downloadChunks[n - 1], dc.id, 9);
    });
    ctx.docChunks.set(doc.id, { doc, chunks, chunkOfToken, downloadChunks });
  });
}

type ChunkBytes = { offset: number; size: number };

/** Chunk n's bytes: from its first token's offset to the next chunk's (the last: to the document's end). */
function documentBytes(doc: DocumentActivity, chunkOfToken: Int32Array, count: number, length: number): ChunkBytes[] {
  const starts = Array.from({ length: count }, (_, n) => doc.tokens[tokenIndexOfChunkStart(chunkOfToken, n)]!.offset);
  return starts.map((offset, n) => ({ offset, size: Math.max(0, (n + 1 < count ? starts[n + 1]! : Math.max(length, offset)) - offset) }));
}

/**
 * Chunk n's bytes when offsets count document.write's input too (as the original builder read them):
 * its first to its last token's offset, the chunks laid end to end from the first token. Bytes a
 * script wrote between two chunks are not the document's and take no download time.
 */
function tokenSpanBytes(doc: DocumentActivity, chunkOfToken: Int32Array, count: number): ChunkBytes[] {
  const out: ChunkBytes[] = [];
  let at = doc.tokens[0]?.offset ?? 0;
  for (let n = 0; n < count; n++) {
    const first = doc.tokens[tokenIndexOfChunkStart(chunkOfToken, n)]!;
    const last = doc.tokens[n + 1 < count ? tokenIndexOfChunkStart(chunkOfToken, n + 1) - 1 : doc.tokens.length - 1]!;
    const size = Math.max(0, last.offset - first.offset);
    out.push({ offset: at, size });
    at += size;
  }
  return out;
}

function tokenIndexOfChunkStart(chunkOfToken: Int32Array, n: number): number {
  // chunkOfToken is non-decreasing; a binary search finds the first token of chunk n.
  let lo = 0;
  let hi = chunkOfToken.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (chunkOfToken[mid]! < n) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function parseChunk(doc: DocumentActivity, docIndex: number, n: number, a: Token, b: Token): ParseChunkNode {
  // The 2016 logs report negative columns for tokens of document.write fragments (positions relative to
  // the write); v1 columns are >= 0, so those become 0 and the source's values travel in `extra`.
  const negative = a.column < 0 || b.column < 0;
  return {
    ...(negative ? { extra: { sourceStartColumn: a.column, sourceEndColumn: b.column } } : {}),
    id: `pchunk_${docIndex}_${n}`,
    kind: 'parse_chunk',
    frame: doc.frame,
    start: a.start,
    // Parsing work, not the span: a chunk that waited for a blocking script or for the document's next
    // bytes lasts its own work (the wait is the edges': the script's download -> its evaluation -> the
    // next chunk; the download chunk chain), its last token's included.
    end: a.work !== undefined && b.work !== undefined ? a.start + Math.max(0, b.work - a.work) + Math.max(0, b.end - b.start) : Math.max(b.end, a.start),
    docUrl: doc.url,
    startLine: a.line,
    startColumn: Math.max(0, a.column),
    endLine: b.line,
    endColumn: Math.max(0, b.column),
    startTag: a.tag,
    endTag: b.tag,
    isFragment: false,
  };
}


/**
 * A download chunk's span as the rules give it. The original builder gave each chunk its byte share of the
 * document's whole download time (size / length x (end - start)), laid end to end from the request; the
 * document's resource node also carries that whole time, so a path through the document counts it twice.
 * Both builders then time the chunks by their bytes' arrival unless asked for this share
 * (chunk-times.ts, `--chunk-times interpolated`; see docs/legacy-builder.md).
 */
function chunkTimes(resource: { start: number; end: number; size: number }, offset: number, size: number): { start: number; end: number } {
  const len = Math.max(1, resource.size);
  const span = Math.max(0, resource.end - resource.start);
  const a = resource.start + (Math.min(offset, len) / len) * span;
  const b = resource.start + (Math.min(offset + size, len) / len) * span;
  return { start: a, end: Math.max(a, b) };
}
