/**
 * Graph format v1: the contract between PCP's stages (builder -> emulator, viewer, corpus tools).
 * The JSON Schema in graph-builder/schema/graph-v1.schema.json is the normative description;
 * these types mirror it. Field names listed in docs/graph-format.md are public: add fields, never rename.
 * All times are milliseconds since navigation start (the main document's request).
 */

export const SCHEMA_VERSION = 1 as const;

export type NodeKind =
  | 'resource'
  | 'download_chunk'
  | 'parse_chunk'
  | 'script_eval'
  | 'css_eval'
  | 'timer'
  | 'event'
  | 'marker';

export const NODE_KINDS: readonly NodeKind[] = [
  'resource',
  'download_chunk',
  'parse_chunk',
  'script_eval',
  'css_eval',
  'timer',
  'event',
  'marker',
];

/** Where a node sits relative to the page's completion (thesis §3.7.4 normalisation). */
export type LoadPhase = 'pre-dom' | 'pre-load' | 'post-load';

export interface NodeBase {
  id: string;
  kind: NodeKind;
  /** Frame id (see Graph.frames). */
  frame: string;
  /** ms since navigation start. */
  start: number;
  end: number;
  phase?: LoadPhase;
  /** Normalisation disabled this node (e.g. a post-load timer): emulators skip it. */
  disabled?: boolean;
  /** Free-form, source-specific extras kept for round trips (e.g. legacy ids). */
  extra?: Record<string, unknown>;
}

/** Resource priorities: `mimeType` (§3.5.3.1) and `criticalPath` (Algorithm 2) always; other schemes may be added. */
export interface Priorities {
  mimeType: number;
  criticalPath: number;
  [scheme: string]: number;
}

export interface ResourceNode extends NodeBase {
  kind: 'resource';
  url: string;
  mimeType: string;
  /** Bytes of body received (encoded). */
  size: number;
  method: string;
  /** HTTP status; 0 when unknown or failed. */
  status: number;
  cached: boolean;
  /** Server processing delay, ms, when known. */
  serverDelay?: number;
  /** True when serverDelay was imputed rather than measured. */
  serverDelayEstimated?: boolean;
  priority: Priorities;
  onCriticalPath: boolean;
  /** Per-scheme "critical" flags when the source has them (legacy `iscrit`). */
  critical?: Record<string, boolean>;
  /** Time the first response byte arrived, ms. */
  responseStart?: number;
  /** The id of the document's frame this resource loads, for HTML documents of frames. */
  documentOfFrame?: string;
  /**
   * A frame's document (Chrome traces with the DevTools log): when the browser began the frame's navigation,
   * ms on the graph's clock. The renderer asks the browser to navigate the frame; the request is the
   * browser's, some time after what created the frame (the node's parents), and the trace records the
   * document only at the frame's commit (`start`).
   */
  navigationRequest?: number;
  /** The browser's request type when the source says (Chromium: Document, Stylesheet, Script, Image, Font, XHR, Fetch, Media, Other, ...). */
  requestType?: string;
  /** The priority the browser gave the request when the source says (Chromium: VeryHigh, High, Medium, Low, VeryLow). */
  browserPriority?: string;
  /** The application protocol the response came over when the source says (Chromium: `http/1.1`, `h2`, `h3`). */
  protocol?: string;
  /** Time the browser itself spent on this exchange, outside the network and the server (Chrome traces). */
  browserDelay?: BrowserDelay;
  /**
   * The body as it reached the browser (Chrome traces: one entry per ResourceReceivedData, recorded when a
   * response arrived in more than one piece): `at`, ms on the graph's clock; `bytes`, encoded bytes.
   */
  arrivals?: BodyArrival[];
}

/** One piece of a response body as the browser received it. */
export interface BodyArrival {
  at: number;
  bytes: number;
}

/** `requestType`s Blink's resource load scheduler never holds back: raw fetches and documents (navigations). */
export const UNTHROTTLED_REQUEST_TYPES: ReadonlySet<string> = new Set(['Document', 'XHR', 'Fetch', 'EventSource', 'Ping', 'Preflight', 'WebSocket', 'CSPViolationReport']);

/** Whether Blink's scheduler may hold a request of this type and priority: a throttleable one below High. */
export function mayBeHeldRequest(requestType: string | undefined, priority: string | undefined): boolean {
  return !UNTHROTTLED_REQUEST_TYPES.has(requestType ?? '') && priority !== 'High' && priority !== 'VeryHigh';
}

/**
 * Browser-side time of one exchange, ms, as recorded: `request`, from the renderer's request (for one
 * Blink's resource scheduler may hold, from its release; for the main document, from the browser's
 * navigation request) to the request written to the socket, connection set-up excluded; `response`, from
 * the body's end at the network service to the renderer's finish; `commit` (a document: the main frame's or a frame's), from its
 * response headers at the network service to the frame's commit, when the trace records its request.
 * Absent parts were not recorded.
 */
export interface BrowserDelay {
  request?: number;
  /**
   * From the renderer's request (`ResourceSendRequest`) to its release to the network service
   * (`ThrottlingURLLoader::StartNow`), ms: the renderer's hop to the loader's start (0.3-3 ms on a quiet host)
   * and, for a request Blink's scheduler may hold (throttleable, below High), the scheduler's hold if it held it.
   * A subresource's; for one Blink never holds it is inside `request`.
   */
  release?: number;
  /**
   * The request opened a connection: its TCP and TLS handshakes as recorded (`timing.connectStart` to
   * `connectEnd`, DNS excluded), ms. Round trips and the hosts' work (key exchange, certificate checks) both.
   */
  connect?: number;
  response?: number;
  /**
   * The network service reading the response: from its headers read (`timing.receiveHeadersEnd`) to the body's
   * end there (`finishTime`), ms. On an unshaped (loopback) recording the body is on the socket with its
   * headers, so this is the browser's own time (0.4-2 ms on a quiet 2-core host), unless the server paced the
   * body (the emulator takes its pacing out, `arrivals`); left out of recordings made through a shaped link,
   * where it also holds the body's transfer.
   */
  read?: number;
  /**
   * From the request on the socket (`timing.sendStart`) to its response headers read there
   * (`receiveHeadersEnd`), ms: the network's round trip, the server's time and the network service's own
   * writing and reading (what exceeds the server delay on a loopback recording: 0.2-4 ms). Left out of
   * recordings made through a shaped link.
   */
  wait?: number;
  commit?: number;
}

