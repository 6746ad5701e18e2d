/**
 * What the trace adapter extracts from a trace (TraceLoad: in page time, ms since the main document's
 * request) and what it takes beside the trace (ExtractOptions). Built by the handlers (./handlers/),
 * turned into the activity model by ./activities/.
 */
import type { CallFrame } from './trace-events.ts';
import type { LoggedDocument } from './logged-documents.ts';

export type { CallFrame } from './trace-events.ts';

export type SliceKind = 'parse' | 'script' | 'function' | 'timer' | 'event' | 'xhr' | 'style' | 'layout' | 'microtask';

export interface Slice {
  /** Index in TraceLoad.slices. */
  index: number;
  kind: SliceKind;
  name: string;
  frame?: string;
  url?: string;
  /** 1-based (trace lines are 0-based for ParseHTML and parser initiators, 1-based for scripts). */
  line?: number;
  column?: number;
  start: number;
  end: number;
  thread: string;
  /** Innermost enclosing activity slice on the same thread. */
  parent?: number;
  timerId?: string;
  eventType?: string;
  readyState?: number;
  functionName?: string;
  scriptId?: string;
  /** ParseHTML: bytes of HTML this slice consumed. */
  parsedBytes?: number;
  /** ParseHTML run from script (its begin data has a stack): document.write's markup, or a fragment's (innerHTML). */
  scripted?: boolean;
  /** An event dispatched to the window that the trace does not show (an uncaught exception's error). */
  windowTarget?: boolean;
  /**
   * The slice runs as an async task that nothing on its own thread encloses more tightly: the activity
   * slice that scheduled the task (see flows.ts), when, and the task's name ('postMessage', 'Image', ...).
   */
  scheduledBy?: number;
  scheduledAt?: number;
  asyncTask?: string;
  /** Set with scheduledBy when a posted-task flow (not an async task) links the slice to its scheduler. */
  postedFrom?: string;
}

export interface Initiator {
  type: string;
  url?: string;
  /** 1-based. */
  line?: number;
  column?: number;
  fetchType?: string;
  stack?: CallFrame[];
}

export interface TraceRequest {
  requestId: string;
  url: string;
  frame: string;
  resourceType: string;
  method: string;
  priority?: string;
  /** The application protocol of the response (the trace's ResourceReceiveResponse: http/1.1, h2, h3). */
  protocol?: string;
  initiator?: Initiator;
  send: number;
  response?: number;
  finish?: number;
  chunks: Array<{ time: number; bytes: number }>;
  encodedLength: number;
  decodedLength: number;
  failed: boolean;
  fromCache: boolean;
  status: number;
  mimeType: string;
  /** The activity slice running on the renderer's main thread when the request was issued. */
  runningAt?: number;
  renderBlocking?: string;
  /**
   * The network service's side of the exchange (ResourceReceiveResponse's `timing`, ResourceFinish's
   * `finishTime`), page ms: the request written to the socket, the response headers read, the body's
   * end; `connect` is the connection set-up it waited for (DNS, TCP, TLS), ms; `handshake`, when it opened a
   * connection, that connection's TCP and TLS handshakes (`connectStart` to `connectEnd`, DNS excluded), ms.
   */
  network?: { sent: number; headers: number; connect: number; handshake?: number; finish?: number };
  /** When the renderer handed the request to the network service (ThrottlingURLLoader::StartNow), page ms. */
  released?: number;
  /** The URLs it was sent under before redirects, first first (`url` is the last). */
  redirectedFrom?: string[];
}

/**
 * Whether the request is the one the browser made for `url`: its last URL or one it was redirected from
 * (an http script on an HSTS-preloaded host is re-sent as https, and its evaluation still names the http URL).
 */
export const requestFor = (r: TraceRequest, url: string): boolean => r.url === url || (r.redirectedFrom?.includes(url) ?? false);

export interface TimerInstall {
  timerId: string;
  frame?: string;
  timeout: number;
  singleShot: boolean;
  time: number;
  runningAt?: number;
  stack?: CallFrame[];
}

export interface FrameInfo {
  id: string;
  parent: string | null;
  url: string;
}

export interface Mark {
  frame: string;
  name: 'domContentLoaded' | 'load';
  time: number;
  /** The renderer thread that set it (`pid:tid`, as slices' `thread`). */
  thread?: string;
}

export interface TraceLoad {
  /** Trace clock (µs) of the main document's request: time 0 of the page. */
  origin: number;
  mainFrame: string;
  frames: FrameInfo[];
  requests: TraceRequest[];
  slices: Slice[];
  timers: TimerInstall[];
  marks: Mark[];
  /** The main frame's renderer main thread's top-level tasks, [start, end] ms (handlers/main-thread-tasks.ts). */
  mainThreadTasks?: Array<[number, number]>;
  warnings: string[];
}

/** An uncaught exception the DevTools log reported, on the trace clock (µs). */
export interface UncaughtException {
  ts: number;
  url: string;
  /** 1-based. */
  line: number;
  scriptId?: string;
}

export interface ExtractOptions {
  /**
   * Frame id -> parent frame id, from the profiler's frames.json. Out-of-process iframes commit in their
   * own renderer, whose CommitLoad names no parent; without this they hang off the main frame.
   */
  frameParents?: Map<string, string | null>;
  /** The frames frames.json marks out of process (own renderer): a message from one has no trace link to its handler. */
  outOfProcessFrames?: Set<string>;
  /**
   * Uncaught exceptions: each fires the window's error event inside the script that threw, a dispatch
   * the trace does not show (see errorDispatches).
   */
  exceptions?: UncaughtException[];
  /** Listeners on frames' windows (the profiler's listeners.json): which handlers are the window's. */
  windowListeners?: WindowListener[];
  /** Frames' document requests from the DevTools log: for a page frame whose document the trace lacks. */
  loggedDocuments?: LoggedDocument[];
}

/** A listener on a frame's window, at its handler's position (1-based, as FunctionCall reports it). */
export interface WindowListener {
  frame: string;
  type: string;
  scriptId: string;
  line: number;
  column: number;
  useCapture: boolean;
}
