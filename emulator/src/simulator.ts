/**
 * The simulator: walks a compiled PageModel (Algorithm 3: an activity starts when all its parents have
 * completed) over the network and server models, one event queue, deterministic for a given seed.
 *
 * Browser rules beyond Algorithm 3 (§3.7.2, §3.7.5):
 * - a download chunk completes when its bytes have reached the browser (and its other parents are done),
 *   so parsing streams as the document arrives;
 * - computations run one at a time on the main thread (MainThread); timers first wait their delay;
 * - session cache: a url fetched twice in one page costs one download;
 * - browser delays: a released request reaches the connection pool its recorded request delay later, and
 *   the renderer learns that a response is complete (its children, Blink's scheduler, and the end of a
 *   document's body, which the parser needs to finish) its recorded response delay after the network;
 * - main-thread work outside the graph (recorded style, layout, paint, GC) runs before the computation it
 *   held up in the recording;
 * - preloader: while a frame's parser is blocked on a synchronous script (from the run of the parse chunk that
 *   reached its tag until the script has run), the parse chunks of its already-arrived download chunks are
 *   pre-parsed, once the parser's own requests are out, and their CSS/JS/image resources requested early
 *   (Chromium's preload scanner, for graphs from Chrome: as soon as a chunk arrives, blocked or not, the
 *   resources the recording shows it found before the parser reached them). A
 *   preloaded resource still completes (for its children) no earlier than its own parents.
 */
import type { Graph } from '@pcp/graph-builder';
import { resolveConfig, type EmulatorConfig, type ResolvedConfig } from './config.ts';
import { EventQueue } from './event-queue.ts';
import {
  EV_ACK_ARRIVES,
  EV_COMPUTE_DONE,
  EV_CONN_ESTABLISHED,
  EV_DELACK,
  EV_DNS_DONE,
  EV_FRAME_COMMIT,
  EV_MPTCP,
  EV_NAV_COMMIT,
  EV_RENDERER_DONE,
  EV_REQUEST_AT_SERVER,
  EV_REQUEST_RELEASED,
  EV_RESPONSE_MORE,
  EV_RESPONSE_READY,
  EV_RTO,
  EV_SEGMENT_ARRIVES,
  EV_LINK,
  EV_TIMER_FIRES,
} from './events.ts';
import { MainThread } from './browser/main-thread.ts';
import { ResourceScheduler } from './browser/resource-scheduler.ts';
import { ConnectionPool, type HostPool, type HttpConnection } from './http/connection-pool.ts';
import type { Exchange } from './http/send-buffer.ts';
import type { BottleneckLink } from './network/bottleneck.ts';
import type { BridgeLink } from './network/bridge-link.ts';
import { buildPath } from './network/path.ts';
import type { NetContext, Segment, TcpConnection } from './network/tcp.ts';
import type { MptcpConnection } from './mptcp/connection.ts';
import { MultipathNetwork } from './mptcp/network.ts';
import { compileGraph, K_DCHUNK, K_MARKER, K_PARSE, K_RESOURCE, K_TIMER, type PageModel } from './page-model.ts';
import { Rng, STREAM_SERVER_DELAY } from './rng.ts';
import { ServerDelaySampler } from './server-delays.ts';
import { RetransmissionSlices, type ConnectionSlices } from './network/retransmission-slices.ts';

export interface ResourceTiming {
  id: string;
  url: string;
  /** Waiting at the client for a connection (or, for a session-cache hit, for the first download). */
  queued: number;
  /** DNS, TCP and TLS set-up this request waited for. */
  handshake: number;
  /** The request's trip to the server. */
  request: number;
  serverDelay: number;
  /** Waiting at the server after processing (serial server's queue, FIFO order, busy send buffer). */
  serverBuffer: number;
  /** First byte sent to last byte delivered to the browser. */
  transfer: number;
  /**
   * The browser's own time (the graph's `browserDelay`): release -> request on the socket (with the release hop),
   * the network service's lag and read of the response, and bytes at the network -> at the renderer.
   */
  browser: number;
  start: number;
  end: number;
  /** True when the bytes came from the session cache (an earlier fetch of the same url). */
  sessionCacheHit?: boolean;
  /** True when the preloader requested it before its parent parse chunk ran. */
  preloaded?: boolean;
}

