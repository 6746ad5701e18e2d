/**
 * The name a frame's document keeps across a round trip. A document URL that several frames load
 * (www.deviantart.com: three ad frames of `google.html`, each running some 20 inline scripts) would
 * otherwise mix their parse chunks in one list by position and count their computations as one
 * document's, so that a replay interleaving the frames' work in another order renames every chunk
 * and script of all three. Such frames are told apart by their order of first activity: the first
 * keeps the URL, the others are `URL [k]` (frames of the page's own URL and about: frames keep it). Pure.
 */
import type { GraphIndex } from './graph-index.ts';
import { perIndex } from './per-index.ts';

/** Frame id -> the start of its earliest node (ms); frames without nodes are absent. Once per index (frame names, about: frames' owners). */
export const firstActivityByFrame = perIndex((ix): Map<string, number> => {
  const first = new Map<string, number>();
  for (const n of ix.graph.nodes) first.set(n.frame, Math.min(first.get(n.frame) ?? Infinity, n.start));
  return first;
});

export function frameNames(ix: GraphIndex): Map<string, string> {
  const firstActivity = firstActivityByFrame(ix);
  const byUrl = new Map<string, string[]>();
  for (const [id, url] of ix.frameDoc) (byUrl.get(url) ?? byUrl.set(url, []).get(url)!).push(id);
  const main = ix.graph.frames.find((f) => f.parent === null)?.id;
  const names = new Map<string, string>();
  for (const [url, frames] of byUrl) {
    // about: frames carry their creator's content and stay one name; frames of the page's own URL too (the
    // synthesizer leaves them out, and a legacy graph may hold the page's work in one: behance.net).
    if (frames.length === 1 || /^about:/.test(url) || frames.includes(main ?? '')) {
      for (const f of frames) names.set(f, url);
      continue;
    }
    frames
      .sort((a, b) => (firstActivity.get(a) ?? Infinity) - (firstActivity.get(b) ?? Infinity) || a.localeCompare(b))
      // The first keeps the plain URL: a frame the other side lacks shifts only the later ones.
      .forEach((f, k) => names.set(f, k === 0 ? url : `${url} [${k}]`));
  }
  return names;
}
