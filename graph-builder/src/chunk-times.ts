/**
 * Download-chunk times of a built graph, by the importer's helper (format/legacy-chunk-times.ts), so
 * every source reads a body's timing the same way: a 2016 log (its `ReceivedChunk` records) and a Chrome
 * trace (its `ResourceReceivedData` events, both kept on each resource activity as `arrivals`):
 * - `received` (default): chunk n spans from the arrival of the chunk before's last byte (the first chunk:
 *   of its own first byte) to that of its own last byte (an empty chunk: the byte before it), no later than the document's end (rule 9: the
 *   chunks tile the body's arrival); a document without pieces (a memory-cache hit, an about: document) is
 *   timed by the parser: chunk n ends when parse chunk n began;
 * - `parser`: by the parser for every document;
 * - `interpolated`: a share of the document's whole span by byte offset (DNS, connection and first byte
 *   included), as the original 2016 builder timed them and its published critical paths assume (the rules'
 *   own times, rules/parse.ts).
 * Each chunk says which in `extra.chunkTimes`. Pure: rewrites the chunk nodes in place.
 */
import type { Edge, GraphNode } from './format/types.ts';
import { timeLegacyChunks, type ChunkTiming } from './format/legacy-chunk-times.ts';
import type { RawArrival } from './format/legacy-raw.ts';
import type { ResourceActivity } from './model/types.ts';

export function timeDownloadChunks(nodes: readonly GraphNode[], edges: readonly Edge[], resources: readonly ResourceActivity[], timing: ChunkTiming): void {
  const arrivals = new Map<string, RawArrival[]>(resources.map((r) => [r.id, r.arrivals.map((a) => ({ at: a.time, bytes: a.bytes }))]));
  const byId = new Map(nodes.map((n) => [n.id, n]));
  // The parse chunks each download chunk feeds (rule 3), by their earliest start.
  const parsedAt = new Map<string, number>();
  for (const e of edges) {
    const to = byId.get(e.to);
    if (to?.kind !== 'parse_chunk' || byId.get(e.from)?.kind !== 'download_chunk') continue;
    parsedAt.set(e.from, Math.min(parsedAt.get(e.from) ?? Infinity, to.start));
  }
  timeLegacyChunks(nodes, timing, (r) => arrivals.get(r.id), (d) => parsedAt.get(d.id));
}