export interface SimResult {
  loadTime: number;
  domContentLoadedTime: number;
  endTime: number;
  resources: ResourceTiming[];
  nodes: Array<{ id: string; start: number; end: number }>;
  drops: number;
  /** Packets the links' loss models dropped, both directions (handshakes included). */
  losses: number;
  retransmissions: number;
  /** Packets offered to the bottleneck, bytes delivered, connections opened: for loss rates and checks. */
  packets: number;
  bytesDelivered: number;
  connections: number;
  /**
   * ms from the recorded navigation's start to the simulation's time 0 (the main document's request), when the
   * graph records its navigation: navigationStartOffset + loadTime compares with Navigation Timing's load.
   */
  navigationStartOffset?: number;
  /** Problems that did not stop the run (e.g. nodes that never became ready). */
  warnings?: string[];
  /**
   * Two paths (config path2): the second bottleneck's queue drops, random losses and packets (drops, losses
   * and packets above count both paths),
   * data bytes first sent on the second path, bytes that reached the client on either subflow (equal to
   * bytesDelivered: each once), and the most bytes one connection's receive buffer held for reordering.
   */
  multipath?: { drops2: number; losses2: number; packets2: number; bytesPath2: number; bytesArrived: number; maxReorderBytes: number };
  /** With `retransmissionSliceMs`: per TCP connection (in the order opened), its per-slice sent and retransmitted segments. */
  retransmissionSlices?: ConnectionSlices[];
  /** With `recordStreams`: what reached the browser of each response, for the invariants. */
  streams?: StreamDelivery[];
}

/**
 * One response's stream (an HTTP/2 or QUIC stream, or an HTTP/1 response on its connection) as the browser got
 * it: `ranges` holds [offset, length] pairs, flat, in delivery order (over MPTCP, as the meta socket delivered
 * them), a delivery that continues the previous one merged into it: a stream delivered once and in order is [0, size].
 */
export interface StreamDelivery {
  id: string;
  ranges: number[];
}

export interface SimulateOptions {
  /** Record each response's delivered byte ranges in `SimResult.streams` (bookkeeping for checkInvariants). */
  recordStreams?: boolean;
}

const MAX_ACK_LANES = 4;
/** Connections Chromium holds to the document's origin from the navigation's start: the document's and one preconnected. */
const PRECONNECT_SOCKETS = 2;

class Simulation {
  private readonly q = new EventQueue();
  private readonly remaining: Int32Array;
  private readonly done: Uint8Array;
  private readonly start: Float64Array;
  private readonly end: Float64Array;
  private readonly parentsDone: Uint8Array;
  private readonly requested: Uint8Array;
  private readonly downloaded: Uint8Array;
  private readonly preloaded: Uint8Array;
  private readonly bytesIn: Float64Array;
  private readonly chunkPtr: Int32Array;
  /**
   * The bytes resource r's next byte-driven chunk needs (Infinity: none left), once advanceChunks has looked
   * (0 before): an arriving segment below it cannot complete a chunk, so it skips the walk.
   */
  private readonly nextChunkBytes: Float64Array;
  private readonly chunkBytesOk: Uint8Array;
  private readonly exchangeOf: Array<Exchange | undefined>;
  /** With `recordStreams`: per resource node, its delivered [offset, length] pairs. */
  private readonly streamRanges: Array<number[] | undefined> = [];
  private readonly cacheHitOf: Int32Array;
  /**
   * The session cache, by the page model's cache slot: the resource node whose download fills the slot (-1: none
   * yet), whether the renderer has it, and the later requests for it waiting on that download.
   */
  private readonly cacheOwner: Int32Array;
  private readonly cacheDone: Uint8Array;
  private readonly cacheWaiters: Array<number[] | undefined> = [];
  /** Sync script: parse chunks reaching its tag not yet run (PageModel.syncReach). */
  private readonly syncReachLeft: Int32Array;
  private readonly syncBlocking: Uint8Array;
  /** Frames newly blocked: pre-parsed once the ready work (the parser's own requests) has run. */
  private readonly preloadPending: number[] = [];
  private readonly blocked: Int32Array;
  private readonly preloadQueue: number[][];
  private readonly parseStarted: Uint8Array;
  private readonly thread: MainThread;
  private readonly scheduler: ResourceScheduler | undefined;
  private readonly link: BottleneckLink | BridgeLink;
  private readonly pool: ConnectionPool;
  private readonly net: NetContext;
  /** The second path and its MPTCP connections (config path2). */
  private readonly multipath: MultipathNetwork | undefined;
  /** Activities made ready but not yet executed, FIFO so siblings start in graph order. Every node becomes
   * ready at most once, so one linear buffer of n slots serves the whole run. */
  private readonly work: Int32Array;
  private readonly workT: Float64Array;
  private workHead = 0;
  private workTail = 0;
  /** The main document's body waits for the navigation to commit (m.commitDelay after its first bytes). */
  private committed: boolean;
  /** Chromium's preload scanner: arrived chunks are scanned at once, blocked or not. */
  private readonly scanner: boolean;
  private commitScheduled = false;
  /** Frame documents: 1 once the commit is scheduled, 2 once the frame committed (its parser reads the body). */
  private readonly frameCommitState: Uint8Array;
  /** Frame documents wait for their recorded commit (cfg.frameCommit with browser delays). */
  private readonly frameCommits: boolean;

