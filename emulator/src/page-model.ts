/**
 * The graph model (Lantern-style: separate from the simulator). Compiles a v1 Graph once into flat arrays
 * the simulator walks quickly: enabled nodes only (normalisation's disabled nodes are skipped with their
 * edges and their descendants, which cannot start without them; so are parentless post-load requests), parent
 * counts, children, durations, resource and download-chunk facts, frames, and the preloader's pre-parse lists.
 * Compiled models are cached per Graph object, so sweeping many configs over
 * one graph compiles it once.
 */
import { UNTHROTTLED_REQUEST_TYPES, documentHeadersAt, mayBeHeldRequest, recordedExchangeTimes, type Graph, type GraphNode, type ResourceNode } from '@pcp/graph-builder';
import { mimeClass, type MimeClass } from './server-delays.ts';
import { hostRoundTrips, recordedRoundTrip, serverPacing, type RecordedExchange, type ServerPace } from './http/server-pacing.ts';
import { setupCosts, type SetupCosts } from './http/connection-setup.ts';
import { median } from './stats.ts';

export const K_RESOURCE = 0;
export const K_DCHUNK = 1;
export const K_PARSE = 2;
export const K_SCRIPT = 3;
export const K_CSS = 4;
export const K_TIMER = 5;
export const K_EVENT = 6;
export const K_MARKER = 7;

const KIND_CODE: Record<GraphNode['kind'], number> = {
  resource: K_RESOURCE,
  download_chunk: K_DCHUNK,
  parse_chunk: K_PARSE,
  script_eval: K_SCRIPT,
  css_eval: K_CSS,
  timer: K_TIMER,
  event: K_EVENT,
  marker: K_MARKER,
};

/** Chrome clamps timeouts nested more than this deep to 4 ms (§3.7.2). */
export const TIMER_NESTING_CLAMP_LEVEL = 5;
export const TIMER_MIN_NESTED_MS = 4;

export interface ResourceInfo {
  url: string;
  host: string;
  /** Bytes the server sends (at least 1: even an empty body costs a packet). */
  bytes: number;
  mimeClass: MimeClass;
  /** Lower value = more important (Algorithm 2 / §3.5.3.1 numbering). */
  prioMime: number;
  prioCrit: number;
  serverDelay: number | undefined;
  /** Session-cache key: GETs of one url share one download. */
  cacheKey: string;
  /** Download chunks of this resource (node indices) sorted by the byte count that completes them. */
  chunks: number[];
  /** CSS/JS/image resources, pre-parsable by the preloader: true. Frame documents are never preloaded. */
  preloadable: boolean;
  /** The browser's priority, VeryLow 0 .. VeryHigh 4; -1 when the graph does not record it. */
  browserPriority: number;
  /** Blink may hold it back while its document is tight (not a raw fetch, not a frame's document). */
  throttleable: boolean;
  /**
   * The browser's own time (graph `browserDelay`), ms: release -> request on the socket; bytes at the network ->
   * at the renderer. A frame's document's request side also holds the hop from what created the frame to the
   * browser's navigation request (`frameNavigationHop`).
   */
  requestDelay: number;
  responseDelay: number;
  /** The network service's recorded read of the response beyond the server's pacing (`networkRead`), ms. */
  readDelay: number;
  /** The network service's lag between the socket and the server, beyond the server's time (`socketLag`), ms. */
  socketLag: number;
  /** A request Blink may hold: the renderer's hop from its release by the scheduler to its loader's start (`releaseHop`), ms. */
  releaseHop: number;
  /** The document of a frame (not the main frame's): its body reaches the frame's parser after the frame commits. */
  frameDocument: boolean;
  /** A frame document's recorded commit after its response (graph `browserDelay.commit`, else `.response`), ms. */
  commitDelay: number;
  /** The server's recorded pacing of the body (http/server-pacing.ts), or null. */
  pace: ServerPace | null;
}

/** A resource's recorded exchange (graph-builder's `recordedExchangeTimes`: the builder bounds server delays by the same times). */
function recordedExchange(graph: Graph, x: ResourceNode): RecordedExchange {
  return { host: hostOf(x.url), ...recordedExchangeTimes(graph, x), serverDelay: x.serverDelay };
}

