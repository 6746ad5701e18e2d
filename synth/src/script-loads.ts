/**
 * Script elements' loads that a legacy graph hangs off a parse chunk, not off the script. The 2016
 * capture logged a script element's `load` right after the script ran (Chromium fires it as the
 * evaluation ends), but linked it to the document's last parse chunk, never to the script's download
 * (twitter.com: `pchunk_2_70 -> load`, the handler that inserts `boot.js` and `timeline.js`, which began
 * as `streams.js` ended). Such a load is the element's: its handler is that element's onload. Pure.
 */
import type { EventNode, GraphNode, ResourceNode } from '@pcp/graph-builder';
import { SYNC_MS, childrenOf, stripFragment, type GraphIndex } from './graph-index.ts';
import { perIndex } from './per-index.ts';

const isElementLoad = (n: GraphNode): n is EventNode => n.kind === 'event' && n.eventName === 'load' && n.eventTarget.toLowerCase() === 'element';

/**
 * Resource id -> the load of its script element, for each element load (first part) no resource
 * precedes that began within SYNC_MS after the last part of an evaluation of a script file in its
 * frame: the script's latest request before that evaluation, when that request has no load of its own.
 */
export const scriptElementLoads = perIndex((ix: GraphIndex): Map<string, EventNode> => {
  const out = new Map<string, EventNode>();
  const nodes = ix.graph.nodes;
  const lastParts = nodes.filter((n) => n.kind === 'script_eval' && n.scriptKind !== 'inline' && (ix.partsOf.get(n.id)?.at(-1) ?? n.id) === n.id);
  const ownLoad = (r: ResourceNode): boolean => childrenOf(ix, r.id).some(isElementLoad);
  for (const ev of nodes) {
    if (!isElementLoad(ev) || (ix.partsOf.get(ev.id)?.[0] ?? ev.id) !== ev.id) continue;
    if ((ix.parents.get(ev.id) ?? []).some((e) => ix.byId.get(e.from)?.kind === 'resource')) continue;
    const ran = lastParts.filter((s) => s.frame === ev.frame && ev.start >= s.end && ev.start - s.end <= SYNC_MS).sort((a, b) => b.end - a.end)[0];
    if (!ran || ran.kind !== 'script_eval') continue;
    const first = ix.byId.get(ix.partsOf.get(ran.id)?.[0] ?? ran.id)!;
    const url = stripFragment(ran.scriptUrl);
    const request = nodes
      .filter((n): n is ResourceNode => n.kind === 'resource' && stripFragment(n.url) === url && n.start <= first.start)
      .sort((a, b) => b.start - a.start)[0];
    if (!request || ownLoad(request) || out.has(request.id)) continue;
    out.set(request.id, ev);
  }
  return out;
});
