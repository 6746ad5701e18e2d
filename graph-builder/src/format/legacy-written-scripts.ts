/**
 * Scripts another frame's computation wrote into an about: frame's document, from a reference graph's raw
 * log. 2016 ad code (GPT's pubads, adform, AdSense, rubicon) made an about:blank iframe, opened its document
 * and wrote `<html><body>`, inline scripts and a `<script src>` into it: the patched browser logged the tag
 * (`ObjectHash`) in the about: frame with the writer's computation (`comp`, a `Computation` of another
 * frame). Such a frame stays loading until the written script has run (www.ndtv.com's `gampad/ads`: its
 * tag at 7,005 ms in frame 385, whose document is the about:blank `Resource` 4322 (`Frame.id`); the frame's
 * load at 8,043 ms, 0.2 ms after the script's run), and the page's load waits for it. The reference graph
 * keeps neither the tag nor which about: frame it went into (the script's evaluation is in that frame, whose
 * resource the graph does not name). On the 64 legacy graphs: 20 scripts on 9 graphs (nametests 2, bild 1,
 * livejournal 2, ndtv 1, ruten 3, thesaurus 2, wikia 5, aliexpress 1, sahibinden 3). Not so: tags the about:
 * frame's own parser read (`comp` "(nil)": srcdoc documents of adform, stripe, translate), www.gsmarena.com's 2
 * written after their frames had loaded (nothing waited for them), reddit's (an HTML frame's URL, no script
 * fetch), thesaurus's second `10952.js` (no fetch of the tag's element). `extra.writtenInto` on the script's resource names the about: resource and when the tag
 * was written; the synthesizer writes it there (synth/src/written-scripts.ts). Pure.
 */
import type { GraphNode } from './types.ts';

/** A `<script src>` tag written into an about: frame's document, ms on the reference graph's clock. */
export interface RawWrittenScript {
  url: string;
  /** The tag was parsed (`ObjectHash.startTime`). */
  at: number;
  /** The script's fetch went out (the `Resource` its element requested); undefined when none was sent (a cache hit). */
  sent?: number;
  /** The about: frame's document (`Frame.id`'s `Resource`). */
  document: { url: string; sent: number };
}

/** `extra.writtenInto` of a written script's resource node. */
export interface WrittenInto {
  /** The about: resource (graph node id) whose frame's document the tag was written into. */
  document: string;
  /** When the tag was parsed there (ms on the graph's clock). */
  at: number;
}

/** The log's records a written script is read from (as logged: seconds). */
export interface WrittenScriptRecords {
  tags: Array<{ code: string; comp: string; frame: string; tagName: string; isStartTag: number; startTime: number; urls?: string[] }>;
  frames: Map<string, { id: number; loadTime: number }>;
  /** Computation code -> its frame. */
  computationFrames: Map<string, string>;
  resources: Array<{ id: number; url: string; sentTime: number; from: string }>;
}

/** Node and raw times agree within this (the log's times are µs; the graph's are rounded to ms). */
const TOLERANCE_MS = 2;

/**
 * The `<script src>` tags a computation of another frame wrote into an about: frame's document that kept
 * that frame loading (its load at or after the tag); `ms` turns the log's seconds into the graph's clock.
 */
export function writtenScripts(rec: WrittenScriptRecords, ms: (seconds: number) => number): RawWrittenScript[] {
  const byId = new Map(rec.resources.map((r) => [r.id, r]));
  const out: RawWrittenScript[] = [];
  for (const t of rec.tags) {
    if (t.tagName !== 'script' || Number(t.isStartTag) !== 1 || !t.urls?.length || t.comp === '(nil)') continue;
    const frame = rec.frames.get(t.frame);
    const doc = frame && byId.get(frame.id);
    if (!frame || !doc || !/^about:/i.test(doc.url)) continue;
    const writer = rec.computationFrames.get(t.comp);
    if (writer === undefined || writer === t.frame) continue;
    if (frame.loadTime < t.startTime) continue;
    // The fetch the tag's element made (an element's address can be reused: the nearest of its URL).
    const fetch = rec.resources
      .filter((r) => r.from === t.code && r.url === t.urls![0])
      .sort((a, b) => Math.abs(a.sentTime - t.startTime) - Math.abs(b.sentTime - t.startTime))[0];
    out.push({ url: t.urls[0]!, at: ms(t.startTime), ...(fetch ? { sent: ms(fetch.sentTime) } : {}), document: { url: doc.url, sent: ms(doc.sentTime) } });
  }
  return out;
}

/** The resource node of `url` that started at `at` (within the tolerance), nearest first. */
function resourceAt(nodes: GraphNode[], url: string, at: number): GraphNode | undefined {
  let best: GraphNode | undefined;
  for (const n of nodes) {
    if (n.kind !== 'resource' || n.url !== url || Math.abs(n.start - at) > TOLERANCE_MS) continue;
    if (!best || Math.abs(n.start - at) < Math.abs(best.start - at)) best = n;
  }
  return best;
}

/** `extra.writtenInto` on the resource of every written script whose fetch and about: document the graph has. */
export function addWrittenScripts(nodes: GraphNode[], written: RawWrittenScript[]): void {
  for (const w of written) {
    if (w.sent === undefined) continue;
    const script = resourceAt(nodes, w.url, w.sent);
    const doc = resourceAt(nodes, w.document.url, w.document.sent);
    if (!script || !doc) continue;
    const into: WrittenInto = { document: doc.id, at: Math.round(w.at * 1000) / 1000 };
    script.extra = { ...script.extra, writtenInto: into };
  }
}