  constructor(
    private readonly m: PageModel,
    private readonly cfg: ResolvedConfig,
    private readonly recordStreams = false,
  ) {
    const n = m.n;
    this.remaining = m.nParents.slice();
    this.work = new Int32Array(n + 1);
    this.workT = new Float64Array(n + 1);
    this.done = new Uint8Array(n);
    this.start = new Float64Array(n).fill(NaN);
    this.end = new Float64Array(n).fill(NaN);
    this.parentsDone = new Uint8Array(n);
    this.requested = new Uint8Array(n);
    this.downloaded = new Uint8Array(n);
    this.preloaded = new Uint8Array(n);
    this.bytesIn = new Float64Array(n);
    this.frameCommitState = new Uint8Array(n);
    this.frameCommits = cfg.frameCommit && cfg.browserDelays;
    this.chunkPtr = new Int32Array(n);
    this.nextChunkBytes = new Float64Array(n);
    this.chunkBytesOk = new Uint8Array(n);
    this.exchangeOf = new Array<Exchange | undefined>(n);
    this.cacheHitOf = new Int32Array(n).fill(-1);
    this.cacheOwner = new Int32Array(m.cacheSlots).fill(-1);
    this.cacheDone = new Uint8Array(m.cacheSlots);
    this.parseStarted = new Uint8Array(n);
    this.syncReachLeft = m.syncReach.slice();
    this.syncBlocking = new Uint8Array(n);
    this.blocked = new Int32Array(m.frames.length);
    this.preloadQueue = m.frames.map(() => []);
    this.thread = new MainThread(m, this.cfg.mainThreadOrder);
    this.scanner = cfg.preloadScanner && m.chromium;
    this.committed = !cfg.navigationCommit || m.document < 0 || m.commitDelay <= 0;
    if (cfg.resourceScheduler) this.scheduler = new ResourceScheduler(m, (r, t) => this.release(r, t));
    const path = buildPath(cfg);
    this.link = path.bridge ?? path.down;
    path.bridge?.attach(this.q);
    const ackLanes = new Map<number, number>();
    this.net = {
      q: this.q,
      arrivalLane: this.q.addLane(),
      // One FIFO lane per distinct client->server delay; beyond a few (jitter gives every server its own),
      // ACKs go through the heap, since pop() scans every lane.
      ackLane: (up: number): number => {
        let l = ackLanes.get(up);
        if (l === undefined) {
          l = ackLanes.size < MAX_ACK_LANES ? this.q.addLane() : -1;
          ackLanes.set(up, l);
        }
        return l;
      },
      link: this.link,
      dS: cfg.rttMs / 4,
      dC: cfg.rttMs / 4,
      icwnd: cfg.icwnd,
      cubic: cfg.congestionControl === 'cubic',
      stats: { retransmissions: 0, bytesDelivered: 0 },
      uplink: path.up,
      delayedAcks: cfg.delayedAcks,
      psh: cfg.psh,
      tlp: cfg.tlp,
      sack: cfg.lossDetection === 'sack',
      earlyRetransmit: cfg.earlyRetransmit && cfg.protocol !== 'quic-lite',
      fack: cfg.fack,
      quicPto: cfg.quicPto,
      frto: cfg.frto,
      linuxIdleRestart: cfg.linuxIdleRestart,
      linuxRto: cfg.linuxRto,
      rwndSegments: cfg.receiveWindowSegments,
      rwndGrowth: cfg.receiveWindowGrowth,
      slices: cfg.retransmissionSliceMs > 0 ? new RetransmissionSlices(cfg.retransmissionSliceMs) : undefined,
      deliver: recordStreams
        ? (x, bytes, now, s) => {
            this.recordRange(x.node, s.off, bytes);
            this.onBytes(x, bytes, now);
          }
        : (x, bytes, now) => this.onBytes(x, bytes, now),
    };
    const delays = new ServerDelaySampler(cfg.serverDelayCdfs, new Rng(cfg.seed, STREAM_SERVER_DELAY));
    if (cfg.path2) this.multipath = new MultipathNetwork(cfg, this.net, this.q);
    const setup = cfg.connectionSetup ? (host: string): number => m.setup.byHost.get(host) ?? m.setup.otherwise : undefined;
    this.pool = new ConnectionPool(cfg, this.q, this.net, delays, { exchangeDone: (x, now) => this.onExchangeDone(x, now) }, this.multipath, setup);
  }

