/**
 * The activity model: what a page load did, independent of where the record came from (patched-Chromium
 * legacy logs today, stock Chromium traces later). Input adapters produce it; the rule engine
 * (src/rules) turns it into a v1 graph. See README.md beside this file.
 *
 * Every link is an explicit id, resolved by the adapter (pointers, trace ids...), so the rules never see
 * source-specific identifiers. All times are ms since navigation start.
 */
import type { BrowserDelay } from '../format/types.ts';

/** Why an activity happened: the parsed token that declared it, or the computation that caused it. */
export type Cause =
  /** "declared by": token `token` (index into Document.tokens) of document `doc`. */
  | { kind: 'token'; doc: string; token: number }
  /** "issued by" / "registered by" / "created by": computation `id`, at time `at` (ms) within it. */
  | { kind: 'computation'; id: string; at: number }
  | { kind: 'none' };

export const NO_CAUSE: Cause = { kind: 'none' };

export interface FrameActivity {
  id: string;
  url: string;
  parent: string | null;
  /** "document of frame": the resource holding this frame's HTML, when known. */
  document?: string;
  /** Time the browser reported the frame's load (ms), when known. */
  loadTime?: number;
}

/** A byte arrival of a resource body. */
export interface Arrival {
  time: number;
  bytes: number;
}

export interface ResourceActivity {
  id: string;
  url: string;
  frame: string;
  start: number;
  end: number;
  responseStart?: number;
  /** A frame's document: when the browser began the frame's navigation (the DevTools log's request), page ms. */
  navigationRequest?: number;
  mimeType: string;
  size: number;
  method: string;
  status: number;
  cached: boolean;
  /** For a memory-cache hit: the network resource it reuses. */
  originalResource?: string;
  /** The browser's request type when the source says (Chromium: Document, Stylesheet, Script, Image, Font, XHR, Fetch, Media, ...). */
  requestType?: string;
  /** The browser's own request priority when the source says (Chromium: VeryHigh, High, Medium, Low, VeryLow). */
  browserPriority?: string;
  /** The response's application protocol when the source says (Chromium: http/1.1, h2, h3). */
  protocol?: string;
  /** Time the browser itself spent on the exchange, beside the network's (see BrowserDelay in format/types.ts). */
  browserDelay?: BrowserDelay;
  issuedBy: Cause;
  arrivals: Arrival[];
  /** Where the input described it (e.g. a log line), for messages. */
  sourceLine?: number;
}

/** One parsed HTML token of a document (the parser's progress marks). */
export interface Token {
  line: number;
  column: number;
  tag: string;
  isStartTag: boolean;
  start: number;
  end: number;
  /** Byte offset of the token in the document. */
  offset: number;
  /**
   * Milliseconds of the parser's own work on the document before this token (nested computations and
   * waits excluded), when the source tells it (the trace adapter: from its parse slices; legacy logs: the
   * sum of the earlier tokens' spans); a parse chunk lasts the work from its first token through its
   * last. Absent: a chunk spans its tokens.
   */
  work?: number;
}

/** An HTML document parsed in a frame: its tokens in parse order. */
export interface DocumentActivity {
  id: string;
  frame: string;
  url: string;
  /** The resource carrying its bytes, when downloaded. */
  resource?: string;
  tokens: Token[];
  /**
   * Token offsets count the parser's whole input, bytes document.write inserted included (legacy logs:
   * they run past the document's length), so a download chunk's bytes are its tokens' span, the chunks
   * laid end to end from the first token. Absent: offsets are the document's own bytes.
   */
  offsetsIncludeWrites?: boolean;
}

export type ComputationKind = 'ScriptEval' | 'CssEval' | 'Timer' | 'Event';
export type ScriptKindM = 'sync' | 'async' | 'defer' | 'module' | 'inline' | 'write';

export interface ComputationActivity {
  id: string;
  kind: ComputationKind;
  frame: string;
  docUrl: string;
  start: number;
  end: number;
  /**
   * What made it run: for scripts declared in HTML, the token after which it ran ("element of");
   * for scripts inserted by script, timers and element events, the computation that created or
   * registered them ("registered by").
   */
  triggeredBy: Cause;
  /** The resource whose content it evaluates (external script, stylesheet). */
  source?: string;
  /** Parser-blocking: the document's next parse chunk waits for it (Rule 4). */
  blocksParser?: boolean;
  scriptUrl?: string;
  scriptKind?: ScriptKindM;
  styleUrl?: string;
  timerId?: string;
  timerDelay?: number;
  eventName?: string;
  eventTarget?: string;
  /** Resources the event reports on (e.g. img load: the image), "element of". */
  eventSubjects?: string[];
  /** Document readystatechange: the state entered, when the source says. */
  readyState?: 'interactive' | 'complete';
  /** The previous event dispatched to the same target object (e.g. an XHR's earlier readystatechange). */
  previousOnTarget?: string;
  /** Where the input described it (e.g. a log line), for messages. */
  sourceLine?: number;
}

export interface Activities {
  page: string;
  frames: FrameActivity[];
  resources: ResourceActivity[];
  documents: DocumentActivity[];
  computations: ComputationActivity[];
  /** The main frame's completion times as the browser reported them, ms. */
  domContentLoaded?: number;
  load?: number;
  /** Where the page's clock sits in the navigation, when the source says (ms on the page's clock). */
  navigation?: NavigationTimes;
  /** The main frame's main thread's top-level tasks, [start, end] ms, when the source has them. */
  mainThreadTasks?: Array<[number, number]>;
  browserVersion?: string;
}

/** The main frame's navigation on the page's clock (ms; negative before time 0). */
export interface NavigationTimes {
  /** The navigation's start (Navigation Timing's time origin). */
  navigationStart: number;
  /** The browser sent the main document's request / received its response headers. */
  documentRequest?: number;
  documentResponse?: number;
  /**
   * The main frame's load event began (Navigation Timing's `loadEventStart` mark): the window's load
   * handlers run after it, and the trace's `MarkLoad` (the graph's `load`) is written when they have.
   */
  loadEventStart?: number;
}
