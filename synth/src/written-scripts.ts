/**
 * A script another frame's computation wrote into an about: frame's document (`extra.writtenInto`, from the
 * legacy import: graph-builder/src/format/legacy-written-scripts.ts). 2016 ad code (GPT, adform, AdSense)
 * opened the about:blank frame it had made and wrote `<script src>` into it; the frame stayed loading until
 * the written script had run, and the page's load waited for it (www.ndtv.com's `gampad/ads`, its frame's
 * load 0.2 ms after the script's run, the page's 1.1 s later). The synthesized page writes it the same way,
 * where the writer requested it: `O(D(frame), url, load, error)` opens the frame's document, writes the tag,
 * gives the element its handlers and closes the document; the parser-inserted script keeps the frame (and
 * the page) loading until it has run. Appended (`E(..., D(frame))`, about-frames.ts) the script was async to
 * a frame already loaded, and no load waited for it.
 *
 * Only into a frame the page made bare (`A(id)`, no handlers of its own and no HTML): opening a document
 * erases its window's listeners and its HTML. Pure.
 */
import type { ResourceNode } from '@pcp/graph-builder';
import { jsString } from './escape.ts';
import type { GraphIndex } from './graph-index.ts';

/** The about: resource whose frame's document `r` was written into, if the import recorded one the graph has. */
export function writtenIntoOf(ix: GraphIndex, r: ResourceNode): ResourceNode | undefined {
  const into = (r.extra as { writtenInto?: { document?: unknown } } | undefined)?.writtenInto;
  if (typeof into?.document !== 'string') return undefined;
  const doc = ix.byId.get(into.document);
  return doc?.kind === 'resource' && /^about:blank/i.test(doc.url) ? doc : undefined;
}

/**
 * The about: resources the page makes bare for a script to be written into later: each a written script
 * names whose frame has no HTML of its own (`hasDocument`: parse chunks, which the page writes or gives
 * as srcdoc when it makes the frame, and a later open would erase).
 */
export function writtenFrames(ix: GraphIndex, hasDocument: (r: ResourceNode) => boolean): Set<string> {
  const out = new Set<string>();
  for (const n of ix.graph.nodes) {
    const doc = n.kind === 'resource' ? writtenIntoOf(ix, n) : undefined;
    if (doc && !hasDocument(doc)) out.add(doc.id);
  }
  return out;
}

/** The call that writes script `url` (a JS string) into the frame of the about: resource `frameId`, with its element's handlers. */
export function writtenScriptJs(frameId: string, url: string, handlers: string[]): string {
  const args = [`D(${jsString(frameId)})`, url, ...handlers];
  return `O(${args.join(',')});`;
}