  run(): SimResult {
    const m = this.m;
    for (const r of m.roots) this.enqueueReady(r, 0);
    this.pump(0);
    const q = this.q;
    for (let ev = q.pop(); ev; ev = q.pop()) {
      const now = ev.t;
      switch (ev.kind) {
        case EV_SEGMENT_ARRIVES: {
          const s = ev.a as Segment;
          s.conn.onSegmentArrives(s, now);
          break;
        }
        case EV_ACK_ARRIVES: {
          const s = ev.a as Segment;
          s.conn.onAck(s, now, ev.b);
          break;
        }
        case EV_LINK:
          (ev.a as BridgeLink).onEvent(ev.b, now);
          break;
        case EV_RTO:
          (ev.a as TcpConnection).onRto(ev.b, now);
          break;
        case EV_DELACK:
          (ev.a as TcpConnection).onDelayedAck(ev.b, now);
          break;
        case EV_COMPUTE_DONE:
          this.thread.busy = false;
          this.complete(ev.b, now);
          break;
        case EV_TIMER_FIRES:
          this.thread.push(ev.b);
          break;
        case EV_CONN_ESTABLISHED:
          this.pool.onEstablished(ev.a as HttpConnection, now);
          break;
        case EV_REQUEST_AT_SERVER:
          this.pool.onRequestAtServer(ev.a as Exchange, now);
          break;
        case EV_RESPONSE_READY:
          this.pool.onResponseReady(ev.a as Exchange, now);
          break;
        case EV_RESPONSE_MORE:
          this.pool.onResponseMore(ev.a as Exchange, ev.b, now);
          break;
        case EV_DNS_DONE:
          this.pool.onDnsDone(ev.a as HostPool, now);
          break;
        case EV_MPTCP:
          (ev.a as MptcpConnection).onEvent(ev.b, now);
          break;
        case EV_NAV_COMMIT:
          this.committed = true;
          this.advanceChunks(m.document, now);
          break;
        case EV_FRAME_COMMIT:
          this.frameCommitState[ev.b] = 2;
          this.advanceChunks(ev.b, now);
          break;
        case EV_REQUEST_RELEASED:
          this.toPool(ev.b, now);
          break;
        case EV_RENDERER_DONE:
          this.rendererDone(ev.b, now);
          break;
      }
      // Most events (packets, ACKs) make nothing ready: skip the call unless there is work or the thread can start some.
      if (this.workHead < this.workTail || this.thread.ready || this.preloadPending.length > 0) this.pump(now);
    }
    const result = this.result();
    for (const c of this.pool.all) c.tcp.recycle();
    q.recycle();
    return result;
  }

  // ---- Algorithm 3 -------------------------------------------------------------------------------

  private enqueueReady(i: number, t: number): void {
    this.work[this.workTail] = i;
    this.workT[this.workTail++] = t;
  }

