/**
 * What the importer takes from a reference graph's raw 2016 log (the patched-Chromium log the original
 * builder read): each network fetch with the body pieces as they arrived (`Resource`, `ReceivedChunk`)
 * the elements that named URLs (`Element`), where each document's `<body>` start tag was (`ObjectHash`) and
 * when the preload scanner asked for each URL (`Preload`).
 * The reference graphs keep none of it: their download chunks have bytes and no times, their resources no
 * request type, their parse chunks no tags. Read with the legacy-log adapter's own reader and handlers
 * (adapters/legacy-log), only those record kinds.
 *
 * Where the log is: `<corpus>/graphs/<slug>.json[.gz]` has `<corpus>/raw/<slug>.log[.gz]` (the layout of
 * ../shared/legacy-corpus, whose index.json pairs them; `legacyRawLogOf`).
 */
import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { decodeLegacyLog } from '../adapters/legacy-log/file.ts';
import { resourceHandler } from '../adapters/legacy-log/handlers/resources.ts';
import { tokenHandler } from '../adapters/legacy-log/handlers/tokens.ts';
import { RecordReader, linesOf } from '../adapters/legacy-log/reader.ts';
import type { RawComputation, RawElement, RawFrame, RawObjectHash, RawPreload, RawResource } from '../adapters/legacy-log/records.ts';
import { writtenScripts, type RawWrittenScript, type WrittenScriptRecords } from './legacy-written-scripts.ts';

/** One piece of a body as it arrived: ms on the reference graph's clock, bytes. */
export interface RawArrival {
  at: number;
  bytes: number;
}

export interface RawFetch {
  url: string;
  /** ms on the reference graph's clock (seconds from the first request, as the original builder counted). */
  sent: number;
  /** The requesting object's address (an element's `code`), '(nil)' for the preload scanner. */
  from: string;
  /** When the fetch ended (`Resource.recieveTime`), ms on the same clock. */
  received: number;
  arrivals: RawArrival[];
}

export interface RawPreloadUse {
  /** ms on the reference graph's clock. */
  at: number;
  /** The document whose scanner asked. */
  doc: string;
}

export interface RawElementUse {
  /** Lower case (the log has `IFRAME` for elements made by `createElement('IFRAME')`). */
  name: string;
  code: string;
  /** ms on the reference graph's clock. */
  at: number;
  /** How many URLs the element names (an element that fetches one names it alone). */
  urls: number;
}

/** Where the network parser read a tag: the log's 0-based row, its column. */
export interface RawTagPosition {
  row: number;
  column: number;
}

/** A raw log reduced to what the importer uses. */
export interface LegacyRawEvidence {
  /** Network fetches by URL, in send order. */
  fetches: Map<string, RawFetch[]>;
  /** Elements by each URL they name, in creation order. */
  elements: Map<string, RawElementUse[]>;
  /** Document URL (as logged) -> where its network parser read its first `<body>` start tag (`bodyStartOf`). */
  bodyStarts: Map<string, RawTagPosition>;
  /** URL -> when the preload scanner asked for it (`Preload` records) and for which document, in log order. */
  preloads: Map<string, RawPreloadUse[]>;
  /** `<script src>` tags another frame's computation wrote into an about: frame's document (legacy-written-scripts.ts). */
  writtenScripts?: RawWrittenScript[];
  /** Document URL (as logged) -> when its network parser read its first `<body>` start tag (the token's start), ms. */
  bodyParsedAt: Map<string, number>;
  /** The log it came from, for provenance. */
  source?: string;
}

const KINDS = new Set(['Resource', 'ReceivedChunk', 'Element', 'ObjectHash', 'Preload', 'Frame', 'Computation']);

/**
 * Where a token is a document's `<body>` start tag that the network parser read (the patched 2016
 * browser logged every token it produced: `tagName`, `row`, `column`, `isStartTag`; `comp` "(nil)": not
 * written by a script; not a fragment), else undefined. The legacy graphs keep parse chunks, not tags:
 * without it a synthesized document has no `<body>` tag and its parser stays in `<head>` until the first
 * image or frame tag: every script and style sheet before it is a head request, and Blink's resource
 * scheduler stays in its tight mode (low- and medium-priority requests held, two at most in flight) until
 * the body is inserted (`ResourceLoadScheduler::LoosenThrottlingPolicy`, called from
 * `Document::WillInsertBody`), where the 2016 browser's own scheduler (`ResourceScheduler`, which also held
 * delayable requests until the renderer reported the body) had long let them go.
 */
export function bodyStartOf(t: Partial<RawObjectHash>): RawTagPosition | undefined {
  if (t.tagName !== 'body' || Number(t.isStartTag) !== 1 || Number(t.isFragment) !== 0 || t.comp !== '(nil)') return undefined;
  const row = Number(t.row);
  const column = Number(t.column);
  return Number.isFinite(row) && Number.isFinite(column) ? { row, column: Math.max(0, column) } : undefined;
}

