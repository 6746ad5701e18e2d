/**
 * The trace events the adapter reads, typed as Chromium 156 writes them, with guards by name (and phase
 * where it matters). A trace is input: field values are still read through `text` / `finite`, which
 * accept what Chromium writes (ids as numbers or strings) and drop anything else.
 */
import type { TraceEvent } from './reader.ts';

export type { TraceEvent } from './reader.ts';

/** A string field (a number is taken as its decimal text: Chromium writes some ids as numbers). */
export function text(v: unknown): string | undefined {
  return typeof v === 'string' ? v : typeof v === 'number' ? String(v) : undefined;
}

/** A finite number field. */
export function finite(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

/** The thread an event ran on: `pid:tid`. */
export function threadOf(e: TraceEvent): string {
  return `${e.pid}:${e.tid}`;
}

/** A frame of a stack trace as the trace writes it (0-based positions). */
export interface RawCallFrame {
  url?: string;
  lineNumber?: number;
  columnNumber?: number;
  functionName?: string;
  scriptId?: string | number;
}

export interface CallFrame {
  url: string;
  line: number;
  column: number;
  functionName: string;
  scriptId?: string;
}

/** Trace stack frames are 1-based (DevTools protocol call frames are 0-based: pass base 0). */
export function callFrames(v: unknown, base: 0 | 1 = 1): CallFrame[] | undefined {
  if (!Array.isArray(v)) return undefined;
  return v.map((f: RawCallFrame) => ({
    url: text(f.url) ?? '',
    line: (finite(f.lineNumber) ?? 0) + 1 - base,
    column: (finite(f.columnNumber) ?? 0) + 1 - base,
    functionName: text(f.functionName) ?? '',
    ...(text(f.scriptId) ? { scriptId: text(f.scriptId) } : {}),
  }));
}

/** Pages the browser itself shows (WebUI, DevTools, extensions): never the page's. */
export const IGNORED_URL = /^(chrome|devtools|chrome-extension|chrome-untrusted):/;

type WithData<Name extends string, Data> = TraceEvent & { name: Name; args?: { data?: Data } };

/** Payload of `data` (renderer events), or `{}` when the event has none. */
function argsData<D>(e: { args?: { data?: D } }): Partial<D> {
  return e.args?.data ?? {};
}

// --- Network.

export interface RawInitiator {
  type?: string;
  url?: string;
  lineNumber?: number;
  columnNumber?: number;
  fetchType?: string;
  stack?: { callFrames?: RawCallFrame[] };
}

export interface SendRequestData {
  requestId: string;
  url: string;
  frame: string;
  resourceType: string;
  requestMethod: string;
  priority: string;
  renderBlocking: string;
  initiator: RawInitiator;
  stackTrace: RawCallFrame[];
}
export interface ReceiveResponseData {
  requestId: string;
  statusCode: number;
  mimeType: string;
  fromCache: boolean;
  fromMemoryCache: boolean;
  /** The application protocol: http/1.1, h2, h3 (Chromium writes it since about version 110). */
  protocol: string;
  /** The network service's timing: `requestTime` in s on the trace clock, the rest ms after it (-1: none). */
  timing: Partial<Record<'requestTime' | 'sendStart' | 'receiveHeadersEnd' | 'dnsStart' | 'dnsEnd' | 'connectStart' | 'connectEnd', number>>;
}
export interface ReceivedDataData {
  requestId: string;
  encodedDataLength: number;
}
export interface ResourceFinishData {
  requestId: string;
  didFail: boolean;
  encodedDataLength: number;
  decodedBodyLength: number;
  /** When the network service finished the body, s on the trace clock (0: unknown). */
  finishTime: number;
}

export type ResourceSendRequest = WithData<'ResourceSendRequest', SendRequestData>;
export type ResourceReceiveResponse = WithData<'ResourceReceiveResponse', ReceiveResponseData>;
export type ResourceReceivedData = WithData<'ResourceReceivedData', ReceivedDataData>;
export type ResourceFinish = WithData<'ResourceFinish', ResourceFinishData>;
export type NetworkEvent = ResourceSendRequest | ResourceReceiveResponse | ResourceReceivedData | ResourceFinish;

export const NETWORK_EVENTS = ['ResourceSendRequest', 'ResourceReceiveResponse', 'ResourceReceivedData', 'ResourceFinish'] as const;
export const isResourceSendRequest = (e: TraceEvent): e is ResourceSendRequest => e.name === 'ResourceSendRequest';
export const isNetworkEvent = (e: TraceEvent): e is NetworkEvent => (NETWORK_EVENTS as readonly string[]).includes(e.name);
export const sendRequestData = (e: ResourceSendRequest) => argsData(e);
export const networkData = (e: NetworkEvent): Partial<SendRequestData & ReceiveResponseData & ReceivedDataData & ResourceFinishData> => argsData<object>(e);

// --- Frames.

export interface CommitData {
  frame: string;
  url: string;
  parent: string;
  isMainFrame: boolean;
}
/** A frame committed a document: `CommitLoad` in its renderer, `FrameCommittedInBrowser` in the browser. */
export type FrameCommit = WithData<'CommitLoad' | 'FrameCommittedInBrowser', CommitData>;
export const FRAME_COMMITS = ['CommitLoad', 'FrameCommittedInBrowser'] as const;
export const isFrameCommit = (e: TraceEvent): e is FrameCommit => e.name === 'CommitLoad' || e.name === 'FrameCommittedInBrowser';
export const commitData = (e: FrameCommit) => argsData(e);

// --- Main-thread slices.

/** What the activity slices' payloads (`data`, or `beginData` for ParseHTML, Layout, UpdateLayoutTree) hold. */
export interface SlicePayload {
  frame: string;
  url: string;
  styleSheetUrl: string;
  startLine: number;
  lineNumber: number;
  columnNumber: number;
  timerId: string | number;
  type: string;
  readyState: number;
  functionName: string;
  scriptId: string | number;
  /** ParseHTML run from script (document.write, innerHTML, a fragment parse): the script's stack. */
  stackTrace: RawCallFrame[];
}
export type SliceEvent = TraceEvent & { args?: { data?: SlicePayload; beginData?: SlicePayload; parsed_bytes?: number } };

/** A slice's payload: `data`, else `beginData`, else `{}`. */
export function sliceData(e: SliceEvent): Partial<SlicePayload> {
  return e.args?.data ?? e.args?.beginData ?? {};
}

/** The events whose `frame` shows which threads are the page's renderer main threads. */
export const FRAME_WORK = ['ResourceSendRequest', 'ParseHTML', 'EvaluateScript'] as const;

/** Complete (X) events: slices with a duration. */
export const isComplete = (e: TraceEvent): boolean => e.ph === 'X';

// --- Timers and marks.

export interface TimerInstallData {
  frame: string;
  timerId: string | number;
  timeout: number;
  singleShot: boolean;
  stackTrace: RawCallFrame[];
}
export type TimerInstallEvent = WithData<'TimerInstall', TimerInstallData>;
export const isTimerInstall = (e: TraceEvent): e is TimerInstallEvent => e.name === 'TimerInstall';
export const timerInstallData = (e: TimerInstallEvent) => argsData(e);

export type MarkEvent = WithData<'MarkDOMContent' | 'MarkLoad', { frame: string }>;
export const MARKS = ['MarkDOMContent', 'MarkLoad'] as const;
export const isMark = (e: TraceEvent): e is MarkEvent => e.name === 'MarkDOMContent' || e.name === 'MarkLoad';
export const markData = (e: MarkEvent) => argsData(e);

// --- Flows (see flows.ts).

export type AsyncTaskScheduled = TraceEvent & { name: 'v8::Debugger::AsyncTaskScheduled'; args?: { taskName?: string } };
export type RunTask = TraceEvent & { name: 'ThreadControllerImpl::RunTask'; args?: { src_file?: string; src_func?: string } };
export const isAsyncTaskScheduled = (e: TraceEvent): e is AsyncTaskScheduled => e.name === 'v8::Debugger::AsyncTaskScheduled';
export const isRunTask = (e: TraceEvent): e is RunTask => e.name === 'ThreadControllerImpl::RunTask';