  /** Runs ready activities until none is left, then lets the main thread pick its next computation. */
  private pump(now: number): void {
    const m = this.m;
    do {
      while (this.workHead < this.workTail) {
        const i = this.work[this.workHead]!;
        const t = this.workT[this.workHead++]!;
        this.execute(i, t);
      }
      // The preloader's requests go out after the parser's own, and what they make ready runs now too.
      if (this.preloadPending.length > 0) this.preloadBlocked(now);
    } while (this.workHead < this.workTail);
    const th = this.thread;
    if (!th.busy) {
      const next = th.next();
      if (next >= 0) {
        th.busy = true;
        // Recorded work outside the graph that held this computation up runs first (PageModel.hiddenWork).
        const hidden = this.cfg.mainThreadTasks ? (this.cfg.eventDispatch ? m.markerWork : m.hiddenWork)[next]! : 0;
        this.start[next] = now + hidden;
        if (m.kind[next] === K_PARSE) {
          this.parseStarted[next] = 1;
          this.scheduler?.computationStarts(next, now);
        }
        this.q.schedule(now + hidden + m.duration[next]!, EV_COMPUTE_DONE, null, next);
      }
    }
  }

  private execute(i: number, now: number): void {
    const m = this.m;
    switch (m.kind[i]) {
      case K_RESOURCE:
        this.parentsDone[i] = 1;
        if (!this.requested[i]) this.issue(i, now);
        if (this.downloaded[i]) this.complete(i, now);
        return;
      case K_DCHUNK:
        this.parentsDone[i] = 1;
        if (Number.isNaN(this.start[i]!)) this.start[i] = now;
        if (m.chunkResource[i]! < 0 || this.chunkBytesOk[i]) this.complete(i, now);
        return;
      case K_MARKER:
        if (this.cfg.eventDispatch) {
          this.thread.push(i); // dispatched by the main thread (ResolvedConfig.eventDispatch)
          return;
        }
        this.start[i] = now;
        this.complete(i, now);
        return;
      case K_TIMER:
        if (m.timerDelay[i]! >= 0) {
          this.q.schedule(now + m.timerDelay[i]!, EV_TIMER_FIRES, null, i);
          return;
        }
        this.thread.push(i);
        return;
      default:
        this.thread.push(i);
    }
  }

  private complete(i: number, now: number): void {
    const m = this.m;
    if (this.done[i]) return;
    this.done[i] = 1;
    this.end[i] = now;
    if (this.syncBlocking[i]) {
      this.syncBlocking[i] = 0;
      this.blocked[m.frame[i]!]!--;
    }
    const ch = m.children[i]!;
    for (let j = 0; j < ch.length; j++) {
      const c = ch[j]!;
      if (m.chunkResource[c] === i) continue; // byte progress, handled in onBytes
      const left = --this.remaining[c]!;
      if (left === 0) this.enqueueReady(c, now);
    }
    if (!this.cfg.preloader) return;
    const reached = m.parseReachesSync[i]!;
    if (reached.length > 0) this.reachSync(reached);
    if (m.kind[i] === K_DCHUNK) {
      const ps = m.chunkParses[i]!;
      if (ps.length > 0) {
        const f = m.frame[i]!;
        for (let j = 0; j < ps.length; j++) this.preloadQueue[f]!.push(ps[j]!);
        this.maybePreload(f, now);
      }
    }
  }

  // ---- preloader ---------------------------------------------------------------------------------

  /** A parse chunk reaching these sync scripts' tags ran: once all of a script's have, its frame's parser waits on it. */
  private reachSync(scripts: Int32Array): void {
    const m = this.m;
    for (let j = 0; j < scripts.length; j++) {
      const s = scripts[j]!;
      if (--this.syncReachLeft[s]! !== 0 || this.done[s]) continue;
      this.syncBlocking[s] = 1;
      const f = m.frame[s]!;
      this.blocked[f]!++;
      if (!this.preloadPending.includes(f)) this.preloadPending.push(f);
    }
  }

  /** Pre-parses the frames that became blocked, after the ready activities (the parser's own requests) ran. */
  private preloadBlocked(now: number): void {
    const frames = this.preloadPending.splice(0);
    for (const f of frames) this.maybePreload(f, now);
  }

