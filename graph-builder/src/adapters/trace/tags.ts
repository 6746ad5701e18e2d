/**
 * Where a resource's tag really is in its document. Chromium's parser initiator names the tokenizer's
 * position when it issued the request; in a document that arrives in pieces that position runs ahead of
 * the tag (to the end of the bytes received so far). With the document's source (the profiler's
 * documents.json) the tag is the last src/href attribute resolving to the request's URL at or before
 * the reported position.
 */

export interface TagRef {
  url: string;
  /** 1-based line and column of the attribute value. */
  line: number;
  column: number;
}

const ATTR = /\b(?:src|href|data)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))/gi;

const key = (url: string): string => url.split('#')[0]!;

/** Every src/href/data attribute of a document, resolved against its URL, in source order. */
export function tagRefs(source: string, docUrl: string): TagRef[] {
  const lineStarts = [0];
  for (let i = source.indexOf('\n'); i >= 0; i = source.indexOf('\n', i + 1)) lineStarts.push(i + 1);
  const refs: TagRef[] = [];
  for (const m of source.matchAll(ATTR)) {
    const value = m[1] ?? m[2] ?? m[3] ?? '';
    let url: string;
    try {
      url = new URL(value.replace(/&amp;/g, '&'), docUrl).href;
    } catch {
      continue;
    }
    const quoted = m[3] === undefined ? 1 : 0;
    const at = (m.index ?? 0) + m[0].length - value.length - quoted;
    let lo = 0;
    let hi = lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (lineStarts[mid]! <= at) lo = mid;
      else hi = mid - 1;
    }
    refs.push({ url: key(url), line: lo + 1, column: at - lineStarts[lo]! + 1 });
  }
  return refs;
}

/** The tag of `url` at or before (line, column); the first one after when none precedes it. */
export function findTag(refs: TagRef[], url: string, line: number, column: number): TagRef | undefined {
  const want = key(url);
  let before: TagRef | undefined;
  let after: TagRef | undefined;
  for (const r of refs) {
    if (r.url !== want) continue;
    if (r.line < line || (r.line === line && r.column <= column)) before = r;
    else after ??= r;
  }
  return before ?? after;
}
