/**
 * Frames whose document is `about:blank`, made by a script of another frame (ad code: an iframe
 * inserted, its document opened and written). Such a frame has no script of its own to install its
 * window and document handlers (wikia.com: a window load handler requesting an ad's pixel and
 * scripts), so the computation that inserts its iframe installs them, between opening and closing
 * the frame's document (`A` in program.ts): Chromium fires an about:blank frame's load while the
 * iframe is inserted, before any handler could be added, and again when its opened document is
 * closed. The frame an about: resource made is the frame of its children in another frame.
 *
 * Ad code also inserts scripts into such a frame from its parent (`frame.contentDocument.body
 * .appendChild(script)`): the graph has the script requested by a computation of one frame and
 * evaluated in the about: frame (wikia.com, bild.de, ndtv.com). The page registers every about:
 * iframe it makes under its resource id, and inserts such a script into that frame's document.
 *
 * An about: frame can have a document of its own (parse chunks whose tags request resources): an
 * `<iframe srcdoc>` (`about:srcdoc`: bild.de, ndtv.com) or HTML its creator wrote into it (kohls.com).
 * Its creator gives it that HTML (`aboutDocumentChunks`), as srcdoc or written between open and close. Pure.
 */
import type { ParseChunkNode, ResourceNode } from '@pcp/graph-builder';
import { firstActivityByFrame } from './frame-names.ts';
import { childrenOf, type GraphIndex } from './graph-index.ts';
import { writtenIntoOf } from './written-scripts.ts';

export const isAboutUrl = (url: string): boolean => /^about:/i.test(url);

/**
 * Frame id -> the about: resource (an iframe's document) that made it, for frames whose document is
 * about:. The frame of the resource's children in another frame, or of its download chunks (the
 * frame's own document: www.bild.de's ad `about:srcdoc`, which the rule below otherwise gave to an
 * earlier about:blank resource, so that the ad's frame was made twice); else (session 10) an about: frame that
 * no resource names this way takes the first about: resource its parent frame requested before the
 * frame's first activity that made no other frame: GPT's `gampad/ads`, requested by the page and
 * evaluated in an about:blank frame of the page, whose about: resource (one of three the GPT script
 * requested) has children only in the page (en.nametests.com's 16 missing resources, sahibinden.com's
 * 3); which of the parent's about:blank iframes it was the graph does not say, and any one made before
 * it serves. A script written into an about: frame's document (`extra.writtenInto`) names that frame's
 * resource before any of these (www.ndtv.com's `gampad/ads`: the frame of `download_136`, where the rules
 * above gave it taboola's `download_117`).
 */
export function aboutFrameOwners(ix: GraphIndex): Map<string, ResourceNode> {
  const owners = new Map<string, ResourceNode>();
  // A script written into an about: frame's document names it first: the raw log's `Frame.id` (written-scripts.ts).
  for (const n of ix.graph.nodes) {
    if (n.kind !== 'resource') continue;
    const doc = writtenIntoOf(ix, n);
    const frame = doc && evaluatingFrame(ix, n);
    if (frame !== undefined && isAboutUrl(ix.frameDoc.get(frame) ?? '') && !owners.has(frame)) owners.set(frame, doc!);
  }
  const about = ix.graph.nodes.filter((n): n is ResourceNode => n.kind === 'resource' && isAboutUrl(n.url)).sort((a, b) => a.start - b.start);
  for (const r of about) {
    for (const e of ix.children.get(r.id) ?? []) {
      const c = ix.byId.get(e.to)!;
      // A frame's own document (its download chunks: legacy graphs record an about:srcdoc document in the frame it loads) names it too.
      const names = c.frame !== r.frame || c.kind === 'download_chunk';
      if (names && isAboutUrl(ix.frameDoc.get(c.frame) ?? '') && !owners.has(c.frame)) owners.set(c.frame, r);
    }
  }
  const firstActivity = firstActivityByFrame(ix);
  const claimed = new Set(owners.values());
  const unnamed = ix.graph.frames
    .filter((f) => f.parent !== null && !owners.has(f.id) && isAboutUrl(ix.frameDoc.get(f.id) ?? '') && firstActivity.has(f.id))
    .sort((a, b) => firstActivity.get(a.id)! - firstActivity.get(b.id)!);
  for (const f of unnamed) {
    const r = about.find((x) => x.frame === f.parent && !claimed.has(x) && x.start <= firstActivity.get(f.id)!);
    if (!r) continue;
    owners.set(f.id, r);
    claimed.add(r);
  }
  return owners;
}

/**
 * The about: resource whose frame evaluates the script `r`: the script goes into that frame's
 * document. Also when a computation of that frame requested it: a handler its creator installed in
 * the frame runs in the creator's window, whose `document` is the creator's (www.kohls.com's mPulse
 * loader: the about:blank frame's load handler inserts `boomerang` into the frame).
 */
export function scriptTargetFrame(ix: GraphIndex, owners: Map<string, ResourceNode>, r: ResourceNode): ResourceNode | undefined {
  const frame = evaluatingFrame(ix, r);
  return frame === undefined ? undefined : owners.get(frame);
}

/**
 * Whether the script `r`, requested by a computation of an about: frame, was evaluated by that frame's
 * parent: the script goes into the parent's document, which an about: frame can reach (wikia.com: a
 * webspectator script in an about:blank frame inserts `initcb` into the page, whose program runs there).
 */
export function scriptIntoParent(ix: GraphIndex, r: ResourceNode): boolean {
  const frame = evaluatingFrame(ix, r);
  const own = ix.graph.frames.find((f) => f.id === r.frame);
  return frame !== undefined && own !== undefined && isAboutUrl(own.url) && own.parent === frame;
}

/** The frame of the first evaluation of the script `r`. */
function evaluatingFrame(ix: GraphIndex, r: ResourceNode): string | undefined {
  const evals = childrenOf(ix, r.id).filter((n) => n.kind === 'script_eval' && n.scriptKind !== 'inline').sort((a, b) => a.start - b.start);
  return evals[0]?.frame;
}

/**
 * The parse chunks of the frame the about: resource `r` made (the frame of its download chunks: the
 * resource is that frame's document; else the frame of its children elsewhere), in document order.
 */
export function aboutDocumentChunks(ix: GraphIndex, owners: Map<string, ResourceNode>, r: ResourceNode): { docUrl: string; chunks: ParseChunkNode[] } | undefined {
  const ownDownload = childrenOf(ix, r.id).find((n) => n.kind === 'download_chunk');
  const frame = ownDownload?.frame ?? [...owners].find(([, owner]) => owner.id === r.id)?.[0];
  const docUrl = frame === undefined ? undefined : ix.frameDoc.get(frame);
  const chunks = docUrl === undefined ? [] : (ix.chunksByDoc.get(docUrl) ?? []).filter((c) => c.frame === frame);
  return chunks.length ? { docUrl: docUrl!, chunks } : undefined;
}
