/**
 * Frames that load one document URL but parsed different documents (www.deviantart.com: three ad
 * frames of `google.html`, 24, 30 and 25 parse chunks). The site serves such a URL once per frame, in
 * the order the frames requested it (the replay hands out several responses of one URL in archive
 * order), each body holding only its own frame's chunks, so that no frame parses another's tags.
 * Scripts a frame runs pick their program by the frame's document and a name the iframe tag gives
 * the frame (`pcp-frame [k]`, k > 0; the first frame has none): the file of a script several such
 * frames run holds each frame's programs. Pure.
 */
import type { ParseChunkNode, ResourceNode } from '@pcp/graph-builder';
import { isAboutUrl } from './about-frames.ts';
import { stripFragment, type GraphIndex } from './graph-index.ts';

export interface FrameBody {
  frame: string;
  /** The request that loaded the frame's document (its timing and size are this body's). */
  resource: ResourceNode;
  chunks: ParseChunkNode[];
  /** '' for the first frame of the URL, ` [k]` for the k-th after it. */
  suffix: string;
}

/** The iframe name that marks the k-th frame (k > 0) of a shared URL; scripts read it back (`frameSuffixJs`). */
export const FRAME_NAME_PREFIX = 'pcp-frame';

/** JavaScript: the running frame's suffix ('' or ` [k]`), from the name its iframe tag gave it. */
export const frameSuffixJs = `(window.name.indexOf("${FRAME_NAME_PREFIX} ")==0?window.name.slice(${FRAME_NAME_PREFIX.length}):"")`;

/** The request of `url` that loaded frame `frame`: one in that frame, or one whose children are that frame's. */
function documentRequest(ix: GraphIndex, url: string, frame: string): ResourceNode | undefined {
  const requests = ix.graph.nodes.filter((n): n is ResourceNode => n.kind === 'resource' && !n.cached && stripFragment(n.url) === url);
  return requests.find((r) => (ix.children.get(r.id) ?? []).some((e) => {
    const c = ix.byId.get(e.to)!;
    return (c.kind === 'download_chunk' || c.kind === 'parse_chunk') && c.frame === frame;
  })) ?? requests.find((r) => r.frame === frame);
}

/**
 * Document URLs with parse chunks in more than one frame -> each frame's body, in request order.
 * The page's own URL too (www.behance.net: a 5-chunk main document whose iframe of the same URL
 * parsed the 25-chunk page): the navigation is its first request, the frame's the second. about:
 * frames are left alone (about-frames.ts), as are URLs whose frames' requests the graph does not tell
 * apart (one body for all, as before).
 */
export function sharedFrameBodies(ix: GraphIndex): Map<string, FrameBody[]> {
  const out = new Map<string, FrameBody[]>();
  for (const [url, chunks] of ix.chunksByDoc) {
    if (isAboutUrl(url)) continue;
    const frames = [...new Set(chunks.map((c) => c.frame))];
    if (frames.length < 2) continue;
    const bodies = frames.map((frame) => ({ frame, resource: documentRequest(ix, url, frame), chunks: chunks.filter((c) => c.frame === frame) }));
    if (bodies.some((b) => !b.resource) || new Set(bodies.map((b) => b.resource!.id)).size < bodies.length) continue;
    out.set(url, bodies
      .sort((a, b) => a.resource!.start - b.resource!.start || a.resource!.id.localeCompare(b.resource!.id))
      .map((b, k) => ({ frame: b.frame, resource: b.resource!, chunks: b.chunks, suffix: k === 0 ? '' : ` [${k}]` })));
  }
  return out;
}

/** Frame id -> its suffix, and document request id -> the suffix of the frame it loads. */
export function frameSuffixes(shared: Map<string, FrameBody[]>): { byFrame: Map<string, string>; byRequest: Map<string, string> } {
  const all = [...shared.values()].flat();
  return { byFrame: new Map(all.map((b) => [b.frame, b.suffix])), byRequest: new Map(all.map((b) => [b.resource.id, b.suffix])) };
}
