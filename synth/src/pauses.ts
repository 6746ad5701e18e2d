/**
 * The 2016 renderer's unrecorded pauses (issue 15): the page's document's parser sat idle with its bytes
 * there, nothing it waited for running, and no work recorded anywhere in the renderer. www.flickr.com: its
 * parse chunk with the inline script that inserts YUI ended at 604 ms, its bytes had come by 445, and the
 * script ran at 891; the replay's parser ran it at once (597) and the YUI chain joined the load (+148%).
 * What the 2016 browser waited for is in no record, but the graph holds when each step began on the page's
 * clock, and the site already sends the document's bytes on that clock (document-pace.ts): a paused
 * chunk's bytes are not sent before the pause ends, so the replay's parser waits for them there.
 *
 * A pause is the idle part (no computation or parse chunk of any frame running) of the wait between a
 * parse chunk of the page's document and the latest of what it waited for (its parents' ends, its bytes'
 * arrival, the chunk before); or, for the one inline script a chunk runs (rule 12), between the chunk's
 * end and the script's start. Of `minMs` or more, it holds the chunk's bytes (its download chunk, rule 3)
 * to that start, and every later chunk's with it (bytes come in order). Not pauses: the first chunk's wait (the
 * navigation's commit), waits on bytes whose time the graph made up (`Arrival` undefined: interpolated chunk
 * times); documents whose chunks' positions and times disagree (parsed twice: www.xfinity.com's second parse
 * at 7 s) are left alone. Pure.
 */
import type { DownloadChunkNode, GraphNode, ParseChunkNode, ResourceNode } from '@pcp/graph-builder';
import { isComputation, stripFragment, type GraphIndex } from './graph-index.ts';

/** The shortest idle wait counted as a pause: 2016's parser yielded for tens of ms between tasks as a rule. */
export const PAUSE_MIN_MS = 100;

/** The spans in which something ran in the renderer (computations, parse chunks), sorted by start. */
export function busySpans(nodes: readonly GraphNode[]): [number, number][] {
  return nodes.filter((n) => (isComputation(n) || n.kind === 'parse_chunk') && n.end > n.start).map((n): [number, number] => [n.start, n.end]).sort((a, b) => a[0] - b[0]);
}

/** How much of [from, to] no span of `busy` (sorted by start) covers. */
export function idleWithin(busy: readonly [number, number][], from: number, to: number): number {
  let t = from;
  let idle = 0;
  for (const [s, e] of busy) {
    if (s >= to) break;
    if (e <= t) continue;
    if (s > t) idle += s - t;
    t = Math.max(t, e);
  }
  return idle + Math.max(0, to - t);
}

/** When a download chunk's bytes reached the browser as recorded; undefined when the graph does not know (made-up times). */
export type Arrival = (d: DownloadChunkNode) => number | undefined;

/** When `n` could have begun: the latest end of its parents (a download chunk at `arrival`) and of `before`; undefined if unknown. */
function readyAt(ix: GraphIndex, n: GraphNode, arrival: Arrival, before?: GraphNode): number | undefined {
  let ready = before?.end ?? -Infinity;
  for (const e of ix.parents.get(n.id) ?? []) {
    const p = ix.byId.get(e.from);
    const t = p?.kind === 'download_chunk' ? arrival(p) : p?.end;
    if (t === undefined) return undefined;
    ready = Math.max(ready, t);
  }
  return ready;
}

/** The download chunk that brings parse chunk `c`'s bytes (rule 3), of document `r`. */
function bytesOf(ix: GraphIndex, r: ResourceNode, c: ParseChunkNode): DownloadChunkNode | undefined {
  for (const e of ix.parents.get(c.id) ?? []) {
    const d = ix.byId.get(e.from);
    if (d?.kind === 'download_chunk' && d.resource === r.id) return d;
  }
  return undefined;
}

/**
 * Download chunk id -> the time (graph clock) before which its bytes are not sent, for the pauses of the page's
 * document `r` (`arrival`: when a download chunk's bytes reached the browser, as recorded). Empty when none.
 */
export function unrecordedPauses(ix: GraphIndex, r: ResourceNode, arrival: Arrival, minMs = PAUSE_MIN_MS): Map<string, number> {
  const out = new Map<string, number>();
  const chunks = (ix.chunksByDoc.get(stripFragment(r.url)) ?? []).filter((c) => c.frame === r.frame);
  if (chunks.some((c, i) => i > 0 && c.start < chunks[i - 1]!.start)) return out;
  const busy = busySpans(ix.graph.nodes);
  const idleBefore = (n: GraphNode, ready: number | undefined): number => ready === undefined ? 0 : idleWithin(busy.filter(([s, e]) => s !== n.start || e !== n.end), ready, n.start);
  let hold = -Infinity;
  chunks.forEach((c, i) => {
    const inline = (ix.children.get(c.id) ?? []).filter((e) => String(e.rule) === '12').map((e) => ix.byId.get(e.to)!);
    // The first chunk waited for the navigation's commit, which no log records: not a pause.
    if (i > 0 && idleBefore(c, readyAt(ix, c, arrival, chunks[i - 1])) >= minMs) hold = Math.max(hold, c.start);
    else if (inline.length === 1 && idleBefore(inline[0]!, readyAt(ix, inline[0]!, arrival)) >= minMs) hold = Math.max(hold, inline[0]!.start);
    const d = bytesOf(ix, r, c);
    const at = d && arrival(d);
    if (d && at !== undefined && hold > at) out.set(d.id, hold);
  });
  return out;
}