export interface DownloadChunkNode extends NodeBase {
  kind: 'download_chunk';
  /** Id of the resource node this chunk belongs to. */
  resource: string;
  /** Index of this chunk within the resource (0-based). */
  index: number;
  offset: number;
  size: number;
}

export interface ParseChunkNode extends NodeBase {
  kind: 'parse_chunk';
  docUrl: string;
  /** 1-based lines; columns as the source reports them. */
  startLine: number;
  startColumn: number;
  endLine: number;
  endColumn: number;
  startTag?: string;
  endTag?: string;
  isFragment?: boolean;
}

export type ScriptKind = 'sync' | 'async' | 'defer' | 'module' | 'inline' | 'write';

export interface ScriptEvalNode extends NodeBase {
  kind: 'script_eval';
  /** The script's url; the document's url for inline scripts. */
  scriptUrl: string;
  scriptKind: ScriptKind;
  /** Sub-computation index when a computation was split at child boundaries. */
  part?: number;
}

export interface CssEvalNode extends NodeBase {
  kind: 'css_eval';
  styleUrl: string;
  part?: number;
}

export interface TimerNode extends NodeBase {
  kind: 'timer';
  timerId: string;
  /** Requested delay, ms (after trimming, see `extra.originalDelay`). */
  timerDelay: number;
  part?: number;
}

export interface EventNode extends NodeBase {
  kind: 'event';
  eventName: string;
  /** e.g. 'document', 'window', 'img', 'xmlhttprequest', 'iframe', 'messageport'. */
  eventTarget: string;
  part?: number;
}

export type MarkerName = 'domContentLoaded' | 'load' | string;

export interface MarkerNode extends NodeBase {
  kind: 'marker';
  markerName: MarkerName;
}

export type GraphNode =
  | ResourceNode
  | DownloadChunkNode
  | ParseChunkNode
  | ScriptEvalNode
  | CssEvalNode
  | TimerNode
  | EventNode
  | MarkerNode;

/**
 * `rule` is a Table 3.1 rule number (1-25) or a named rule:
 * Appendix A event parents as 'event:<target>.<name>' (e.g. 'event:window.load'),
 * the frame completion chain as 'completion:<step>', and 'split' for sub-computation sequencing.
 */
export type EdgeRule = number | string;

export interface Edge {
  from: string;
  to: string;
  rule: EdgeRule;
}

export interface Frame {
  id: string;
  url: string;
  /** Parent frame id; null for the main frame. */
  parent: string | null;
}

export type SourceKind = 'legacy-log' | 'chrome-trace' | 'devtools-trace' | 'legacy-graph' | 'synthetic';

export interface Provenance {
  source: SourceKind;
  tool: string;
  toolVersion: string;
  browserVersion?: string;
  input?: string;
  createdAt?: string;
}

export interface CriticalPath {
  /** Node ids from root to sink. */
  nodes: string[];
  /** Sum of node durations along the path, ms. */
  length: number;
}

export interface Graph {
  schemaVersion: typeof SCHEMA_VERSION;
  page: { url: string };
  frames: Frame[];
  nodes: GraphNode[];
  edges: Edge[];
  /** Main frame's completion marker node ids. */
  markers: { domContentLoaded: string; load: string };
  /** Id of the root (first download chunk of the main document, or its resource). */
  root?: string;
  criticalPath?: CriticalPath;
  provenance: Provenance;
  /** The recorded navigation, when the source has it (Chrome traces): where the graph's clock sits and the page's own completion times. */
  navigation?: GraphNavigation;
  /**
   * The main frame's renderer main thread's top-level tasks as recorded, [start, end] ms on the graph's
   * clock (Chrome traces): the graph's computations ran inside some; the rest is work no node holds
   * (style, layout, paint, garbage collection, the loader's tasks).
   */
  mainThreadTasks?: Array<[number, number]>;
  /** Problems met while building the graph that did not stop it. */
  warnings?: string[];
}

/**
 * The recorded navigation. The graph's time 0 is the trace's record of the main document's request, which
 * Chromium writes when the navigation commits; the browser sent the request earlier (`documentRequest`).
 */
export interface GraphNavigation {
  /** ms from navigation start (Navigation Timing's origin) to the graph's time 0. */
  navigationStartOffset: number;
  /** When the browser sent the main document's request and received its response headers, ms on the graph's clock (negative: before time 0). */
  documentRequest?: number;
  documentResponse?: number;
  /** The main frame's DOMContentLoaded and load as the browser marked them (`MarkDOMContent`, `MarkLoad`: after their handlers ran), ms on the graph's clock. */
  domContentLoaded?: number;
  load?: number;
  /**
   * When the main frame's load event began (Navigation Timing's `loadEventStart`), before its handlers ran:
   * what the 2016 logs record as a frame's `loadTime` (the legacy graphs' load marker starts there too).
   */
  loadEventStart?: number;
}

export type NodeOfKind<K extends NodeKind> = Extract<GraphNode, { kind: K }>;
