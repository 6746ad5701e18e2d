/**
 * Blink's resource load scheduler in "tight" mode (third_party/blink/renderer/platform/loader/fetch/
 * resource_load_scheduler.cc). Each document's fetcher starts tight and loosens when the parser is about to
 * insert <body> (Document::WillInsertBody). While tight, a throttleable request whose priority is below High
 * (async and defer scripts, images, ... — Medium, Low, VeryLow) starts only while fewer than
 * TIGHT_LIMIT (2) throttleable requests of that document are in flight; the rest wait in a queue ordered by
 * priority, then request order. High and VeryHigh requests (stylesheets, parser-blocking scripts, fonts)
 * start at once but count as in flight. XHR, fetch() and other raw requests are not throttleable. Loosening
 * releases every waiting request. This is what keeps delayable requests back while the parser is in the head.
 *
 * Only resources whose browser priority the graph records (Chrome traces) are scheduled; graphs without it
 * (legacy logs) are unaffected.
 */
import { K_PARSE, type PageModel } from '../page-model.ts';

/** Blink's kTightLimitForRendererSideResourceScheduler. */
export const TIGHT_LIMIT = 2;
/** Chromium's ResourceLoadPriority High, as the page model numbers priorities (VeryLow 0 .. VeryHigh 4). */
export const PRIO_HIGH = 3;

export class ResourceScheduler {
  private readonly tight: Uint8Array;
  private readonly running: Int32Array;
  private readonly waiting: number[][];
  private readonly counted: Uint8Array;
  private seq = 0;
  private readonly order: Int32Array;

  constructor(
    private readonly m: PageModel,
    /** Starts a request (the simulator's network issue). */
    private readonly start: (node: number, now: number) => void,
  ) {
    this.tight = new Uint8Array(m.frames.length);
    for (let f = 0; f < m.frames.length; f++) if (m.bodyChunk[f]! >= 0) this.tight[f] = 1;
    this.running = new Int32Array(m.frames.length);
    this.waiting = m.frames.map(() => []);
    this.counted = new Uint8Array(m.n);
    this.order = new Int32Array(m.n);
  }

  /** A request is made: start it now, or hold it while its document is tight. */
  request(r: number, now: number): void {
    const m = this.m;
    const info = m.res[m.resOf[r]!]!;
    if (info.browserPriority < 0 || !info.throttleable) {
      this.start(r, now);
      return;
    }
    const f = m.frame[r]!;
    this.order[r] = this.seq++;
    if (this.tight[f] && info.browserPriority < PRIO_HIGH && this.running[f]! >= TIGHT_LIMIT) {
      this.waiting[f]!.push(r);
      return;
    }
    this.run(r, f, now);
  }

  /** The response of a request this scheduler started has been received in full. */
  finished(r: number, now: number): void {
    if (!this.counted[r]) return;
    this.counted[r] = 0;
    const f = this.m.frame[r]!;
    this.running[f]!--;
    this.drain(f, now);
  }

  /** A computation starts: a parse chunk that inserts <body> loosens its document. */
  computationStarts(node: number, now: number): void {
    const m = this.m;
    if (m.kind[node] !== K_PARSE) return;
    const f = m.frame[node]!;
    if (!this.tight[f] || m.bodyChunk[f] !== node) return;
    this.tight[f] = 0;
    this.drain(f, now);
  }

  private run(r: number, f: number, now: number): void {
    this.counted[r] = 1;
    this.running[f]!++;
    this.start(r, now);
  }

  private drain(f: number, now: number): void {
    const w = this.waiting[f]!;
    if (w.length === 0) return;
    const m = this.m;
    const prio = (r: number): number => m.res[m.resOf[r]!]!.browserPriority;
    w.sort((a, b) => prio(b) - prio(a) || this.order[a]! - this.order[b]!);
    while (w.length > 0 && (!this.tight[f] || this.running[f]! < TIGHT_LIMIT)) this.run(w.shift()!, f, now);
  }
}
