/**
 * A legacy graph's load of an iframe element: the 2016 log hangs it off every resource of the frame's
 * document (www.reddit.com's ad frame: one `Element` load with 25 resource parents, most of them the
 * frame's pixels). It is the iframe's load, not each image's: the synthesizer gave every parent an
 * `onload` of its own, and the replay fired a load with work for each (12 element loads the source
 * does not have on www.reddit.com). Of the 64 graphs, 13 element loads have several resource parents (80 in
 * all); 9 of them, in 8 graphs, are a frame's load by the test below. Pure.
 */
import type { EventNode, ResourceNode } from '@pcp/graph-builder';
import { aboutFrameOwners } from './about-frames.ts';
import { stripFragment, type GraphIndex } from './graph-index.ts';
import { perIndex } from './per-index.ts';

/** Frame id -> the resource of its document (an about: frame's: the about: resource that made it). */
const frameOwners = perIndex((ix): Map<string, ResourceNode> => {
  const owners = aboutFrameOwners(ix);
  const childFrames = new Set(ix.graph.frames.filter((f) => f.parent !== null).map((f) => f.id));
  for (const n of ix.graph.nodes) {
    if (n.kind !== 'resource' || owners.has(n.frame)) continue;
    if (childFrames.has(n.frame) && stripFragment(n.url) === ix.frameDoc.get(n.frame)) owners.set(n.frame, n);
  }
  return owners;
});

/**
 * Whose load `ev` (an element's load) is when it is a frame's: several resource parents, some of another
 * frame than its own; the frame most of them belong to, a child of `ev`'s frame, names the iframe. undefined: not a frame's load
 * (an element's own, as the synthesizer reads it); null: a frame's load whose iframe the graph does not name.
 */
export function frameLoadOwner(ix: GraphIndex, ev: EventNode, owners = frameOwners(ix)): ResourceNode | null | undefined {
  if (ev.eventName !== 'load' || ev.eventTarget.toLowerCase() !== 'element') return undefined;
  const rs = (ix.parents.get(ev.id) ?? []).map((e) => ix.byId.get(e.from)!).filter((p): p is ResourceNode => p.kind === 'resource');
  const elsewhere = rs.filter((r) => r.frame !== ev.frame);
  if (rs.length < 2 || !elsewhere.length) return undefined;
  const count = new Map<string, number>();
  for (const r of elsewhere) count.set(r.frame, (count.get(r.frame) ?? 0) + 1);
  const frame = [...count].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0]![0];
  // An iframe's load is dispatched in the frame that holds the iframe: else the graph does not say what it is.
  if (ix.graph.frames.find((f) => f.id === frame)?.parent !== ev.frame) return undefined;
  return owners.get(frame) ?? null;
}

/** Every frame's load of the graph (first parts), event id -> its iframe's resource or null (`frameLoadOwner`). */
export const frameLoads = perIndex((ix): Map<string, ResourceNode | null> => {
  const out = new Map<string, ResourceNode | null>();
  const owners = frameOwners(ix);
  for (const n of ix.graph.nodes) {
    if (n.kind !== 'event' || (ix.partsOf.get(n.id)?.[0] ?? n.id) !== n.id) continue;
    const o = frameLoadOwner(ix, n, owners);
    if (o !== undefined) out.set(n.id, o);
  }
  return out;
});
