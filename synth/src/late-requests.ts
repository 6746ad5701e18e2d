/**
 * The synthesizer's late-request timers named as the computation that set them. A request the source
 * made more than LATE_REQUEST_MS after the script computation it is a child of ends is made by the
 * synthesized page from a `setTimeout(function(){request}, gap)` (`lateRequestMs`, program.ts): the
 * trace builder draws that timer (rule 19 from the script, rule 2 to the request), the source has one
 * edge, script -> request (slack.com's `gtm.js` requests six fonts 1.1 s after its part ends: six
 * `timer 1124 (rebuilt only)`). A rebuilt timer no source timer was aligned with, of at least that
 * delay, whose children are all requests the source draws from the timer's own parent, is keyed as
 * that parent (`builtKeys` changed in place): the edge into it disappears and its requests' edges are
 * the source's. Pure.
 */
import type { GraphIndex } from './graph-index.ts';
import { recordedDelay } from './graph-index.ts';
import { LATE_REQUEST_MS } from './program.ts';

const REBUILT_ONLY = / \(rebuilt only\)$/;

export function nameLateRequestTimers(si: GraphIndex, sourceKeys: Map<string, string>, bi: GraphIndex, builtKeys: Map<string, string>): void {
  const sourceEdges = new Set(si.graph.edges.map((e) => `${sourceKeys.get(e.from)}\u0000${sourceKeys.get(e.to)}`));
  for (const t of bi.graph.nodes) {
    if (t.kind !== 'timer' || recordedDelay(t) < LATE_REQUEST_MS) continue;
    const key = builtKeys.get(t.id);
    if (key === undefined || !REBUILT_ONLY.test(key)) continue;
    const parts = new Set(bi.partsOf.get(t.id) ?? [t.id]);
    if ((bi.partsOf.get(t.id)?.[0] ?? t.id) !== t.id) continue;
    const outside = (edges: { from: string; to: string }[] | undefined, end: 'from' | 'to') => (edges ?? []).filter((e) => !parts.has(e[end]));
    const parents = new Set([...parts].flatMap((p) => outside(bi.parents.get(p), 'from').map((e) => builtKeys.get(e.from))));
    const children = [...parts].flatMap((p) => outside(bi.children.get(p), 'to').map((e) => bi.byId.get(e.to)!));
    const [parent] = parents;
    if (parents.size !== 1 || parent === undefined || children.length === 0) continue;
    if (!children.every((c) => c.kind === 'resource' && sourceEdges.has(`${parent}\u0000${builtKeys.get(c.id)}`))) continue;
    for (const p of parts) builtKeys.set(p, parent);
  }
}
