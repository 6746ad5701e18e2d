/**
 * The replay server (Mahimahi's ReplayShell idea): every recorded origin served again on this
 * machine from the bundle's archive. One listener per origin, on `bind` (127.0.0.1 by default):
 * plain http origins as HTTP/1.1 cleartext, https origins over TLS with the run-time replay
 * certificate, HTTP/2 where the recording saw h2 (node:http2 with allowHTTP1) and HTTP/1.1 where it
 * did not, or what `protocol` forces. Chromium reaches the listeners through --host-resolver-rules
 * (`MAP host:port bind:listenPort` per origin, which works for host names and IP literals alike), so
 * the page keeps its URLs and origins. Each response is held for its entry's server delay; requests
 * the archive lacks get a 404 and are counted.
 */
import http from 'node:http';
import http2 from 'node:http2';
import https from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import type { OutgoingHttpHeaders } from 'node:http';
import type { ReplayArchive, RecordedOrigin, OriginProtocol, ReplayEntry } from './archive.ts';
import { makeReplayCert, type ReplayCert } from './cert.ts';
import { createMatcher, type MatchKind } from './match.ts';
import { endingBy, pacePlan, shortenedBy, type PaceStep } from './pace.ts';
import { ConnectionSetups } from './setup.ts';

export interface ReplayServerOptions {
  /** Address to listen on (default 127.0.0.1). */
  bind?: string;
  /** First port: origins get basePort, basePort+1, ... in order of first use (default: free ports). */
  basePort?: number;
  /** Serve every https origin over this protocol instead of the recorded one. */
  protocol?: 'h1' | 'h2';
  /** Hold responses for their server delays (default true). */
  delays?: boolean;
  /** Send bodies paced as they arrived when recorded (pace.ts; default false). */
  pace?: boolean;
}

export interface ServedOrigin extends RecordedOrigin {
  listenPort: number;
  /** What the listener speaks: plain http origins are always HTTP/1.1 (Chromium has no cleartext h2). */
  served: OriginProtocol;
}

export interface ReplayStats {
  requests: number;
  /** Answered from the archive, by how the request was matched. */
  matched: Record<MatchKind, number>;
  /** Requests the archive lacks (answered 404). */
  misses: { method: string; url: string }[];
  /**
   * Unrecorded /favicon.ico requests (answered 404, counted apart): the browser asks for them on its
   * own, late and whatever the page does, so a recording may have ended before one was made.
   */
  faviconMisses: number;
  /** Recorded responses whose body was not recorded, served with an empty body. */
  emptyBodies: number;
  /**
   * With --pace, responses of a schedule made from the source's whole span (`_setupInSpan`: a synthesized
   * site) that came first on a new TLS connection: the handshake's ms taken off their schedule (setup.ts).
   */
  setupTaken: { responses: number; ms: number };
  /**
   * With --pace, responses with `_endBy` (a synthesized span that already holds the source browser's waits)
   * that came later on the page's clock than their schedule allows: the ms taken off to end by it (pace.ts `endingBy`).
   */
  endByTaken: { responses: number; ms: number };
}

export interface ReplayServer {
  pageUrl: string;
  origins: ServedOrigin[];
  /** --host-resolver-rules for Chromium: every recorded host:port to its listener. */
  hostResolverRules: string;
  /** base64 SHA-256 of the certificate's SPKI (undefined when no origin uses TLS). */
  spkiHash: string | undefined;
  /** The switches Chromium needs to load the replayed page. */
  chromiumArgs: string[];
  stats: ReplayStats;
  /** Zero the counters (between loads of fresh browsers). */
  resetStats(): void;
  /**
   * A fresh start for the next load: the counters zeroed and every open connection closed (a browser that
   * opened them, as the cache warm-up's, opens its own again and pays their set-up, as a fresh browser does).
   */
  freshStart(): void;
  close(): Promise<void>;
}

/** Headers a replayed response must not copy: hop-by-hop, and framing the server redoes (bodies are stored decoded). */
const DROPPED = new Set(['connection', 'keep-alive', 'transfer-encoding', 'upgrade', 'proxy-connection', 'http2-settings', 'content-length', 'content-encoding', 'alt-svc']);

