/**
 * Where each document's `<body>` began in the source browser: the body start tag's position (1-based
 * line, the log's column) per document URL, as the importer found it in the 2016 raw log and put it on
 * the document's first parse chunk (`extra.bodyStart`, graph-builder's legacy-raw.ts `bodyStartOf` says
 * why the synthesized document needs it). A graph without them (a trace graph, a legacy graph without its
 * raw log) has none. Pure.
 */
import type { Graph } from '@pcp/graph-builder';
import { stripFragment } from './graph-index.ts';

export interface TagPosition {
  line: number;
  column: number;
}

/** Document URL (fragment stripped) -> where its network parser read the `<body>` start tag (the first one). */
export type BodyStarts = ReadonlyMap<string, TagPosition>;

const isTagPosition = (p: unknown): p is TagPosition =>
  typeof p === 'object' && p !== null && Number.isFinite((p as TagPosition).line) && Number.isFinite((p as TagPosition).column);

/** The body starts the graph's parse chunks carry (`extra.bodyStart`), the first per document URL. */
export function bodyStartsOf(graph: Graph): BodyStarts {
  const out = new Map<string, TagPosition>();
  for (const n of graph.nodes) {
    if (n.kind !== 'parse_chunk') continue;
    const at = n.extra?.bodyStart;
    if (!isTagPosition(at)) continue;
    const doc = stripFragment(n.docUrl);
    if (!out.has(doc)) out.set(doc, { line: at.line, column: at.column });
  }
  return out;
}