/**
 * A frame's navigation is the browser's: the renderer that created the frame (its parse chunk, its script)
 * asks the browser to navigate it (BeginNavigation), and the browser's navigation request
 * (`navigationRequest`) comes after that hop and the browser's own queue: 1-23 ms after the creator ended on
 * quiet loopback recordings (median ~9). Replayed as part of the frame document's request delay: from its
 * parents' recorded end to its navigation request, ms (0 when the graph does not record it).
 */
export function frameNavigationHop(x: ResourceNode, parentEnds: readonly number[]): number {
  if (x.navigationRequest === undefined || parentEnds.length === 0) return 0;
  return Math.max(0, x.navigationRequest - Math.max(...parentEnds));
}

/**
 * The network service's own time reading a response, ms: its recorded read (graph `browserDelay.read`, from
 * the headers to the body's end at the network service) less what the server's pacing of the body explains
 * (the emulator's server paces it as recorded). On quiet loopback recordings 0.4-2 ms per response (median
 * ~0.9 over 400 requests): the network service's thread hops, which no network model holds.
 */
export function networkRead(read: number | undefined, pace: ServerPace | null): number {
  if (read === undefined || !Number.isFinite(read)) return 0;
  return Math.max(0, read - (pace ? pace.after[pace.after.length - 1]! : 0));
}

/**
 * The renderer's time from the body's end at the network service to its finish (graph `browserDelay.response`),
 * ms, less what the replayed pacing already holds: a paced body's pieces are replayed at the times the renderer
 * read them, which include the renderer's own lag (mailchimp's document: the network service had the body 131 ms
 * before the renderer's finish, and the renderer read its last piece 0.4 ms before that finish, its main thread
 * busy with a script; replaying both gave the document's end 131 ms late). So with a pace, no more than from the
 * last piece read to the finish.
 */
export function responseAfterPace(x: ResourceNode, pace: ServerPace | null): number {
  const recorded = x.browserDelay?.response;
  if (recorded === undefined || !Number.isFinite(recorded)) return 0;
  const last = x.arrivals?.[x.arrivals.length - 1];
  if (!pace || !last) return Math.max(0, recorded);
  return Math.max(0, Math.min(recorded, x.end - last.at));
}

/**
 * The renderer's hop from Blink's scheduler releasing a request it may hold to the request's loader starting
 * (ThrottlingURLLoader::StartNow), ms. A held-type request's recorded request-to-release time (graph
 * `browserDelay.release`) is that hop plus the recording scheduler's hold (the example site's async scripts and
 * late images: 18-71 ms), and the emulator's scheduler makes its own holds; a request Blink never holds
 * (not throttleable, or High and above) crosses the same hop with no hold. So the hop is the median of the
 * never-held requests' recorded release times, 0 with none: on quiet loopback recordings 0.6-1 ms.
 */
export function releaseHop(nodes: readonly GraphNode[]): number {
  const recorded = nodes.flatMap((x) => (x.kind === 'resource' && !mayBeHeld(x) && x.browserDelay?.release !== undefined && Number.isFinite(x.browserDelay.release) ? [x.browserDelay.release] : []));
  return recorded.length ? Math.max(0, median(recorded)) : 0;
}

/**
 * The network service's own lag in an exchange, ms: from the request on the socket to its response headers
 * read there as recorded (graph `browserDelay.wait`) less the server's measured time (its request and
 * response packets in the capture). On a loopback recording the round trip is ~0.1 ms and the rest is the
 * network service writing the request and reading the response (0.4 ms median on a quiet 2-core host, 1-4 ms
 * under load). 0 without a measured server delay (an estimate says nothing of this exchange).
 */
export function socketLag(x: ResourceNode): number {
  const wait = x.browserDelay?.wait;
  if (wait === undefined || x.serverDelay === undefined || x.serverDelayEstimated === true || !Number.isFinite(wait)) return 0;
  return Math.max(0, wait - x.serverDelay);
}

/** Whether Blink's scheduler may hold a subresource's request (a frame's document is the browser's). */
function mayBeHeld(x: ResourceNode): boolean {
  return x.documentOfFrame === undefined && mayBeHeldRequest(x.requestType, x.browserPriority);
}

/** The network's share of a recorded exchange's round trip: its own, or its host's least if smaller (`hostRoundTrips`). */
function networkRoundTrip(paths: Map<string, number>, own: RecordedExchange): number {
  const mine = recordedRoundTrip(own.requestOnSocket, own.firstByte, own.serverDelay);
  return Math.min(mine, paths.get(own.host) ?? mine);
}