/** The recorded response headers as a node header object (names lower-cased, repeats kept). Pure. */
export function replayHeaders(entry: Pick<ReplayEntry, 'headers'>, bodyLength: number): OutgoingHttpHeaders {
  const out: Record<string, string | string[]> = {};
  for (const { name, value } of entry.headers) {
    const k = name.toLowerCase();
    if (DROPPED.has(k) || k.startsWith(':')) continue;
    const prev = out[k];
    if (prev === undefined) out[k] = value;
    else out[k] = Array.isArray(prev) ? [...prev, value] : k === 'set-cookie' ? [prev, value] : `${prev}, ${value}`;
  }
  out['content-length'] = String(bodyLength);
  return out;
}

/** Statuses that carry no body. */
const noBody = (method: string, status: number): boolean => method === 'HEAD' || status === 204 || status === 304 || (status >= 100 && status < 200);

/** When a schedule's last write goes, ms after the request. */
const scheduleEnd = (s: { delayMs: number; steps: readonly PaceStep[] }): number => s.delayMs + (s.steps.at(-1)?.atMs ?? 0);

function hostForUrl(host: string): string {
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}

function urlFor(o: RecordedOrigin, path: string): string {
  const dflt = (o.scheme === 'http' && o.port === 80) || (o.scheme === 'https' && o.port === 443);
  return `${o.scheme}://${hostForUrl(o.host)}${dflt ? '' : `:${o.port}`}${path}`;
}

