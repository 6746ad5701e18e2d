/**
 * Where each document's `<body>` began in the source browser: the body start tag's position (1-based
 * line, the log's column) per document URL, from the legacy log's `ObjectHash` records (the patched
 * 2016 browser logged every token the network parser produced: `tagName`, `row`, `column`, `isStartTag`).
 * The legacy graphs keep parse chunks, not tags, so without it a synthesized document has no `<body>`
 * tag and the HTML parser stays in `<head>` until the first image or frame tag: every script and style
 * sheet before it is a head request, and Blink's resource scheduler stays in its tight mode (low- and
 * medium-priority requests held, two at most in flight) until the body is inserted
 * (`ResourceLoadScheduler::LoosenThrottlingPolicy`, called from `Document::WillInsertBody`), where the
 * 2016 browser's own scheduler (`ResourceScheduler`, which also held delayable requests until the
 * renderer reported the body) had long let them go. Pure, but for `bodyStartsOfLegacyGraph`.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { legacySites, lineOfRow, readLegacyLogFile } from '@pcp/graph-builder';
import { stripFragment } from './graph-index.ts';

export interface TagPosition {
  line: number;
  column: number;
}

/** Document URL (fragment stripped) -> where its network parser read the `<body>` start tag (the first one). */
export type BodyStarts = ReadonlyMap<string, TagPosition>;

interface BodyToken {
  doc?: unknown;
  comp?: unknown;
  row?: unknown;
  column?: unknown;
  tagName?: unknown;
  isStartTag?: unknown;
  isFragment?: unknown;
}

/**
 * The body start tags of a legacy log's text (one JSON record a line): the first `body` start token of
 * each document that the network parser read (`comp` "(nil)": not written by a script, not a fragment).
 * Lines that are not such records are skipped.
 */
export function bodyStartsOfLog(text: string): Map<string, TagPosition> {
  const out = new Map<string, TagPosition>();
  for (const line of text.split('\n')) {
    if (!line.includes('"ObjectHash"') || !line.includes('"body"')) continue;
    let t: BodyToken;
    try {
      t = (JSON.parse(line) as { ObjectHash?: BodyToken }).ObjectHash ?? {};
    } catch {
      continue;
    }
    if (t.tagName !== 'body' || Number(t.isStartTag) !== 1 || Number(t.isFragment) !== 0 || t.comp !== '(nil)') continue;
    if (typeof t.doc !== 'string' || !Number.isFinite(Number(t.row)) || !Number.isFinite(Number(t.column))) continue;
    const doc = stripFragment(t.doc);
    if (!out.has(doc)) out.set(doc, { line: lineOfRow(t.row), column: Math.max(0, Number(t.column)) });
  }
  return out;
}

/**
 * The body starts of a graph of the legacy corpus (`legacySites()`: its raw log beside it), else
 * undefined (a trace graph, a graph of elsewhere, no corpus on this machine).
 */
export function bodyStartsOfLegacyGraph(graphFile: string): BodyStarts | undefined {
  let sites;
  try {
    sites = legacySites();
  } catch {
    return undefined;
  }
  const site = sites.find((s) => s.graph === resolve(graphFile));
  if (!site || !existsSync(site.raw)) return undefined;
  return bodyStartsOfLog(readLegacyLogFile(site.raw).text);
}
