/**
 * The client's connection pool and the servers behind it (§3.7.6, §3.7.2 protocols), one HostPool per
 * server (a host, or the merged host of an unshard transform):
 * - h1.0: one request per connection, up to k connections open at once; each closes after its response.
 * - h1: up to k persistent connections; a request waits for an idle one (or one it opens).
 * - h1-pipelined: up to k connections, then requests are pipelined onto the least loaded one; the server
 *   answers in request order (parallel = FIFO responses) or processes them one at a time (serial).
 * - h2 / quic-lite: one connection per server, every request sent at once, an out-of-order server, and the
 *   send buffer ordered by priority when a scheme is chosen.
 * DNS (dnsRtts round trips, once per host: the DNS cache) and TLS (tlsRtts per new connection) are off by
 * default, as in the thesis' experiments.
 */
import type { ResolvedConfig } from '../config.ts';
import type { EventQueue } from '../event-queue.ts';
import { EV_CONN_ESTABLISHED, EV_REQUEST_AT_SERVER } from '../events.ts';
import { TcpConnection, type NetContext } from '../network/tcp.ts';
import { removeAt } from '../remove-at.ts';
import { Rng, STREAM_RTT_JITTER } from '../rng.ts';
import type { ServerDelaySampler } from '../server-delays.ts';
import { DnsCache } from './dns-cache.ts';
import { SendBuffer, type Exchange } from './send-buffer.ts';
import { ServerSession } from './server.ts';

/** A request on the wire (headers of a typical GET), for lossy or traced uplinks. */
const REQUEST_WIRE_BYTES = 500;

/** What carries an HttpConnection's bytes: a TcpConnection, or an MPTCP connection over two paths (mptcp/). */
export interface Transport {
  /** Client->server one-way delay of requests, ms. */
  readonly up: number;
  /** How long the TCP handshake and `tlsRtts` TLS round trips take from `start` (flights lost on lossy links). */
  handshakeTime(tlsRtts: number, start?: number): number;
  /** A request leaving the client at `now`: its trip to the server, ms (retried on a lossy uplink). */
  requestTrip(now: number, wireBytes: number): number;
  /** New data in the send buffer. */
  kick(now: number): void;
  /** The simulation is over: hand segments back for reuse. */
  recycle(): void;
}

export interface TransportFactory {
  open(pool: HostPool, buffer: SendBuffer, perSegmentDelivery: boolean, now: number): Transport;
}

export class HttpConnection {
  readonly tcp: Transport;
  readonly server: ServerSession;
  established = false;
  tOpen: number;
  tEst = NaN;
  /** Requests assigned to it whose responses have not fully reached the client. */
  outstanding: Exchange[] = [];
  /** Assigned before the handshake finished; sent on establishment. */
  unsent: Exchange[] = [];
  /** The handshake's round trips are over and the hosts' work (HostPool.setup) is under way or done. */
  setupDone = false;

  constructor(
    readonly pool: HostPool,
    tcp: Transport,
    server: ServerSession,
    now: number,
  ) {
    this.tcp = tcp;
    this.server = server;
    this.tOpen = now;
  }
}

export class HostPool {
  conns: HttpConnection[] = [];
  pending: Exchange[] = [];
  pendingHead = 0;
  /** Connections to keep open even without requests waiting (the browser's preconnect). */
  minConns = 0;
  constructor(
    readonly key: string,
    /** Client->server one-way delay, ms: half the base RTT plus this server's extra RTT. */
    readonly up: number,
    /** Round-trip time to this server without queueing: base RTT plus its extra RTT. */
    readonly rtt: number,
    /** The hosts' work in opening a connection, beside the handshake's round trips, ms (connection-setup.ts). */
    readonly setup = 0,
  ) {}
}

export interface PoolCallbacks {
  /** The last byte of an exchange reached the client application. */
  exchangeDone(x: Exchange, now: number): void;
}

/** Suffix of the pool key of a server's large-object shard. */
const LARGE_SHARD = ' (large objects)';

function overlap(a0: number, a1: number, b0: number, b1: number): number {
  if (!(b1 > b0)) return 0;
  return Math.max(0, Math.min(a1, b1) - Math.max(a0, b0));
}

export class ConnectionPool {
  private pools = new Map<string, HostPool>();
  private readonly multiplexed: boolean;
  private readonly pipelined: boolean;
  private readonly prioritised: boolean;
  private readonly dns: DnsCache;
  private readonly jitter: Rng;
  connectionsOpened = 0;
  /** Every connection opened, closed ones included (for recycling their segments at the end). */
  readonly all: HttpConnection[] = [];

