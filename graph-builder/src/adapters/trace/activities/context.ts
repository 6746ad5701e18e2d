/**
 * What the phases of traceToActivities share: the load and options, the ids given to frames, requests
 * and documents, the lookups between them, and what each phase leaves for the next (the slices that are
 * computations, each request's pending cause, the token keys the documents must hold).
 */
import type { Cause } from '../../../model/types.ts';
import type { Slice, TraceLoad, TraceRequest } from '../load.ts';
import { findTag, tagRefs, type TagRef } from '../tags.ts';

/** Parser-initiator positions of requests, from the DevTools log (it names iframe documents' tags). */
export type ExtraInitiators = Map<string, { url: string; line: number; column: number }>;

export interface TraceAdapterOptions {
  extraInitiators?: ExtraInitiators;
  /** HTML source of documents by url (the profiler's documents.json): tags' true positions. */
  documentSources?: Map<string, string>;
  browserVersion?: string;
  /**
   * When the browser began each frame's navigation (the DevTools log's requestWillBeSent of a frame's
   * document, ms on the trace's clock), keyed `frameDocumentKey(frame, url)`: a frame document's request side.
   */
  frameDocumentRequests?: Map<string, number>;
}

/** The key of TraceAdapterOptions.frameDocumentRequests. */
export const frameDocumentKey = (frame: string, url: string): string => `${frame}\n${url}`;

/** A token a cause points at, before its document's tokens are built and numbered. */
export interface TokenKey {
  doc: string;
  line: number;
  column: number;
  tag: string;
  /** A time the parser must have reached the tag by (a script it ran starts after). */
  bound?: number;
}

/** A cause whose token is not numbered yet. */
export type PendingCause = Cause | TokenKey;
export const isTokenKey = (c: PendingCause): c is TokenKey => !('kind' in c);

/** What owns work at a slice: the innermost computation, or a parse slice (the parser's own work). */
export interface Owner {
  comp?: string;
  parse?: Slice;
}

/** The same document, ignoring the fragment. */
export function sameDoc(a: string, b: string): boolean {
  return a.split('#')[0] === b.split('#')[0];
}

export class ActivityContext {
  readonly slices: Slice[];
  /** The page's requests: Chromium's own after the load (the favicon) are left out. */
  readonly requests: TraceRequest[];
  readonly resId: Map<TraceRequest, string>;
  /** Each frame's document: its last Document request (an iframe first commits about:blank). */
  readonly docRequest = new Map<string, TraceRequest>();
  private readonly frameIds: Map<string, string>;
  private readonly refsOf = new Map<string, TagRef[]>();

  // Left by the phases, in order.
  /** Slice index -> computation id, for the slices that are computations (select.ts). */
  readonly compOfSlice = new Map<number, string>();
  readonly compSlices: Slice[] = [];
  /** Every token a cause points at (request-causes.ts, computations.ts). */
  readonly tokenKeys: TokenKey[] = [];
  /** Each request's cause (request-causes.ts). */
  readonly issued = new Map<TraceRequest, PendingCause>();
  /** Requests for markup a script wrote (document.write). */
  readonly writtenRequests = new Set<TraceRequest>();

  constructor(
    readonly load: TraceLoad,
    readonly options: TraceAdapterOptions,
    readonly warnings: string[],
  ) {
    this.slices = load.slices;
    this.frameIds = new Map(load.frames.map((f, i) => [f.id, String(i)]));
    this.requests = load.requests.filter((r) => !(r.initiator?.type === 'other' && /\/favicon\.ico(\?|$)/.test(r.url)));
    this.resId = new Map(this.requests.map((r, i) => [r, `download_${i}`]));
    for (const r of this.requests) if (r.resourceType === 'Document' && this.frameIds.has(r.frame)) this.docRequest.set(r.frame, r);
  }

  /** The model's id of a trace frame ("0", the main frame, for an unknown one). */
  fid(traceFrame: string | undefined): string {
    return this.frameIds.get(traceFrame ?? '') ?? '0';
  }

  docId(traceFrame: string): string {
    return `doc_${this.fid(traceFrame)}`;
  }

  /** The document of `url`: the frame's own when it matches, else any frame's. */
  docOfUrl(url: string, traceFrame: string): string | undefined {
    const d = this.docRequest.get(traceFrame);
    if (d && sameDoc(d.url, url)) return this.docId(traceFrame);
    for (const [f, r] of this.docRequest) if (sameDoc(r.url, url)) return this.docId(f);
    return undefined;
  }

  parentFrame(traceFrame: string): string | undefined {
    return this.load.frames.find((f) => f.id === traceFrame)?.parent ?? undefined;
  }

  /** Innermost computation or parse slice at or above a slice. */
  ownerOf(index: number | undefined): Owner {
    for (let i = index; i !== undefined; i = this.slices[i]!.parent) {
      const c = this.compOfSlice.get(i);
      if (c) return { comp: c };
      if (this.slices[i]!.kind === 'parse') return { parse: this.slices[i]! };
    }
    return {};
  }

  /** A new token key (the token is built with its document). */
  tokenAt(doc: string, line: number, column: number, tag: string, bound?: number): TokenKey {
    const k: TokenKey = { doc, line, column, tag, ...(bound !== undefined ? { bound } : {}) };
    this.tokenKeys.push(k);
    return k;
  }

  /** The document's src/href tags, parsed once; undefined when its source is unknown. */
  private refsFor(docUrl: string): TagRef[] | undefined {
    const source = this.options.documentSources?.get(docUrl.split('#')[0]!);
    if (source === undefined) return undefined;
    let refs = this.refsOf.get(docUrl);
    if (!refs) this.refsOf.set(docUrl, (refs = tagRefs(source, docUrl)));
    return refs;
  }

  /** A tag's true position in its document when the source is known (see tags.ts), else the reported one. */
  tagPosition(docUrl: string, url: string, line: number, column: number): { line: number; column: number } {
    const refs = this.refsFor(docUrl);
    const tag = refs && findTag(refs, url, line, column);
    return tag ? { line: tag.line, column: tag.column } : { line, column };
  }

  /** Whether the document's source (when known) has a tag for `url`; true when the source is unknown. */
  inSource(docUrl: string, url: string): boolean {
    return this.refsFor(docUrl)?.some((t) => t.url === url.split('#')[0]) ?? true;
  }
}