const BROWSER_PRIORITY: Record<string, number> = { VeryLow: 0, Low: 1, Medium: 2, High: 3, VeryHigh: 4 };
/** Tags that may stand in a document's head: a parse chunk with any other tag has reached the body. */
const HEAD_TAGS = new Set(['#parse', 'html', 'head', 'link', 'script', 'meta', 'style', 'title', 'base', 'noscript', 'template']);

export interface PageModel {
  graph: Graph;
  n: number;
  ids: string[];
  kind: Uint8Array;
  /** Main-thread time (computations), ms. */
  duration: Float64Array;
  frame: Int32Array;
  /** Parent counts used for readiness (a chunk's edge from its own resource is a byte-progress condition instead). */
  nParents: Int32Array;
  children: Int32Array[];
  parents: Int32Array[];
  /** Per node: resource info index (resources), or -1. */
  res: ResourceInfo[];
  resOf: Int32Array;
  /** Download chunk: resource node index it streams from (-1 when that resource is absent) and its byte threshold. */
  chunkResource: Int32Array;
  chunkBytes: Float64Array;
  /** Timer: delay after its parents complete (nested clamp applied); -1 for continuation parts. */
  timerDelay: Float64Array;
  /** Computation that continues its parent's task ('split' edge): run before anything else in its queue. */
  continuation: Uint8Array;
  /**
   * Parse chunk -> the synchronous scripts with a download whose tag it reached: it requested the download
   * (Table 3.1 rule 1) or the evaluation waits for it (rule 12). The parser is blocked on such a script from
   * when its reaching chunks have run until the script has run (the preloader's signal, §3.7.5).
   */
  parseReachesSync: Int32Array[];
  /** Synchronous script: how many distinct parse chunks reach its tag (0: inserted by a computation, never parser-blocking). */
  syncReach: Int32Array;
  /** Download chunk -> parse chunks it feeds (the preloader clones these when the chunk arrives). */
  chunkParses: Int32Array[];
  /** Parse chunk -> its preloadable resource children. */
  parsePreloads: Int32Array[];
  /** Resource: the recording shows it requested before its parse chunk ran (Chromium's preload scanner found it). */
  scanned: Uint8Array;
  /**
   * Per resource node, its session-cache slot: resources with the same cacheKey share one (numbered from 0);
   * -1 for other nodes. The simulator keys its session cache by slot, not by the key string.
   */
  cacheSlot: Int32Array;
  /** How many distinct session-cache keys the resources have (cacheSlot's range). */
  cacheSlots: number;
  /** Per node, 1 for a frame's document whose body waits for a recorded commit (frameDocument with commitDelay > 0). */
  awaitsCommit: Uint8Array;
  frames: Array<{ id: string; parent: number; children: number[] }>;
  /** Per frame: the parse chunk during which the parser inserts <body> (the first with a tag that cannot be in the head, or the document's end); -1 when unknown. */
  bodyChunk: Int32Array;
  mainFrame: number;
  /** The main document's resource node (the graph's root), or -1. */
  document: number;
  /**
   * Navigation commit, ms: from the main document's response headers at the network service (documentHeadersAt) to the renderer
   * using its body (the first main-frame parse chunk, or request made from the body, whichever is earlier),
   * as recorded; 0 when the graph does not record its navigation.
   */
  commitDelay: number;
  /**
   * Per computation, ms: the recorded main-thread work outside the graph (graph.mainThreadTasks less the
   * graph's computations) between the computation's readiness (its parents' recorded ends, a timer's delay
   * after) and its recorded start, each stretch of work charged once, to the first computation it held up.
   */
  hiddenWork: Float64Array;
  /**
   * As hiddenWork, with the document's event markers (DOMContentLoaded, load) among the work held up: a
   * marker is dispatched on the main thread, so the work between its readiness and its recorded time is
   * charged to it, and not to a later computation. Used when the config's eventDispatch is on.
   */
  markerWork: Float64Array;
  /**
   * What opening a connection to each host cost the recording beyond its round trips (graph
   * `browserDelay.connect`; http/connection-setup.ts): handshake work a new emulated connection pays too.
   */
  setup: SetupCosts;
  /** The graph records Chromium's request priorities (a Chrome trace): Chromium's own mechanisms apply. */
  chromium: boolean;
  load: number;
  dcl: number;
  roots: number[];
}

const cache = new WeakMap<Graph, PageModel>();

function hostOf(url: string): string {
  try {
    return new URL(url).host.toLowerCase();
  } catch {
    return url.split('/')[0] ?? url;
  }
}

