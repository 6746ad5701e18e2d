/**
 * Downloads the source browser never finished recording: a resource node of no bytes and no span (the
 * 2016 log has no `Resource` record for it, only the request the parser or a script made; the importer
 * draws it as a zero-length node) whose evaluation the graph still records, later. The bytes had come
 * by the time it ran, so the replay holds the response until then: www.chinadaily.com.cn's sync
 * `stat.php` script, requested at 1,130 ms and run at 10,782, held its parser (and the load event) for
 * 9.6 s in the source, and served at once it left the synthesized page 73% early. 10 http(s) resources
 * on 9 of the 64 legacy graphs. Such a node is a memory-cache hit (`Cached` record) on the preload
 * scanner's fetch still in flight (chinadaily's: `Preload` at 8,378.021 s, `Cached` at 8,378.386 s, no
 * `Resource`, run at 8,388.038 s): its bytes came from the network, so it is not put in the replay's
 * HTTP cache as the source's cache hits are (warmed there, it came at once: −73% again). Pure.
 */
import type { ResourceNode } from '@pcp/graph-builder';
import { firstEvaluationStart, type GraphIndex } from './graph-index.ts';

/** A span this short with no bytes is a request the log saw no response for. */
const NO_SPAN_MS = 0.5;

/** `r` with its end at its first evaluation's start when the log never received it; else `r`. */
export function heldUntilEvaluated(ix: GraphIndex, r: ResourceNode): ResourceNode {
  if (r.size > 0 || r.end - r.start >= NO_SPAN_MS) return r;
  const ranAt = firstEvaluationStart(ix, r);
  return ranAt !== undefined && ranAt > r.end ? { ...r, end: ranAt } : r;
}