  /**
   * Pre-parses frame f's arrived chunks: while it is blocked, every preloadable resource of theirs; with the
   * preload scanner, also unblocked, the ones the recording shows the scanner found (the rest stay queued).
   */
  private maybePreload(f: number, now: number): void {
    const blocked = this.blocked[f]! > 0;
    if (!this.cfg.preloader || (!blocked && !this.scanner)) return;
    const queue = this.preloadQueue[f]!;
    const m = this.m;
    let kept = 0;
    for (const p of queue) {
      if (this.parseStarted[p]) continue;
      const rs = m.parsePreloads[p]!;
      for (let j = 0; j < rs.length; j++) {
        const r = rs[j]!;
        if (!this.requested[r] && (blocked || m.scanned[r])) {
          this.preloaded[r] = 1;
          this.issue(r, now);
        }
      }
      if (!blocked) queue[kept++] = p;
    }
    queue.length = kept;
  }

  // ---- resources, session cache, byte progress ---------------------------------------------------

  private issue(r: number, now: number): void {
    const m = this.m;
    this.requested[r] = 1;
    this.start[r] = now;
    const info = m.res[m.resOf[r]!]!;
    const slot = m.cacheSlot[r]!;
    const owner = this.cacheOwner[slot]!;
    if (owner >= 0) {
      this.cacheHitOf[r] = owner;
      if (this.cacheDone[slot]) this.markDownloaded(r, now);
      else (this.cacheWaiters[slot] ??= []).push(r);
      return;
    }
    this.cacheOwner[slot] = r;
    const prio = this.cfg.priority === 'mimeType' ? info.prioMime : this.cfg.priority === 'criticalPath' ? info.prioCrit : 0;
    const x: Exchange = {
      node: r,
      bytes: info.bytes,
      sent: 0,
      received: 0,
      prio,
      order: 0,
      serverDelay: this.pool.serverDelay(info.serverDelay, info.mimeClass) + this.socketLag(r),
      tIssue: now,
      tSent: NaN,
      tAtServer: NaN,
      tReady: NaN,
      tFirstByte: NaN,
      tEnd: NaN,
      handshake: 0,
      conn: null,
    };
    if (this.cfg.serverPacing && info.pace) x.pace = info.pace;
    this.exchangeOf[r] = x;
    if (this.scheduler) this.scheduler.request(r, now);
    else this.release(r, now);
  }

  /** Blink released request r (past its scheduler): it reaches the connection pool after its request delay. */
  private release(r: number, now: number): void {
    const delay = this.requestDelay(r);
    if (delay > 0) this.q.schedule(now + delay, EV_REQUEST_RELEASED, null, r);
    else this.toPool(r, now);
  }

  /**
   * Request r reaches the network stack. The document's brings the preconnect with it: LoadingPredictor asks
   * the network service for the sockets at the navigation's start, across the same hop as the navigation's
   * request (the document's recorded request delay), so neither socket is opened before that.
   */
  private toPool(r: number, now: number): void {
    const host = this.m.res[this.m.resOf[r]!]!.host;
    this.pool.request(this.exchangeOf[r]!, host, now, r === this.m.document);
    if (r === this.m.document && this.cfg.preconnect) this.pool.preconnect(host, PRECONNECT_SOCKETS, now);
  }

  private requestDelay(r: number): number {
    if (!this.cfg.browserDelays) return 0;
    const info = this.m.res[this.m.resOf[r]!]!;
    return info.requestDelay + (this.cfg.releaseHop ? info.releaseHop : 0);
  }

  /** The network service's lag in resource r's exchange, ridden on its server delay (page-model.ts `socketLag`). */
  private socketLag(r: number): number {
    return this.cfg.browserDelays && this.cfg.socketLag ? this.m.res[this.m.resOf[r]!]!.socketLag : 0;
  }

  private responseDelay(r: number): number {
    if (!this.cfg.browserDelays) return 0;
    const info = this.m.res[this.m.resOf[r]!]!;
    return info.responseDelay + (this.cfg.networkRead ? info.readDelay : 0);
  }

  /** A frame's document whose parser waits for the frame's commit (its recorded commit delay after its first bytes). */
  private awaitsFrameCommit(r: number): boolean {
    return this.frameCommits && this.m.awaitsCommit[r] === 1; // one load per arriving segment
  }