  constructor(
    private readonly cfg: ResolvedConfig,
    private readonly q: EventQueue,
    private readonly net: NetContext,
    private readonly delays: ServerDelaySampler,
    private readonly cb: PoolCallbacks,
    /** Opens the transport of each new connection; default one TcpConnection on the simulator's network. */
    private readonly transports?: TransportFactory,
    /** The hosts' work in opening a connection to a host, ms, beside the round trips (default none). */
    private readonly setupOf: (host: string) => number = () => 0,
  ) {
    this.multiplexed = cfg.protocol === 'h2' || cfg.protocol === 'quic-lite';
    this.pipelined = cfg.protocol === 'h1-pipelined';
    this.prioritised = cfg.priority !== 'none' && cfg.server === 'out-of-order';
    this.dns = new DnsCache(q, cfg.dnsRtts * cfg.rttMs);
    this.jitter = new Rng(cfg.seed, STREAM_RTT_JITTER);
  }

  /** The server a host's requests go to (after unsharding). */
  serverKey(host: string): string {
    const u = this.cfg.unshard;
    return u.length > 0 && u.includes(host) ? u[0]! : host;
  }

  /**
   * h2-aware domain sharding (Goel 2017 §VIII, `shardLarge`): with HTTP/2, responses above the threshold
   * come from a second hostname of the same server, so over a second connection (its own DNS lookup,
   * handshake and congestion window); the small ones keep the first, and so does the page's document.
   */
  private shardLarge(x: Exchange): boolean {
    return this.multiplexed && this.cfg.shardLarge > 0 && x.bytes > this.cfg.shardLarge;
  }

  /**
   * The shard of the next large response: round-robin over shardConnections (0: a new one each time); with
   * shardOverflow 'main', the first shardConnections each on its own and the rest on the first connection ('').
   */
  private largeShard(): string {
    const k = this.cfg.shardConnections;
    const i = this.largeResponses++;
    if (k > 0 && i >= k && this.cfg.shardOverflow === 'main') return '';
    return `${LARGE_SHARD} ${k === 0 ? i : i % k}`;
  }

  private largeResponses = 0;

  private poolFor(host: string, shard = ''): HostPool {
    const server = this.serverKey(host);
    const key = server + shard;
    let p = this.pools.get(key);
    if (!p && shard !== '') {
      const base = this.poolFor(host); // the same server: the same path
      p = new HostPool(key, base.up, base.rtt, base.setup);
      this.pools.set(key, p);
    }
    if (!p) {
      let extra = this.cfg.extraRttMs.get(server) ?? this.cfg.extraRttMs.get(server.replace(/:\d+$/, '')) ?? 0;
      // Jitter rides on the client->server direction, like extra RTT, so the bottleneck keeps send order.
      if (this.cfg.rttJitter > 0) extra += (2 * this.jitter.next() - 1) * this.cfg.rttJitter * (this.cfg.rttMs / 4);
      p = new HostPool(key, this.cfg.rttMs / 2 + extra, this.cfg.rttMs + extra, this.setupOf(server));
      this.pools.set(key, p);
    }
    return p;
  }

  /** `document`: the page's own HTML, which sharding never moves (it rewrites the page's embedded objects' URLs). */
  request(x: Exchange, host: string, now: number, document = false): void {
    const pool = !document && this.shardLarge(x) ? this.poolFor(host, this.largeShard()) : this.poolFor(host);
    pool.pending.push(x);
    if (this.dns.resolve(pool.key, now, pool)) this.dispatch(pool, now);
  }

  /**
   * Chromium's preconnect at navigation start (LoadingPredictor): HTTP/1.1 keeps `n` connections to the
   * host open or opening, so the first subresources find a connection ready while the document downloads.
   */
  preconnect(host: string, n: number, now: number): void {
    if (this.cfg.protocol !== 'h1') return;
    const pool = this.poolFor(host);
    pool.minConns = Math.max(pool.minConns, Math.min(n, this.cfg.connectionsPerHost));
    if (this.dns.resolve(pool.key, now, pool)) this.dispatch(pool, now);
  }

  onDnsDone(pool: HostPool, now: number): void {
    this.dns.done(pool.key, now);
    this.dispatch(pool, now);
  }

  private takePending(pool: HostPool): Exchange | undefined {
    if (pool.pendingHead >= pool.pending.length) return undefined;
    const x = pool.pending[pool.pendingHead++]!;
    if (pool.pendingHead > 64 && pool.pendingHead * 2 > pool.pending.length) {
      pool.pending = pool.pending.slice(pool.pendingHead);
      pool.pendingHead = 0;
    }
    return x;
  }

  private pendingCount(pool: HostPool): number {
    return pool.pending.length - pool.pendingHead;
  }

