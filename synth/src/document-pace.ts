/**
 * When a synthesized document's bytes are sent (the replay's --pace): download chunk n brings the
 * bytes parse chunk n needs, at the time the graph says they reached the browser. Pure.
 *
 * Trace graphs time their download chunks, and so does the legacy importer since session 10: by their
 * bytes' arrival in the raw 2016 log, else by the parse chunks they feed (`extra.chunkTimes`,
 * graph-builder/src/format/legacy-chunk-times.ts); those times are used as they are. Asked for
 * `interpolated` times, the importer spreads the chunks over the document's whole span by byte offset
 * (`extra.interpolatedTimes`), DNS, connection and first byte included. The 2016 browser had the bytes much later (www.siteadvisor.com: its log's
 * chunks arrive at 5,421-5,663 ms, after 5.1 s of DNS; the interpolation starts them at 64 ms; qq.com's
 * 14.1 s body came at once at its end), so a page trickled at interpolated times is parsed, and
 * preload-scanned, seconds before the source was. For such chunks the time is when the source's
 * parser began the parse chunk the bytes feed (the bytes had arrived by then), no later than the
 * document's end (every byte had arrived by then), never before an earlier chunk's. The bytes before
 * the first tag (doctype and whitespace: nothing to parse or preload) still come at the first chunk's
 * interpolated end: both builders spread a document's download chunks over its span, which the trace
 * builder starts at the navigation's commit (the first bytes), the importer at the request; sent with
 * the tags, the rebuilt document would last only from them to its end, and its chunks with it.
 */
import type { DownloadChunkNode, ResourceNode } from '@pcp/graph-builder';
import { childrenOf, type GraphIndex } from './graph-index.ts';

const round = (x: number): number => Math.round(x * 100) / 100;

/** Whether the importer made up the chunk's times (legacy layout: bytes only). */
export const hasInterpolatedTimes = (d: DownloadChunkNode): boolean => d.extra?.interpolatedTimes === true;

/** When download chunk `d` of document `r` reached the browser, on the graph's clock. */
export function chunkArrival(ix: GraphIndex, r: ResourceNode, d: DownloadChunkNode): number {
  if (!hasInterpolatedTimes(d)) return d.end;
  const parsed = childrenOf(ix, d.id).filter((n) => n.kind === 'parse_chunk').map((n) => n.start);
  return parsed.length ? Math.min(r.end, ...parsed) : r.end;
}

/**
 * The body's pieces, [ms after the response headers, bytes]: download chunk n (by index) at its
 * arrival (`chunkArrival`, never before the chunk before it), with the bytes up to `chunkEnds[n]`
 * (where parse chunk n's content ends); the bytes after the last chunk come with it; with
 * interpolated times, the `lead` bytes before the first tag at the first chunk's interpolated end.
 * `headersAt`: when the headers go, on the graph's clock. Undefined when the document has fewer than
 * two chunks.
 */
export function documentPace(ix: GraphIndex, r: ResourceNode, chunkEnds: readonly number[], length: number, headersAt: number, lead = 0): [number, number][] | undefined {
  const dchunks = ix.graph.nodes.filter((n): n is DownloadChunkNode => n.kind === 'download_chunk' && n.resource === r.id).sort((a, b) => a.index - b.index);
  if (dchunks.length < 2) return undefined;
  const out: [number, number][] = [];
  let sent = 0;
  let at = 0;
  const first = dchunks[0]!;
  if (hasInterpolatedTimes(first) && lead > 0 && lead < (chunkEnds[0] ?? length) && chunkArrival(ix, r, first) > first.end) {
    at = first.end - headersAt;
    out.push([round(Math.max(0, at)), lead]);
    sent = lead;
  }
  dchunks.forEach((d, i) => {
    const upTo = i === dchunks.length - 1 ? length : Math.min(length, chunkEnds[i] ?? length);
    at = Math.max(at, chunkArrival(ix, r, d) - headersAt);
    out.push([round(Math.max(0, at)), Math.max(0, upTo - sent)]);
    sent = Math.max(sent, upTo);
  });
  if (sent < length) out[out.length - 1]![1] += length - sent;
  return out;
}

/** HTML whitespace (space, tab, LF, FF, CR), byte by byte. */
const isSpace = (b: number): boolean => b === 0x20 || b === 0x09 || b === 0x0a || b === 0x0c || b === 0x0d;

/**
 * Each chunk's end moved past the whitespace after it, to where the next chunk's first tag begins. Both builders
 * give a download chunk the bytes from its parse chunk's first token to the next chunk's first token, so the padding
 * before a tag (what stands in for the source's text between the tags) is the chunk before's: sent with the tag's
 * own piece, the rebuilt chunk before it waited for that piece (www.kickstarter.com's `@ base.css` chunk, 0 ms in
 * the source and 26 ms rebuilt: its padding came with the inline script's bytes 17 ms later). `body`: the document's
 * bytes; `chunkEnds`: UTF-8 offsets (document.ts). Pure.
 */
export function throughSpace(body: Uint8Array, chunkEnds: readonly number[]): number[] {
  return chunkEnds.map((end) => {
    let e = end;
    while (e < body.length && isSpace(body[e]!)) e++;
    return e;
  });
}
