/**
 * Documents that hold no element: a 0-byte body, whitespace, a doctype, comments, bare text. The 2016
 * builder cut parse chunks at the parser's element tokens (its log's `ObjectHash` records, one per start or
 * end tag) and drew none for such a document (a 0-byte ad-pixel frame: a resource, no chunk). Chromium's
 * trace still has a ParseHTML slice for it (the parser making the implied html, head and body), which is
 * no parsing of the body's tags: the trace builder draws no download or parse chunk for it either.
 */

/** Comments, closed or running to the end of the text (the parser makes no element of either). */
const COMMENT = /<!--[\s\S]*?(?:-->|$)/g;
/** A start or end tag: `<` or `</` and a letter (HTML's tag open state); `<!` is a doctype or comment. */
const TAG = /<\/?[A-Za-z]/;

/**
 * Whether a document's body holds no element tag: from its source when known (the profiler's
 * documents.json), else from its size (only a 0-byte body is known to hold none).
 */
export function holdsNoElement(source: string | undefined, decodedLength: number): boolean {
  if (source === undefined) return decodedLength === 0;
  return !TAG.test(source.replace(COMMENT, ''));
}