  /** `recordStreams`: bytes off..off+len of node r's response reached the browser (merged into a run that ends at off). */
  private recordRange(r: number, off: number, len: number): void {
    const ranges = this.streamRanges[r];
    if (ranges === undefined) this.streamRanges[r] = [off, len];
    else if (ranges[ranges.length - 2]! + ranges[ranges.length - 1]! === off) ranges[ranges.length - 1]! += len;
    else ranges.push(off, len);
  }

  private onBytes(x: Exchange, bytes: number, now: number): void {
    const r = x.node;
    this.bytesIn[r]! += bytes;
    if (r === this.m.document && !this.committed && !this.commitScheduled) {
      this.commitScheduled = true;
      this.q.schedule(now + this.m.commitDelay, EV_NAV_COMMIT, null, 0);
    }
    if (this.frameCommitState[r] === 0 && this.awaitsFrameCommit(r)) {
      this.frameCommitState[r] = 1;
      this.q.schedule(now + this.m.res[this.m.resOf[r]!]!.commitDelay, EV_FRAME_COMMIT, null, r);
    }
    if (this.bytesIn[r]! >= this.nextChunkBytes[r]!) this.advanceChunks(r, now);
    this.pool.onBytes(x, bytes, now);
  }

  private advanceChunks(r: number, now: number): void {
    const m = this.m;
    if (r === m.document && !this.committed) return;
    if (this.frameCommitState[r] !== 2 && this.awaitsFrameCommit(r)) return;
    const chunks = m.res[m.resOf[r]!]!.chunks;
    let p = this.chunkPtr[r]!;
    const have = this.bytesIn[r]!;
    // The chunk that ends the body completes only once the renderer knows the body ended (the response's completion).
    const body = this.downloaded[r] ? Infinity : m.res[m.resOf[r]!]!.bytes;
    while (p < chunks.length && m.chunkBytes[chunks[p]!]! <= have && m.chunkBytes[chunks[p]!]! < body) {
      const c = chunks[p++]!;
      this.chunkBytesOk[c] = 1;
      if (this.parentsDone[c] && !this.done[c]) {
        if (Number.isNaN(this.start[c]!)) this.start[c] = now;
        this.complete(c, now);
      }
    }
    this.chunkPtr[r] = p;
    this.nextChunkBytes[r] = p < chunks.length ? m.chunkBytes[chunks[p]!]! : Infinity;
  }

  private onExchangeDone(x: Exchange, now: number): void {
    const delay = this.responseDelay(x.node);
    if (delay > 0) this.q.schedule(now + delay, EV_RENDERER_DONE, null, x.node);
    else this.rendererDone(x.node, now);
  }

  /** The renderer has resource r's whole response (its network exchange ended a response delay ago). */
  private rendererDone(r: number, now: number): void {
    const slot = this.m.cacheSlot[r]!;
    this.cacheDone[slot] = 1;
    this.scheduler?.finished(r, now);
    this.markDownloaded(r, now);
    const waiters = this.cacheWaiters[slot];
    if (waiters) for (const w of waiters) this.markDownloaded(w, now);
  }

  private markDownloaded(r: number, now: number): void {
    this.downloaded[r] = 1;
    const info = this.m.res[this.m.resOf[r]!]!;
    if (this.bytesIn[r]! < info.bytes) this.bytesIn[r] = info.bytes; // a session-cache hit gets the whole body at once
    this.frameCommitState[r] = 2; // the renderer has it all: a frame has committed by now (a session-cache hit has no commit of its own)
    this.advanceChunks(r, now);
    if (this.parentsDone[r] && !this.done[r]) this.complete(r, now);
  }

  // ---- result ------------------------------------------------------------------------------------

  /**
   * When node i ended, or `otherwise` when there is no such node or it never ran. A method, not a closure in
   * result(): under tsx (esbuild's keepNames) every named closure costs a defineProperty as it is created.
   */
  private endOr(i: number, otherwise: number): number {
    return i >= 0 && this.done[i] ? this.end[i]! : otherwise;
  }