function nonNegative(v: number | undefined): number {
  return v !== undefined && Number.isFinite(v) && v > 0 ? v : 0;
}

/**
 * Which parse chunks reach each synchronous script's tag (PageModel.parseReachesSync). The 2016 graphs draw
 * parse -> download -> evaluation with no parse -> evaluation edge, Chrome-trace graphs draw both from the
 * same chunk: the chunks that requested its download, or that the evaluation waits for, are the parser
 * reaching the tag. A script whose download a computation requested is not the parser's to wait on.
 */
export function syncScriptReach(
  nodes: readonly GraphNode[],
  kind: ArrayLike<number>,
  parentLists: readonly (readonly number[])[],
): { parseReachesSync: Int32Array[]; syncReach: Int32Array } {
  const reaches: number[][] = nodes.map(() => []);
  const syncReach = new Int32Array(nodes.length);
  nodes.forEach((x, s) => {
    if (x.kind !== 'script_eval' || x.scriptKind !== 'sync') return;
    const downloads = parentLists[s]!.filter((p) => kind[p] === K_RESOURCE);
    if (downloads.length === 0) return;
    const chunks = new Set<number>();
    for (const q of [s, ...downloads]) for (const p of parentLists[q]!) if (kind[p] === K_PARSE) chunks.add(p);
    syncReach[s] = chunks.size;
    for (const p of chunks) reaches[p]!.push(s);
  });
  return { parseReachesSync: reaches.map((r) => Int32Array.from(r)), syncReach };
}

/** Chromium's request types of what its preload scanner fetches (style sheets, scripts, images). */
const SCANNED_REQUEST_TYPES: ReadonlySet<string> = new Set(['Stylesheet', 'Script', 'Image']);

/** Each resource node's session-cache slot (one per distinct cacheKey, in node order) and the number of slots. */
export function cacheSlots(n: number, kind: Uint8Array, resOf: Int32Array, res: ReadonlyArray<{ cacheKey: string }>): { cacheSlot: Int32Array; cacheSlots: number } {
  const slotOf = new Map<string, number>();
  const cacheSlot = new Int32Array(n).fill(-1);
  for (let i = 0; i < n; i++) {
    if (kind[i] !== K_RESOURCE) continue;
    const key = res[resOf[i]!]!.cacheKey;
    let slot = slotOf.get(key);
    if (slot === undefined) slotOf.set(key, (slot = slotOf.size));
    cacheSlot[i] = slot;
  }
  return { cacheSlot, cacheSlots: slotOf.size };
}

/**
 * CSS, JS or an image: what the preloader requests ahead of the parser. By the request type when the graph
 * records it (the scanner goes by the tag: an image answered 404 in text/plain is still requested as an
 * image), else by the response's MIME class.
 */
function preloadableKind(requestType: string | undefined, cls: MimeClass): boolean {
  if (requestType !== undefined) return SCANNED_REQUEST_TYPES.has(requestType);
  return cls === 'css' || cls === 'javascript' || cls === 'image';
}

