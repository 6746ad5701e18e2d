/**
 * Times for a reference graph's download chunks, which carry bytes (`offset`, `size`) and no times. Three
 * ways, each recorded on the chunk as `extra.chunkTimes`:
 * - `received`: when the chunk's bytes arrived, from the raw log's `ReceivedChunk` records (the ground
 *   truth: chunk n spans from the arrival of the chunk before's last byte, the first chunk from its own first
 *   byte's, to that of its own last byte, an empty chunk's being the byte before it; no later than the document's end);
 * - `parser`: chunk n ends when the 2016 parser began parse chunk n, the chunk it feeds (its bytes were in
 *   by then), no later than the document's end, never before the chunk before, and starts where that one
 *   ended (the first: where the interpolation starts it);
 * - `interpolated`: spread over the document's whole span by byte offset, DNS, connection and first byte
 *   included (also `extra.interpolatedTimes`: the importer's only way before the raw logs were read).
 * Pure.
 */
import type { DownloadChunkNode, ResourceNode } from './types.ts';
import type { RawArrival } from './legacy-raw.ts';

export type ChunkTiming = 'received' | 'parser' | 'interpolated';
export const CHUNK_TIMINGS: readonly ChunkTiming[] = ['received', 'parser', 'interpolated'];
/** Received where the raw log says, else by the parser: the importer's and `pcp build --legacy-log`'s default. */
export const DEFAULT_CHUNK_TIMES: ChunkTiming = 'received';

type Span = { start: number; end: number };

/** Chunk `d`'s share of the document's span by byte offset. */
export function interpolatedSpan(r: ResourceNode, d: DownloadChunkNode): Span {
  const total = Math.max(r.size, d.offset + d.size, 1);
  const span = r.end - r.start;
  return { start: r.start + (span * Math.min(d.offset, total)) / total, end: r.start + (span * Math.min(d.offset + d.size, total)) / total };
}

/**
 * When byte `b` (1-based: the b-th byte) of a body had arrived: the arrival that brought it; past the
 * last byte, the last arrival. `arrivals` in time order, not empty.
 */
export function byteArrival(arrivals: readonly RawArrival[], b: number): number {
  let got = 0;
  for (const a of arrivals) {
    got += a.bytes;
    if (got >= b) return a.at;
  }
  return arrivals.at(-1)!.at;
}

/**
 * Chunk spans from the body's arrivals (chunks by index), no later than the document's end: the log's
 * pieces are stamped when the renderer's main thread took them, which a running script can hold past the
 * end of the download (535 of the 4,355 chunks of the 64 logs, by 1 ms at the median, 1.2 s at most);
 * every byte had reached the browser by the end. A chunk's download follows the one before it (thesis
 * §3.5, rule 9: a download chunk depends on the completion of the previous one), so chunk n starts where
 * chunk n - 1 ended and the wait for its bytes is its own; the first starts at its first byte. The chunks
 * tile the body's arrival, as the original builder's interpolation tiles the document's span: a wait between
 * two pieces of the body counts on the critical path whichever way the bytes were cut into pieces. An empty
 * chunk (a parse chunk that read no new byte) needs no byte past its offset: it ends with the byte before it, so
 * the wait for the next piece is the next chunk's, whose bytes it brought (ended with the byte after it, 55 of
 * the 2,222 empty chunks of the round trip's 64 rebuilt loads took 2,669 ms of their successors' waits; none of
 * the 2016 logs' 220 empty chunks moves either way). (Before,
 * a chunk spanned its own first to last byte, so a chunk whose bytes came in one piece lasted 0 whatever it
 * waited: the synthesizer sends each chunk so, and issue 15's round trip lost the source's waits).
 */
export function receivedSpans(r: ResourceNode, chunks: readonly DownloadChunkNode[], arrivals: readonly RawArrival[]): Span[] {
  let before: number | undefined;
  return chunks.map((d) => {
    const end = Math.min(r.end, byteArrival(arrivals, Math.max(1, d.offset + d.size)));
    const start = Math.min(end, before ?? byteArrival(arrivals, d.offset + 1));
    before = Math.max(before ?? end, end);
    return { start, end };
  });
}

/** Chunk spans from the parse chunks they feed (chunks by index; `parsedAt(d)`: the earliest start of `d`'s parse chunks, if any). */
export function parserSpans(r: ResourceNode, chunks: readonly DownloadChunkNode[], parsedAt: (d: DownloadChunkNode) => number | undefined): Span[] {
  const out: Span[] = [];
  let prev: number | undefined;
  for (const d of chunks) {
    const parsed = parsedAt(d);
    const end = Math.max(prev ?? r.start, Math.min(r.end, parsed ?? r.end));
    const start = prev ?? Math.min(end, interpolatedSpan(r, d).start);
    out.push({ start, end });
    prev = end;
  }
  return out;
}

/**
 * Times every download chunk of `nodes` in place: `received` where `arrivalsOf` has the document's
 * arrivals and `timing` is `received`, `parser` where `timing` is not `interpolated`, else `interpolated`.
 * `parsedAt(d)`: the earliest start of the parse chunks `d` feeds.
 */
export function timeLegacyChunks(
  nodes: readonly { kind: string }[],
  timing: ChunkTiming,
  arrivalsOf: (r: ResourceNode) => readonly RawArrival[] | undefined,
  parsedAt: (d: DownloadChunkNode) => number | undefined,
): void {
  const resources = new Map<string, ResourceNode>();
  const chunksOf = new Map<string, DownloadChunkNode[]>();
  for (const n of nodes as (ResourceNode | DownloadChunkNode)[]) {
    if (n.kind === 'resource') resources.set(n.id, n);
    else if (n.kind === 'download_chunk') (chunksOf.get(n.resource) ?? chunksOf.set(n.resource, []).get(n.resource)!).push(n);
  }
  for (const [id, chunks] of chunksOf) {
    const r = resources.get(id);
    if (!r) continue;
    chunks.sort((a, b) => a.index - b.index);
    const arrivals = timing === 'received' ? arrivalsOf(r) : undefined;
    const how: ChunkTiming = arrivals?.length ? 'received' : timing === 'interpolated' ? 'interpolated' : 'parser';
    const spans = how === 'received' ? receivedSpans(r, chunks, arrivals!) : how === 'parser' ? parserSpans(r, chunks, parsedAt) : chunks.map((d) => interpolatedSpan(r, d));
    chunks.forEach((d, i) => {
      d.start = spans[i]!.start;
      d.end = spans[i]!.end;
      d.extra = { ...d.extra, chunkTimes: how, ...(how === 'interpolated' ? { interpolatedTimes: true } : {}) };
    });
  }
}