  private result(): SimResult {
    const m = this.m;
    const nodes: SimResult['nodes'] = [];
    let endTime = 0;
    let never = 0;
    for (let i = 0; i < m.n; i++) {
      if (!this.done[i]) {
        never++;
        continue;
      }
      const s = Number.isNaN(this.start[i]!) ? this.end[i]! : this.start[i]!;
      nodes.push({ id: m.ids[i]!, start: s, end: this.end[i]! });
      if (this.end[i]! > endTime) endTime = this.end[i]!;
    }
    const resources: ResourceTiming[] = [];
    for (let i = 0; i < m.n; i++) {
      if (m.kind[i] !== K_RESOURCE || !this.requested[i]) continue;
      const info = m.res[m.resOf[i]!]!;
      const x = this.exchangeOf[i];
      const start = this.start[i]!;
      if (x && !Number.isNaN(x.tEnd)) {
        const reqDelay = this.requestDelay(i);
        const respDelay = this.responseDelay(i);
        // The network service's lag rides on the server delay in the exchange; the timing gives it to the browser.
        const lag = this.socketLag(i);
        const queued = x.tSent - x.tIssue - x.handshake - reqDelay;
        const serverBuffer = x.tFirstByte - x.tAtServer - x.serverDelay;
        const t: ResourceTiming = {
          id: m.ids[i]!,
          url: info.url,
          queued,
          handshake: x.handshake,
          request: x.tAtServer - x.tSent,
          serverDelay: x.serverDelay - lag,
          serverBuffer,
          transfer: x.tEnd - x.tFirstByte,
          browser: reqDelay + respDelay + lag,
          start,
          end: x.tEnd + respDelay,
        };
        if (this.preloaded[i]) t.preloaded = true;
        resources.push(t);
      } else if (!x && this.downloaded[i]) {
        const owner = this.cacheHitOf[i]!;
        const ownerX = this.exchangeOf[owner];
        const endT = Math.max(start, ownerX ? ownerX.tEnd + this.responseDelay(owner) : start);
        resources.push({ id: m.ids[i]!, url: info.url, queued: endT - start, handshake: 0, request: 0, serverDelay: 0, serverBuffer: 0, transfer: 0, browser: 0, start, end: endT, sessionCacheHit: true });
      }
    }
    const out: SimResult = {
      loadTime: this.endOr(m.load, endTime),
      domContentLoadedTime: this.endOr(m.dcl, endTime),
      endTime,
      resources,
      nodes,
      drops: this.link.drops + (this.multipath?.link2.drops ?? 0),
      losses: this.link.losses + (this.net.uplink?.losses ?? 0) + (this.multipath?.losses ?? 0),
      retransmissions: this.net.stats.retransmissions + (this.multipath?.stats.retransmissions ?? 0),
      packets: this.link.packets + (this.multipath?.link2.packets ?? 0),
      bytesDelivered: this.net.stats.bytesDelivered,
      connections: this.pool.connectionsOpened,
    };
    if (this.net.slices) out.retransmissionSlices = this.net.slices.connections;
    if (this.recordStreams) {
      const streams: StreamDelivery[] = (out.streams = []);
      this.streamRanges.forEach((ranges, i) => ranges && streams.push({ id: m.ids[i]!, ranges }));
    }
    if (this.multipath) {
      const s = this.multipath.stats;
      out.multipath = { drops2: this.multipath.link2.drops, losses2: this.multipath.losses, packets2: this.multipath.link2.packets, bytesPath2: s.bytesPath2, bytesArrived: s.bytesDelivered, maxReorderBytes: s.maxReorderBytes };
    }
    const nav = m.graph.navigation;
    if (nav) out.navigationStartOffset = nav.navigationStartOffset + (nav.documentRequest ?? 0);
    const warnings: string[] = [];
    if (never > 0) warnings.push(`${never} of ${m.n} activities never became ready (a cycle or a parent that never completes)`);
    if (m.load < 0) warnings.push('the graph has no enabled load marker: loadTime is the end of the graph');
    if (warnings.length) out.warnings = warnings;
    return out;
  }
}

/** Simulates one page load. Pure: the same graph, config and seed always give the same result. */
export function simulate(graph: Graph, config: EmulatorConfig, options: SimulateOptions = {}): SimResult {
  const cfg = resolveConfig(config);
  const model = compileGraph(graph);
  return new Simulation(model, cfg, options.recordStreams).run();
}