export function compileGraph(graph: Graph): PageModel {
  const hit = cache.get(graph);
  if (hit) return hit;

  const nodes = enabledNodes(graph);
  const n = nodes.length;
  const index = new Map<string, number>();
  nodes.forEach((x, i) => index.set(x.id, i));

  const frameIndex = new Map<string, number>();
  const frames: PageModel['frames'] = graph.frames.map((f, i) => {
    frameIndex.set(f.id, i);
    return { id: f.id, parent: -1, children: [] };
  });
  graph.frames.forEach((f, i) => {
    const p = f.parent === null ? undefined : frameIndex.get(f.parent);
    if (p !== undefined && p !== i) {
      frames[i]!.parent = p;
      frames[p]!.children.push(i);
    }
  });
  let mainFrame = graph.frames.findIndex((f) => f.parent === null);
  const frameOfNode = (f: string): number => {
    let i = frameIndex.get(f);
    if (i === undefined) {
      i = frames.length;
      frames.push({ id: f, parent: -1, children: [] });
      frameIndex.set(f, i);
    }
    return i;
  };

  const kind = new Uint8Array(n);
  const duration = new Float64Array(n);
  const frame = new Int32Array(n);
  const resOf = new Int32Array(n).fill(-1);
  const res: ResourceInfo[] = [];
  const chunkResource = new Int32Array(n).fill(-1);
  const chunkBytes = new Float64Array(n);
  const timerDelay = new Float64Array(n).fill(-1);
  const continuation = new Uint8Array(n);
  const childLists: number[][] = Array.from({ length: n }, () => []);
  const parentLists: number[][] = Array.from({ length: n }, () => []);
  const nParents = new Int32Array(n);

  const fetched = nodes.filter((x): x is ResourceNode => x.kind === 'resource' && !x.cached);
  const exchanges = new Map(fetched.map((x) => [x, recordedExchange(graph, x)] as const));
  const paths = hostRoundTrips(exchanges.values());
  const setup = setupCosts(
    fetched
      .filter((x) => (x.browserDelay?.connect ?? 0) > 0)
      .map((x) => ({ host: hostOf(x.url), connect: x.browserDelay!.connect!, tls: /^(https|wss):/i.test(x.url), roundTrip: networkRoundTrip(paths, exchanges.get(x)!) })),
  );
  const hop = releaseHop(nodes);
  nodes.forEach((x, i) => {
    kind[i] = KIND_CODE[x.kind];
    frame[i] = frameOfNode(x.frame);
    const d = x.end - x.start;
    if (x.kind !== 'resource' && x.kind !== 'download_chunk' && x.kind !== 'marker') duration[i] = Number.isFinite(d) && d > 0 ? d : 0;
    if (x.kind === 'resource') {
      const cls = mimeClass(x.mimeType, x.method);
      const pace = serverPacing(x.arrivals, networkRoundTrip(paths, exchanges.get(x) ?? recordedExchange(graph, x)), Math.max(1, Math.round(x.size)));
      resOf[i] = res.length;
      res.push({
        url: x.url,
        host: hostOf(x.url),
        bytes: Math.max(1, Math.round(x.size)),
        mimeClass: cls,
        prioMime: x.priority?.mimeType ?? 0,
        prioCrit: x.priority?.criticalPath ?? 0,
        serverDelay: x.serverDelay,
        cacheKey: x.method.toUpperCase() === 'GET' ? x.url : `${x.id}\u0000${x.url}`,
        chunks: [],
        preloadable: preloadableKind(x.requestType, cls) && x.documentOfFrame === undefined,
        browserPriority: BROWSER_PRIORITY[x.browserPriority ?? ''] ?? -1,
        throttleable: x.documentOfFrame === undefined && !UNTHROTTLED_REQUEST_TYPES.has(x.requestType ?? ''),
        frameDocument: x.documentOfFrame !== undefined && x.id !== graph.root,
        commitDelay: nonNegative(x.browserDelay?.commit ?? x.browserDelay?.response),
        requestDelay: nonNegative(x.browserDelay?.request),
        responseDelay: responseAfterPace(x, pace),
        readDelay: networkRead(x.browserDelay?.read, pace),
        // A held-type request's recorded request delay starts at its release: the hop before it is the emulator's to add.
        releaseHop: mayBeHeld(x) && x.browserDelay?.request !== undefined ? hop : 0,
        socketLag: socketLag(x),
        pace,
      });
    }
  });
  if (mainFrame < 0) mainFrame = nodes.length ? frame[0]! : 0;

  for (const e of graph.edges) {
    const a = index.get(e.from);
    const b = index.get(e.to);
    if (a === undefined || b === undefined || a === b) continue; // edges touching disabled nodes vanish with them
    childLists[a]!.push(b);
    parentLists[b]!.push(a);
    if (e.rule === 'split') continuation[b] = 1;
  }
  nodes.forEach((x, i) => {
    if (x.kind === 'resource' && res[resOf[i]!]!.frameDocument) res[resOf[i]!]!.requestDelay += frameNavigationHop(x, parentLists[i]!.map((p) => nodes[p]!.end));
  });

  // Download chunks stream from their resource: the resource->chunk edge means "these bytes arrived".
  nodes.forEach((x, i) => {
    if (x.kind !== 'download_chunk') return;
    const r = index.get(x.resource);
    if (r === undefined || kind[r] !== K_RESOURCE) return;
    const info = res[resOf[r]!]!;
    chunkResource[i] = r;
    chunkBytes[i] = Math.min(info.bytes, Math.max(0, x.offset + x.size));
    info.chunks.push(i);
  });
  for (const info of res) info.chunks.sort((p, q) => chunkBytes[p]! - chunkBytes[q]!);
  for (let i = 0; i < n; i++) {
    let c = 0;
    for (const p of parentLists[i]!) if (!(chunkResource[i] === p)) c++;
    nParents[i] = c;
  }

  // Timers: delay after the installing activity; nested chains clamp to 4 ms past the fifth level.
  const nest = new Int32Array(n);
  const order = topoOrder(n, childLists, parentLists);
  const ids = nodes.map((x) => x.id);
  for (const i of order) {
    const x = nodes[i]!;
    if (x.kind !== 'timer') continue;
    let level = 0;
    for (const p of parentLists[i]!) {
      const px = nodes[p]!;
      if (px.kind === 'timer' && px.timerId !== x.timerId) level = Math.max(level, nest[p]! + 1);
      else if (px.kind === 'timer') level = Math.max(level, nest[p]!);
    }
    nest[i] = level;
    if (continuation[i] || (x.part !== undefined && x.part > 0)) {
      timerDelay[i] = -1;
      continue;
    }
    let delay = Math.max(0, x.timerDelay);
    if (level >= TIMER_NESTING_CLAMP_LEVEL && delay < TIMER_MIN_NESTED_MS) delay = TIMER_MIN_NESTED_MS;
    timerDelay[i] = delay;
  }

  const { parseReachesSync, syncReach } = syncScriptReach(nodes, kind, parentLists);
  const chunkParses: Int32Array[] = nodes.map((x, i) =>
    x.kind === 'download_chunk' ? Int32Array.from(childLists[i]!.filter((c) => kind[c] === K_PARSE)) : new Int32Array(0),
  );
  const parsePreloads: Int32Array[] = nodes.map((x, i) =>
    x.kind === 'parse_chunk' ? Int32Array.from(childLists[i]!.filter((c) => kind[c] === K_RESOURCE && res[resOf[c]!]!.preloadable)) : new Int32Array(0),
  );

  const scanned = new Uint8Array(n);
  parsePreloads.forEach((rs, p) => {
    for (const r of rs) if (nodes[r]!.start < nodes[p]!.start) scanned[r] = 1;
  });

  const bodyChunk = new Int32Array(frames.length).fill(-1);
  nodes.forEach((x, i) => {
    if (x.kind !== 'parse_chunk' || bodyChunk[frame[i]!]! >= 0) return;
    const tags = [x.startTag, x.endTag].filter((t): t is string => t !== undefined).map((t) => t.toLowerCase());
    if (tags.some((t) => !HEAD_TAGS.has(t))) bodyChunk[frame[i]!] = i;
  });

  const docNode = index.get(graph.root ?? '') ?? -1;
  const document = docNode >= 0 && kind[docNode] === K_RESOURCE ? docNode : -1;
  let commitDelay = 0;
  let commitPoint = -Infinity;
  const response = documentHeadersAt(graph.navigation, document >= 0 ? nodes[document]! : undefined);
  if (document >= 0 && response !== undefined) {
    let first = Infinity;
    nodes.forEach((x, i) => {
      if (frame[i] !== frame[document] || i === document) return;
      if (x.kind === 'parse_chunk' || (x.kind === 'resource' && parentLists[i]!.some((p) => kind[p] === K_PARSE))) first = Math.min(first, x.start);
    });
    if (Number.isFinite(first)) {
      commitDelay = Math.max(0, first - response);
      commitPoint = first;
    }
  }
  const { computations: hiddenWork, markers: markerWork } = hiddenMainThreadWork(graph.mainThreadTasks, nodes, parentLists, commitPoint);

  const roots: number[] = [];
  for (let i = 0; i < n; i++) if (nParents[i] === 0 && chunkResource[i]! < 0) roots.push(i);
  // Chunks whose only parent is their resource are started when their bytes arrive, not at time zero.
  for (let i = 0; i < n; i++) if (nParents[i] === 0 && chunkResource[i]! >= 0) roots.push(i);

  const slots = cacheSlots(n, kind, resOf, res);
  const awaitsCommit = new Uint8Array(n);
  for (let i = 0; i < n; i++) if (kind[i] === K_RESOURCE && res[resOf[i]!]!.frameDocument && res[resOf[i]!]!.commitDelay > 0) awaitsCommit[i] = 1;
  const model: PageModel = {
    graph,
    n,
    ids,
    kind,
    duration,
    frame,
    nParents,
    children: childLists.map((l) => Int32Array.from(l)),
    parents: parentLists.map((l) => Int32Array.from(l)),
    res,
    resOf,
    chunkResource,
    chunkBytes,
    timerDelay,
    continuation,
    parseReachesSync,
    syncReach,
    chunkParses,
    parsePreloads,
    scanned,
    cacheSlot: slots.cacheSlot,
    cacheSlots: slots.cacheSlots,
    awaitsCommit,
    frames,
    bodyChunk,
    mainFrame,
    document,
    commitDelay,
    hiddenWork,
    markerWork,
    setup,
    chromium: res.some((r) => r.browserPriority >= 0),
    load: index.get(graph.markers?.load ?? '') ?? -1,
    dcl: index.get(graph.markers?.domContentLoaded ?? '') ?? -1,
    roots,
  };
  cache.set(graph, model);
  return model;
}