/** The evidence in a raw log's lines. Bad lines are skipped as the adapter skips them (warnings). */
export function legacyRawEvidence(lines: Iterable<string>, warnings: string[] = []): LegacyRawEvidence {
  const reader = new RecordReader(warnings);
  const resources = resourceHandler();
  const tokens = tokenHandler();
  const bodyStarts = new Map<string, RawTagPosition>();
  const bodySeconds = new Map<string, number>();
  const written: WrittenScriptRecords = { tags: [], frames: new Map(), computationFrames: new Map(), resources: [] };
  for (const line of lines) {
    const rec = reader.push(line);
    if (!rec || !KINDS.has(rec.kind)) continue;
    if (rec.kind === 'ObjectHash') {
      const t = rec.value as RawObjectHash;
      const at = bodyStartOf(t);
      if (at && !bodyStarts.has(t.doc)) {
        bodyStarts.set(t.doc, at);
        bodySeconds.set(t.doc, Number(t.startTime) > 0 ? Number(t.startTime) : Number(t.endTime));
      }
      if (t.tagName === 'script' && t.comp !== '(nil)') written.tags.push(t);
    } else if (rec.kind === 'Frame') {
      const f = rec.value as RawFrame;
      written.frames.set(f.code, f);
    } else if (rec.kind === 'Computation') {
      const c = rec.value as RawComputation;
      written.computationFrames.set(c.code, c.frame);
    } else (rec.kind === 'Element' || rec.kind === 'Preload' ? tokens : resources).handleEvent(rec);
  }
  reader.finish();
  resources.finalize();
  tokens.finalize();
  const { resources: raw, chunks } = resources.data();
  // The reference graphs count seconds from the first request (the main document's).
  const t0 = raw.reduce((m, r) => Math.min(m, r.sentTime), Infinity);
  const ms = (t: number): number => (t - t0) * 1000;
  const fetches = new Map<string, RawFetch[]>();
  for (const r of raw as RawResource[]) {
    const f: RawFetch = { url: r.url, sent: ms(r.sentTime), from: r.from, received: ms(r.recieveTime), arrivals: (chunks.get(r.id) ?? []).map((c) => ({ at: ms(c.receivedTime), bytes: c.len })) };
    (fetches.get(r.url) ?? fetches.set(r.url, []).get(r.url)!).push(f);
  }
  const elements = new Map<string, RawElementUse[]>();
  for (const e of tokens.data().elements as RawElement[]) {
    for (const url of e.urls ?? []) (elements.get(url) ?? elements.set(url, []).get(url)!).push({ name: e.name.toLowerCase(), code: e.code, at: ms(e.startTime), urls: e.urls.length });
  }
  const preloads = new Map<string, RawPreloadUse[]>();
  for (const p of tokens.data().preloads as RawPreload[]) (preloads.get(p.url) ?? preloads.set(p.url, []).get(p.url)!).push({ at: ms(p.time), doc: p.docUrl });
  const bodyParsedAt = new Map([...bodySeconds].filter(([, t]) => Number.isFinite(t) && t > 0).map(([doc, t]) => [doc, ms(t)]));
  written.resources = raw;
  return { fetches, elements, bodyStarts, preloads, bodyParsedAt, writtenScripts: writtenScripts(written, ms) };
}

/** The raw log of a reference graph file, by the corpus layout; undefined when there is none. */
export function legacyRawLogOf(graphPath: string): string | undefined {
  const slug = basename(graphPath).replace(/\.json(\.gz)?$/, '');
  if (slug === basename(graphPath)) return undefined;
  const rawDir = join(dirname(resolve(graphPath)), '..', 'raw');
  return [`${slug}.log.gz`, `${slug}.log`].map((f) => join(rawDir, f)).find((p) => existsSync(p));
}

/** The evidence of a raw log file (gzip or plain). */
export function readLegacyRawEvidence(path: string, warnings: string[] = []): LegacyRawEvidence {
  const { text, warnings: w } = decodeLegacyLog(readFileSync(path));
  warnings.push(...w);
  return { ...legacyRawEvidence(linesOf(text), warnings), source: path };
}

/** The fetch of `url` sent nearest `sentMs` (within `toleranceMs`). */
export function fetchOf(ev: LegacyRawEvidence, url: string, sentMs: number, toleranceMs = 2): RawFetch | undefined {
  let best: RawFetch | undefined;
  for (const f of ev.fetches.get(url) ?? []) if (Math.abs(f.sent - sentMs) <= toleranceMs && (!best || Math.abs(f.sent - sentMs) < Math.abs(best.sent - sentMs))) best = f;
  return best;
}
