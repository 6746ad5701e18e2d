/**
 * Whether a parser's style sheet held the scripts after it. Chromium runs no parser-blocking script
 * before the style sheets declared ahead of it have arrived, unless a sheet's media does not match
 * (`media="print"`); the legacy logs keep no media. A sheet the source's next parser-blocking script
 * did not wait for did not block it there: the script began before the sheet's evaluation, and the
 * source draws no `css -> script` edge from that evaluation. www.icicibank.com's `print.css`: requested
 * at 4,911 ms, evaluated at 6,059 ms, after `modernizr` (5,122 ms) and every later script; written as a
 * plain `<link>`, the replay's modernizr waited 1.1 s for it and the rebuilt graph drew `print.css ->
 * modernizr` (rule 11), its path through the sheet. Pure on the index.
 */
import type { GraphNode, ParseChunkNode, ResourceNode } from '@pcp/graph-builder';
import { childrenOf, stripFragment, type GraphIndex } from './graph-index.ts';

/** The parser-blocking script evaluations `chunk` declares (inline, or sync external), in edge order. */
function blockingScripts(ix: GraphIndex, chunk: ParseChunkNode): GraphNode[] {
  return childrenOf(ix, chunk.id).flatMap((n) => {
    if (n.kind === 'script_eval') return n.scriptKind === 'async' || n.scriptKind === 'defer' ? [] : [n];
    if (n.kind !== 'resource') return [];
    return childrenOf(ix, n.id).filter((c) => c.kind === 'script_eval' && c.scriptKind !== 'async' && c.scriptKind !== 'defer');
  });
}

/**
 * True when the style sheet `r`, declared by `chunk`, did not hold the first parser-blocking script after
 * it in its document: that script's evaluation began before the sheet's, and no edge leads from the
 * sheet's evaluation to a script. Only a sheet whose evaluation requests nothing (a non-matching medium
 * would not fetch what its rules name).
 */
export function sheetHeldNoScript(ix: GraphIndex, r: ResourceNode, chunk: ParseChunkNode): boolean {
  const evals = childrenOf(ix, r.id).filter((n) => n.kind === 'css_eval');
  if (evals.length !== 1) return false;
  const sheet = evals[0]!;
  const parts = ix.partsOf.get(sheet.id) ?? [sheet.id];
  const out = parts.flatMap((p) => childrenOf(ix, p));
  if (out.some((n) => n.kind === 'script_eval' || n.kind === 'resource')) return false;
  const chunks = (ix.chunksByDoc.get(stripFragment(chunk.docUrl)) ?? []).filter((c) => c.frame === chunk.frame);
  const at = chunks.findIndex((c) => c.id === chunk.id);
  if (at < 0) return false;
  const next = chunks.slice(at + 1).map((c) => blockingScripts(ix, c)[0]).find((s) => s !== undefined);
  return next !== undefined && next.start < sheet.start;
}
