/**
 * Scripts the source requested by a `<script>` element and never ran: no evaluation of the URL
 * anywhere in the graph (not as a call either), no other request of it that ran, no load or error
 * of its element. The 2016 log holds the request (often of no bytes and no span: a download it
 * never saw end, synth/README.md session 12) and no run; Chromium runs every script a `<script>`
 * element loads, so a served script came back as an evaluation the source has no node of (a
 * `rule 10: resource -> script` added edge, 76 on 32 of the 64 graphs in session 14's kept loads).
 * Such a script is served as `text/plain` with `X-Content-Type-Options: nosniff`: the element still
 * requests it (same element, same priority, same parent), and Chromium refuses to run it (its element
 * fires error, which nothing listens to). Pure.
 */
import type { ResourceNode } from '@pcp/graph-builder';
import { stripFragment, type GraphIndex } from './graph-index.ts';
import { elementEvents, elementIssueOf, evaluatedByAnother } from './program.ts';
import { perIndex } from './per-index.ts';

/** URLs some script evaluation of the graph ran (external scripts and calls into them alike), once per index. */
const ranUrls = perIndex((ix: GraphIndex): Set<string> => new Set(ix.graph.nodes.flatMap((n) => (n.kind === 'script_eval' ? [stripFragment(n.scriptUrl)] : []))));

/** Whether the `<script>` that requests `r` never ran in the source (above). */
export function neverRun(ix: GraphIndex, r: ResourceNode): boolean {
  if (elementIssueOf(ix, r) !== 'script') return false;
  if (ranUrls(ix).has(stripFragment(r.url)) || evaluatedByAnother(ix, r)) return false;
  const { load, error } = elementEvents(ix, r);
  return !load && !error;
}