/**
 * The nodes an emulation runs: not disabled, not downstream of a disabled node, and not a parentless node
 * recorded after the load event. An activity starts once all its parents completed, so what a disabled one (a
 * post-load timer, thesis §3.7.4) would have started — the image a post-load timer requests, a search page's
 * result fetches — never runs either; with the edge merely dropped it would be a root and be requested at time
 * 0. A parentless request recorded after the load event (the favicon: the browser fetches it once the page has
 * loaded, and the trace gives it no initiator) is left out the same way: as a root it would be requested at
 * time 0, taking a connection and, where it is also the page's logo, owning the logo's download in the session
 * cache. Markers stay (they only record the moment their other parents are done).
 */
export function enabledNodes(graph: Graph): GraphNode[] {
  const children = new Map<string, string[]>();
  const hasParent = new Set<string>();
  for (const e of graph.edges) {
    const l = children.get(e.from);
    if (l) l.push(e.to);
    else children.set(e.from, [e.to]);
    hasParent.add(e.to);
  }
  const stack = graph.nodes.filter((x) => x.disabled || (x.phase === 'post-load' && x.id !== graph.root && !hasParent.has(x.id))).map((x) => x.id);
  if (stack.length === 0) return graph.nodes;
  const kindOf = new Map(graph.nodes.map((x) => [x.id, x.kind]));
  const off = new Set<string>(stack);
  while (stack.length > 0) {
    for (const c of children.get(stack.pop()!) ?? []) {
      if (off.has(c) || kindOf.get(c) === 'marker') continue;
      off.add(c);
      stack.push(c);
    }
  }
  return graph.nodes.filter((x) => !off.has(x.id));
}

