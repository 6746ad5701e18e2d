/**
 * Parse chunks one side cut apart where the other has one. Thesis §3.5.1 cuts a document's parse at
 * every tag that starts a download or an inline script. A legacy chunk may declare several resources
 * from one tag or position (9gag.com: a video's poster image and its source; www.siteadvisor.com: a
 * style sheet and the sheets it imports, attributed to the chunk, §3.5.1's lazy binding), which the
 * synthesized page writes as one tag each, and the trace builder, following the same rule, ends a chunk
 * at each. Such chunks are keyed by the first thing they declare, so the later ones have keys the
 * other side lacks, and every parse, download and declaration edge around them misses twice.
 *
 * The equivalence, applied to each side against the other alike: a chunk that directly follows chunk P
 * of its document, and whose every declared resource or script that the other side has is declared there
 * by the chunk keyed as P, is one chunk with P (takes P's key, its download chunk P's download's); so is
 * a chunk that directly precedes P under the same condition (session 12: the tags in the other order); the
 * edges between them fall away as edges of a node to itself. Chunks are matched by adjacency and by
 * what both sides declare in them, never by their number.
 *
 * And a chunk that declares nothing a trace records (keyed by its distance to the declaring chunk before
 * it, `@ P +n`) whose key the other side lacks is one chunk with the declaring chunk after it: §3.5.1 ends
 * a chunk at each tag that starts a download or an inline script, so what lies between two such tags is
 * the later one's chunk (as a chunk cut only by memory-cache repeats is, graph-index.ts), and a parser
 * resuming after a script resumes there. A cut between them is a builder's own: the 2016 builder cut at
 * elements an event later targeted (adexc.net's `webkitTransitionEnd` divs, google's `blur` inputs, baidu's
 * and espn's `mousemove`/`mouseover` ones, events it then dropped), where its parser had not stopped (the
 * next chunk began 0.0-0.3 ms later, its bytes long arrived: session 16). Such chunks after the document's
 * last declaring one (the end tag's) stay apart: there is no later chunk to be one with. Pure on the
 * indexes; changes the keys in place.
 */
import type { ParseChunkNode } from '@pcp/graph-builder';
import { isUndeclaringChunkKey, type GraphIndex } from './graph-index.ts';

/** What each chunk key of `ix` declares (its children that are resources or scripts), by their keys. */
function declarersOf(ix: GraphIndex, keys: Map<string, string>): Map<string, string> {
  const out = new Map<string, string>();
  for (const list of ix.chunksByDoc.values()) {
    for (const c of list) {
      const ck = keys.get(c.id);
      if (ck === undefined) continue;
      for (const d of declared(ix, keys, c)) if (!out.has(d)) out.set(d, ck);
    }
  }
  return out;
}

function declared(ix: GraphIndex, keys: Map<string, string>, c: ParseChunkNode): string[] {
  return (ix.children.get(c.id) ?? []).flatMap((e) => {
    const n = ix.byId.get(e.to);
    const k = keys.get(e.to);
    return n && k !== undefined && (n.kind === 'resource' || n.kind === 'script_eval') ? [k] : [];
  });
}

/** Renames `keys` of `ix` so that chunks `other` declares as one chunk are one (see above). */
function mergeInto(ix: GraphIndex, keys: Map<string, string>, other: GraphIndex, otherKeys: Map<string, string>): void {
  const declarer = declarersOf(other, otherKeys);
  const otherChunkKeys = new Set([...declarer.values()]);
  const rename = new Map<string, string>();
  // Walks a document's chunks in `order`: a chunk merges into its neighbour before it in that order.
  const mergeAlong = (order: ParseChunkNode[]): void => {
    const neighbourOfFrame = new Map<string, string>();
    for (const c of order) {
      const own = keys.get(c.id);
      const near = neighbourOfFrame.get(c.frame);
      const shared = declared(ix, keys, c).filter((d) => declarer.has(d));
      if (own !== undefined && near !== undefined && own !== near && !otherChunkKeys.has(own) && otherChunkKeys.has(near) && shared.length && shared.every((d) => declarer.get(d) === near)) {
        rename.set(own, near);
        keys.set(c.id, near);
      }
      const k = keys.get(c.id);
      if (k !== undefined) neighbourOfFrame.set(c.frame, k);
    }
  };
  for (const list of ix.chunksByDoc.values()) {
    mergeAlong(list);
    // The same, the other way: a chunk right before chunk N whose declarations the other side makes in
    // the chunk keyed as N (9gag.com's video: the source declares its poster and its source in one
    // chunk, keyed by the poster; the synthesized page's tags put the source first, a chunk of its own).
    mergeAlong([...list].reverse());
  }
  renameDownloads(keys, rename);
}

/** The download chunks of renamed parse chunks renamed with them (`download of KEY`). */
function renameDownloads(keys: Map<string, string>, rename: Map<string, string>): void {
  if (!rename.size) return;
  for (const [id, k] of keys) {
    const m = /^download of (.*)$/.exec(k);
    const to = m ? rename.get(m[1]!) : undefined;
    if (to !== undefined) keys.set(id, `download of ${to}`);
  }
}

/** Renames `keys` of `ix` so that a chunk declaring nothing whose key `otherKeys` lacks is one with the declaring chunk after it (see above). */
function mergeUndeclaring(ix: GraphIndex, keys: Map<string, string>, otherKeys: Set<string>): void {
  const rename = new Map<string, string>();
  const lone = (k: string): boolean => isUndeclaringChunkKey(k) && !otherKeys.has(k);
  for (const list of ix.chunksByDoc.values()) {
    // Walked from the document's end: each frame's next chunk that stays (none after the last: those stay apart).
    const next = new Map<string, string>();
    for (const c of [...list].reverse()) {
      const own = keys.get(c.id);
      if (own === undefined) continue;
      const after = next.get(c.frame);
      if (!lone(own)) next.set(c.frame, own);
      else if (after !== undefined) {
        rename.set(own, after);
        keys.set(c.id, after);
      }
    }
  }
  renameDownloads(keys, rename);
}

/** Both sides' chunks that the other side declares as one, merged (the source's first, against the rebuilt's keys as built). */
export function mergeChunksCutApart(si: GraphIndex, sourceKeys: Map<string, string>, bi: GraphIndex, builtKeys: Map<string, string>): void {
  const builtAsBuilt = new Map(builtKeys);
  mergeInto(bi, builtKeys, si, sourceKeys);
  mergeInto(si, sourceKeys, bi, builtAsBuilt);
  // Chunks declaring nothing that only one side cut (each side against the other's keys before either merge).
  const sourceSet = new Set(sourceKeys.values());
  const builtSet = new Set(builtKeys.values());
  mergeUndeclaring(bi, builtKeys, sourceSet);
  mergeUndeclaring(si, sourceKeys, builtSet);
}