export async function startReplayServer(archive: ReplayArchive, opts: ReplayServerOptions = {}): Promise<ReplayServer> {
  const bind = opts.bind ?? '127.0.0.1';
  const matcher = createMatcher(archive.entries);
  const stats: ReplayStats = { requests: 0, matched: { exact: 0, query: 0 }, misses: [], faviconMisses: 0, emptyBodies: 0, setupTaken: { responses: 0, ms: 0 }, endByTaken: { responses: 0, ms: 0 } };
  const setups = new ConnectionSetups();
  const tlsHosts = archive.origins.filter((o) => o.scheme === 'https').map((o) => o.host);
  const cert: ReplayCert | undefined = tlsHosts.length ? makeReplayCert(tlsHosts) : undefined;
  const timers = new Set<NodeJS.Timeout>();
  const sockets = new Set<Socket>();
  const servers: (http.Server | https.Server | http2.Http2SecureServer)[] = [];
  const useDelays = opts.delays ?? true;
  // The page's clock for `_endBy`: its first request since the server started or its counts restarted (the document's).
  let pageStart: number | undefined;
  const hold = (ms: number, fn: () => void): void => {
    const t = setTimeout(() => {
      timers.delete(t);
      fn();
    }, ms);
    timers.add(t);
  };

  const handler = (o: RecordedOrigin) => (req: http.IncomingMessage | http2.Http2ServerRequest, res: http.ServerResponse | http2.Http2ServerResponse): void => {
    stats.requests++;
    const arrived = performance.now();
    pageStart ??= arrived;
    // The connection's set-up, owed to its first request whatever it asks for.
    const setupMs = setups.take(req.socket);
    const method = (req.method ?? 'GET').toUpperCase();
    const url = urlFor(o, req.url ?? '/');
    const m = matcher.match(method, url);
    if (!m) {
      if ((req.url ?? '') === '/favicon.ico') stats.faviconMisses++;
      else stats.misses.push({ method, url });
      const body = Buffer.from('not in the replay archive\n');
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8', 'content-length': String(body.length), 'cache-control': 'no-store' });
      res.end(body);
      return;
    }
    stats.matched[m.kind]++;
    const e = m.entry;
    const body = noBody(method, e.status) ? Buffer.alloc(0) : (e.body ?? Buffer.alloc(0));
    // A schedule made from the source's span already holds a new connection's set-up: the replay's own comes off it.
    const planned = { delayMs: useDelays ? e.delayMs : 0, steps: opts.pace && e.chunks ? pacePlan(e.chunks, body.length) : [{ atMs: 0, end: body.length }] };
    const unsetup = opts.pace && e.setupInSpan && setupMs > 0 ? shortenedBy(planned.delayMs, planned.steps, setupMs) : planned;
    if (unsetup !== planned) {
      stats.setupTaken.responses++;
      stats.setupTaken.ms += setupMs;
    }
    // A span that already holds the browser's waits ends by its time on the page's clock, however late it came.
    const paced = opts.pace && e.endByMs !== undefined ? endingBy(unsetup.delayMs, unsetup.steps, e.endByMs - (arrived - pageStart), e.endByLeastMs) : unsetup;
    const taken = scheduleEnd(unsetup) - scheduleEnd(paced);
    if (taken > 0) {
      stats.endByTaken.responses++;
      stats.endByTaken.ms += taken;
    }
    const send = (): void => {
      if (res.destroyed || res.writableEnded) return;
      if (!e.body && !noBody(method, e.status) && !(e.status >= 300 && e.status < 400)) stats.emptyBodies++;
      const headers = replayHeaders(e, body.length);
      if (req.httpVersionMajor === 1 && e.statusText) (res as http.ServerResponse).statusMessage = e.statusText;
      res.writeHead(e.status, headers);
      const { steps } = paced;
      // A body held after its headers (its first write later): the headers go now, as the recorded server sent them.
      if ((steps[0]?.atMs ?? 0) > 0) (res as { flushHeaders(): void }).flushHeaders();
      let from = 0;
      for (const [i, step] of steps.entries()) {
        const write = (): void => {
          if (res.destroyed || res.writableEnded) return;
          const piece = body.subarray(from, step.end);
          from = step.end;
          if (i === steps.length - 1) res.end(piece);
          else (res as { write(chunk: Buffer): boolean }).write(piece);
        };
        if (step.atMs <= 0) write();
        else hold(step.atMs, write);
      }
    };
    const delay = paced.delayMs;
    if (delay > 0) hold(delay, send);
    else send();
  };

  const origins: ServedOrigin[] = [];
  try {
    for (const [i, o] of archive.origins.entries()) {
      const served: OriginProtocol = o.scheme === 'http' ? 'http/1.1' : opts.protocol === 'h1' ? 'http/1.1' : opts.protocol === 'h2' ? 'h2' : o.protocol;
      const h = handler(o);
      let server: http.Server | https.Server | http2.Http2SecureServer;
      if (o.scheme === 'http') server = http.createServer(h);
      else if (served === 'h2') server = http2.createSecureServer({ key: cert!.key, cert: cert!.cert, allowHTTP1: true }, h);
      else server = https.createServer({ key: cert!.key, cert: cert!.cert }, h);
      server.on('connection', (sock: Socket) => {
        sockets.add(sock);
        const peer = { remoteAddress: sock.remoteAddress, remotePort: sock.remotePort };
        setups.accepted(peer);
        sock.once('close', () => {
          sockets.delete(sock);
          setups.closed(peer);
        });
      });
      server.on('secureConnection', (sock: Socket) => setups.secured(sock));
      servers.push(server);
      const port = opts.basePort ? opts.basePort + i : 0;
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, bind, () => {
          server.off('error', reject);
          resolve();
        });
      }).catch((e: NodeJS.ErrnoException) => {
        throw new Error(`cannot listen on ${bind}:${port} for ${o.origin}: ${e.code === 'EADDRINUSE' ? 'the port is in use' : e.message}`);
      });
      origins.push({ ...o, listenPort: (server.address() as AddressInfo).port, served });
    }
  } catch (e) {
    await closeAll();
    throw e;
  }

  async function closeAll(): Promise<void> {
    for (const t of timers) clearTimeout(t);
    timers.clear();
    for (const s of sockets) s.destroy();
    await Promise.all(servers.map((s) => new Promise<void>((r) => s.close(() => r()))));
  }

  const target = bind === '0.0.0.0' || bind === '::' ? '127.0.0.1' : bind;
  const resetStats = (): void => {
    stats.requests = 0;
    stats.matched = { exact: 0, query: 0 };
    stats.misses = [];
    stats.faviconMisses = 0;
    stats.emptyBodies = 0;
    stats.setupTaken = { responses: 0, ms: 0 };
    stats.endByTaken = { responses: 0, ms: 0 };
    pageStart = undefined;
  };
  const hostResolverRules = rulesFor(origins, target);
  const chromiumArgs = [`--host-resolver-rules=${hostResolverRules}`];
  if (cert) chromiumArgs.push(`--ignore-certificate-errors-spki-list=${cert.spkiHash}`);
  return {
    pageUrl: archive.pageUrl,
    origins,
    hostResolverRules,
    spkiHash: cert?.spkiHash,
    chromiumArgs,
    stats,
    resetStats,
    freshStart() {
      resetStats();
      for (const s of sockets) s.destroy();
    },
    close: closeAll,
  };
}

/** `MAP` rules with another target address (the server side of a shaped link). Pure. */
export function rulesFor(origins: readonly ServedOrigin[], target: string): string {
  return [...origins.map((o) => `MAP ${hostForUrl(o.host)}:${o.port} ${hostForUrl(target)}:${o.listenPort}`), 'MAP * ~NOTFOUND'].join(', ');
}