const COMPUTATION_KINDS = new Set<GraphNode['kind']>(['parse_chunk', 'script_eval', 'css_eval', 'timer', 'event']);
const DISPATCHED_KINDS = new Set<GraphNode['kind']>([...COMPUTATION_KINDS, 'marker']);

/**
 * When a resource's first `bytes` (decoded) had reached the renderer as recorded, ms: from its body's arrivals
 * (encoded bytes, scaled to the decoded size), else at its response (a body that came in one piece).
 */
export function bytesArrivedAt(x: ResourceNode, bytes: number): number {
  const pieces = x.arrivals ?? [];
  const at = x.responseStart ?? x.start;
  if (pieces.length === 0 || bytes <= 0) return at;
  const total = pieces.reduce((a, q) => a + Math.max(0, q.bytes), 0);
  const need = x.size > 0 ? (Math.min(bytes, x.size) / x.size) * total : total;
  let have = 0;
  for (const q of pieces) {
    have += Math.max(0, q.bytes);
    if (have >= need - 1e-9) return q.at;
  }
  return pieces[pieces.length - 1]!.at;
}

/** The recorded main-thread work no node holds, per node, ms (PageModel.hiddenWork and .markerWork). */
export interface HiddenWork {
  /** Charged to the computations it held up (PageModel.hiddenWork). */
  computations: Float64Array;
  /** With the event markers (zero-length, dispatched on the main thread) among the work charged (PageModel.markerWork). */
  markers: Float64Array;
}

/**
 * The recorded main-thread work no node holds, charged to the computations it held up, and again with the
 * event markers among them: the busy stretches (the tasks less every computation's recorded span) are found
 * once for both. Work before `from` (the recorded commit, which the navigation commit already models) is not charged.
 */