  private dispatch(pool: HostPool, now: number): void {
    const k = this.cfg.connectionsPerHost;
    if (this.multiplexed) {
      const conn = pool.conns[0] ?? this.open(pool, now);
      for (let x = this.takePending(pool); x; x = this.takePending(pool)) this.assign(conn, x, now);
      return;
    }
    if (this.pipelined) {
      for (let x = this.takePending(pool); x; x = this.takePending(pool)) {
        let conn: HttpConnection;
        if (pool.conns.length < k) conn = this.open(pool, now);
        else {
          conn = pool.conns[0]!;
          for (const c of pool.conns) if (c.outstanding.length < conn.outstanding.length) conn = c;
        }
        this.assign(conn, x, now);
      }
      return;
    }
    // HTTP/1.0 and 1.1: one exchange at a time per connection.
    for (const c of pool.conns) {
      if (this.pendingCount(pool) === 0) break;
      if (c.established && c.outstanding.length === 0) this.assign(c, this.takePending(pool)!, now);
    }
    let connecting = 0;
    for (const c of pool.conns) if (!c.established) connecting++;
    while ((this.pendingCount(pool) > connecting || pool.conns.length < pool.minConns) && pool.conns.length < k) {
      this.open(pool, now);
      connecting++;
    }
  }

  private open(pool: HostPool, now: number): HttpConnection {
    const buffer = new SendBuffer(this.prioritised, this.cfg.preemption);
    const perSegment = this.cfg.protocol === 'quic-lite';
    const tcp = this.transports ? this.transports.open(pool, buffer, perSegment, now) : new TcpConnection(this.net, pool.up, perSegment, buffer, pool.rtt);
    this.net.slices?.open(tcp, now + pool.up); // Goel's slices start when the server receives the SYN
    const conn = new HttpConnection(pool, tcp, new ServerSession(this.cfg.server, this.q, buffer), now);
    pool.conns.push(conn);
    this.all.push(conn);
    this.connectionsOpened++;
    // SYN / SYN-ACK (1 RTT; the request rides with the final ACK), then tlsRtts more for TLS; lossy links retry.
    this.q.schedule(now + tcp.handshakeTime(this.cfg.tlsRtts, now), EV_CONN_ESTABLISHED, conn);
    return conn;
  }

  private assign(conn: HttpConnection, x: Exchange, now: number): void {
    x.conn = conn;
    conn.outstanding.push(x);
    if (conn.established) this.send(conn, x, now);
    else conn.unsent.push(x);
  }

  private send(conn: HttpConnection, x: Exchange, now: number): void {
    x.tSent = now;
    const dns = this.dns.entry(conn.pool.key);
    x.handshake = (dns ? overlap(x.tIssue, now, dns.start, dns.end) : 0) + overlap(x.tIssue, now, conn.tOpen, conn.tEst);
    this.q.schedule(now + conn.tcp.requestTrip(now, REQUEST_WIRE_BYTES), EV_REQUEST_AT_SERVER, x);
  }

  onEstablished(conn: HttpConnection, now: number): void {
    // The two ends' own work in the handshake (key exchange, certificates: HostPool.setup) follows its round trips.
    if (!conn.setupDone && conn.pool.setup > 0) {
      conn.setupDone = true;
      this.q.schedule(now + conn.pool.setup, EV_CONN_ESTABLISHED, conn);
      return;
    }
    conn.established = true;
    conn.tEst = now;
    if (this.multiplexed || this.pipelined) {
      for (const x of conn.unsent) this.send(conn, x, now);
      conn.unsent = [];
    } else {
      this.dispatch(conn.pool, now);
    }
  }

  /** Server side: a request arrived; the server model schedules its response. */
  onRequestAtServer(x: Exchange, now: number): void {
    (x.conn as HttpConnection).server.requestArrived(x, now);
  }

  onResponseReady(x: Exchange, now: number): void {
    const conn = x.conn as HttpConnection;
    conn.server.responseReady(x, now);
    conn.tcp.kick(now);
  }

  /** A paced response's server produced step k of its body. */
  onResponseMore(x: Exchange, k: number, now: number): void {
    const conn = x.conn as HttpConnection;
    conn.server.moreProduced(x, k);
    conn.tcp.kick(now);
  }

  /** Client side: bytes of x reached the application. */
  onBytes(x: Exchange, bytes: number, now: number): boolean {
    x.received += bytes;
    if (x.received < x.bytes) return false;
    x.tEnd = now;
    const conn = x.conn as HttpConnection;
    const i = conn.outstanding.indexOf(x);
    if (i >= 0) removeAt(conn.outstanding, i);
    this.cb.exchangeDone(x, now);
    if (!this.multiplexed && !this.pipelined) {
      if (this.cfg.protocol === 'h1.0') {
        const pool = conn.pool;
        pool.conns.splice(pool.conns.indexOf(conn), 1);
      }
      this.dispatch(conn.pool, now);
    }
    return true;
  }

  /** The server delay for a new exchange (graph value, else a seeded draw). */
  serverDelay(recorded: number | undefined, cls: Parameters<ServerDelaySampler['delay']>[1]): number {
    return this.delays.delay(recorded, cls);
  }
}