export function hiddenMainThreadWork(tasks: Array<[number, number]> | undefined, nodes: GraphNode[], parents: number[][], from: number): HiddenWork {
  if (!tasks || tasks.length === 0) {
    const none = new Float64Array(nodes.length);
    return { computations: none, markers: none };
  }
  const byId = new Map(nodes.map((x) => [x.id, x] as const));
  // A download chunk's recorded span is its bytes' arrival by default, its byte share of the document's whole
  // download in older graphs and on request (graph-builder chunk-times.ts); what a parse chunk waited for is its
  // bytes at the renderer, and for the chunk that ends the body, the body's end (as the simulator completes it:
  // simulator.ts advanceChunks), which an arrival-timed last chunk can end before.
  const readyAt = (p: GraphNode): number => {
    if (p.kind !== 'download_chunk') return p.end;
    const doc = byId.get(p.resource);
    if (doc?.kind !== 'resource') return p.end;
    return p.offset + p.size < doc.size ? bytesArrivedAt(doc, p.offset + p.size) : Math.max(p.end, doc.end);
  };
  const ofKinds = (kinds: ReadonlySet<GraphNode['kind']>): number[] => nodes.map((x, i) => i).filter((i) => kinds.has(nodes[i]!.kind));
  const comps = ofKinds(COMPUTATION_KINDS);
  const dispatched = ofKinds(DISPATCHED_KINDS);
  const busy = busyStretches(tasks, nodes, comps, from);
  // Markers are instants: they leave the same busy stretches, unless a graph gives one a length.
  const markerBusy = dispatched.some((i) => nodes[i]!.kind === 'marker' && nodes[i]!.end > nodes[i]!.start) ? busyStretches(tasks, nodes, dispatched, from) : busy;
  const charge = (held: number[], stretches: Array<[number, number]>): Float64Array => {
    const out = new Float64Array(nodes.length);
    let left = stretches;
    for (const i of [...held].sort((a, b) => nodes[a]!.start - nodes[b]!.start)) {
      const x = nodes[i]!;
      let ready = from;
      for (const p of parents[i]!) ready = Math.max(ready, readyAt(nodes[p]!));
      if (x.kind === 'timer' && !(x.part !== undefined && x.part > 0)) ready += Math.max(0, x.timerDelay);
      let charged = 0;
      const rest: Array<[number, number]> = [];
      for (const [a, b] of left) {
        const u = Math.max(a, ready);
        const v = Math.min(b, x.start);
        if (v <= u) {
          rest.push([a, b]);
          continue;
        }
        charged += v - u;
        if (a < u) rest.push([a, u]);
        if (v < b) rest.push([v, b]);
      }
      out[i] = charged;
      left = rest;
    }
    return out;
  };
  return { computations: charge(comps, busy), markers: charge(dispatched, markerBusy) };
}

/** The tasks less the recorded spans of the nodes `held`, from `from` on. */
function busyStretches(tasks: Array<[number, number]>, nodes: GraphNode[], held: number[], from: number): Array<[number, number]> {
  const spans = held.map((i) => [nodes[i]!.start, nodes[i]!.end] as [number, number]).filter(([a, b]) => b > a).sort((x, y) => x[0] - y[0]);
  const busy: Array<[number, number]> = [];
  for (const [a, b] of tasks) {
    let pieces: Array<[number, number]> = [[a, b]];
    for (const [c, d] of spans) {
      if (d <= a || c >= b) continue;
      pieces = pieces.flatMap(([p, q]) => (d <= p || c >= q ? [[p, q]] : ([[p, c], [d, q]] as Array<[number, number]>).filter(([u, v]) => v > u)));
    }
    busy.push(...pieces);
  }
  return busy.filter(([a, b]) => b > Math.max(a, from)).map(([a, b]) => [Math.max(a, from), b]);
}

/** Kahn's order; nodes on a cycle (malformed input) are appended in index order so nothing is lost. */
export function topoOrder(n: number, children: ArrayLike<number>[], parents: ArrayLike<number>[]): number[] {
  const indeg = new Int32Array(n);
  for (let i = 0; i < n; i++) indeg[i] = parents[i]!.length;
  const out: number[] = [];
  for (let i = 0; i < n; i++) if (indeg[i] === 0) out.push(i);
  for (let h = 0; h < out.length; h++) {
    const ch = children[out[h]!]!;
    for (let j = 0; j < ch.length; j++) {
      const c = ch[j]!;
      if (--indeg[c]! === 0) out.push(c);
    }
  }
  if (out.length < n) {
    const seen = new Uint8Array(n);
    for (const i of out) seen[i] = 1;
    for (let i = 0; i < n; i++) if (!seen[i]) out.push(i);
  }
  return out;
}
