/**
 * The ground-truth test server: serves one directory of small test sites on 127.0.0.1 under several
 * origins at once (one port each), over HTTP/1.1 cleartext or TLS with HTTP/2, with per-resource
 * delays, trickled bodies and padded sizes, so a page's loading order is set by construction.
 *
 * Origins are named; origin `a` is reached as `<scheme>://a.pcp.test:<port>/`. Chromium resolves the
 * names to loopback through `--host-resolver-rules` (see `hostResolverRules`). Because ports are
 * picked at start, text files may say `{{origin:b}}`, which is replaced by origin b's base URL
 * (scheme://host:port, no trailing slash) when served. See README.md beside this file.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import http from 'node:http';
import http2 from 'node:http2';
import https from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { makeSelfSignedCert } from './cert.ts';

export interface OriginSpec {
  /** Host label: origin `a` is `a.<domain>`. Lowercase letters, digits and '-'. */
  name: string;
  /** Port to bind; 0 or absent picks a free one. */
  port?: number;
  /** Serve over TLS (self-signed cert for *.<domain>). Implied by http2. */
  tls?: boolean;
  /** Offer HTTP/2 over TLS (ALPN h2, HTTP/1.1 still accepted). */
  http2?: boolean;
}

/** How one resource is served. A bare number is `{ delay }`. */
export interface DelaySpec {
  /** ms to wait before sending the response headers. */
  delay?: number;
  /** Send the body in pieces of this many bytes... */
  chunkSize?: number;
  /** ...with this many ms between pieces. */
  chunkDelay?: number;
  /** Pad the body to at least this many bytes (a comment for text types, zero bytes otherwise). */
  size?: number;
}

export interface TestServerOptions {
  /** Directory served on every origin. */
  root: string;
  origins: OriginSpec[];
  /** Extra per-resource specs keyed by URL path ('/rule-01/app.js'), merged over delays.json files. */
  delays?: Record<string, number | DelaySpec>;
  /** Domain under which origins live; default 'pcp.test'. */
  domain?: string;
}

export interface ServedOrigin {
  name: string;
  host: string;
  port: number;
  tls: boolean;
  http2: boolean;
  /** Base URL with trailing slash, e.g. 'http://a.pcp.test:40123/'. */
  url: string;
}

/** One request as the server saw it, for tests that compare with what the browser logged. */
export interface ServedRequest {
  origin: string;
  method: string;
  path: string;
  httpVersion: string;
  status: number;
  /** ms since the server started. */
  at: number;
  /** ms the server was told to hold the response before its headers (delays.json or ?delay). */
  heldMs?: number;
}

export interface TestServer {
  /** Base URL (trailing slash) of each origin, by name. */
  urls: Record<string, string>;
  origins: ServedOrigin[];
  /** Value for Chromium's --host-resolver-rules, e.g. 'MAP *.pcp.test 127.0.0.1'. */
  hostResolverRules: string;
  /** Every request served so far, in arrival order. */
  requests: ServedRequest[];
  /** Replace `{{origin:name}}` placeholders in a string the same way served files are rewritten. */
  expand(text: string): string;
  close(): Promise<void>;
}

const MIME: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.htm': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.gif': 'image/gif',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.otf': 'font/otf',
  '.bin': 'application/octet-stream',
};

/** Types whose bodies get `{{origin:x}}` expansion and comment padding. */
const TEXT_EXT = new Set(['.html', '.htm', '.js', '.mjs', '.css', '.json', '.txt', '.svg']);

const ORIGIN_NAME = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/;

function toSpec(v: number | DelaySpec | undefined): DelaySpec {
  if (v === undefined) return {};
  return typeof v === 'number' ? { delay: v } : v;
}

/** Padding of `n` bytes that leaves a file of type `ext` meaning the same. */
export function padding(ext: string, n: number): Buffer {
  if (n <= 0) return Buffer.alloc(0);
  const wrap = (open: string, close: string): Buffer => {
    const inner = Math.max(0, n - open.length - close.length);
    return Buffer.from(open + 'x'.repeat(inner) + close);
  };
  if (ext === '.js' || ext === '.mjs' || ext === '.css') return n >= 4 ? wrap('/*', '*/') : Buffer.from(' '.repeat(n));
  if (ext === '.html' || ext === '.htm' || ext === '.svg') return n >= 7 ? wrap('<!--', '-->') : Buffer.from(' '.repeat(n));
  if (ext === '.json' || ext === '.txt') return Buffer.from(' '.repeat(n));
  return Buffer.alloc(n);
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

type Req = http.IncomingMessage | http2.Http2ServerRequest;
type Res = http.ServerResponse | http2.Http2ServerResponse;

export async function startTestServer(opts: TestServerOptions): Promise<TestServer> {
  const root = resolve(opts.root);
  if (!existsSync(root) || !statSync(root).isDirectory()) throw new Error(`test server root is not a directory: ${root}`);
  const domain = opts.domain ?? 'pcp.test';
  if (opts.origins.length === 0) throw new Error('startTestServer needs at least one origin');
  const seen = new Set<string>();
  for (const o of opts.origins) {
    if (!ORIGIN_NAME.test(o.name)) throw new Error(`bad origin name '${o.name}' (lowercase letters, digits, '-')`);
    if (seen.has(o.name)) throw new Error(`origin '${o.name}' given twice`);
    seen.add(o.name);
  }
  const needsTls = opts.origins.some((o) => o.tls || o.http2);
  const cert = needsTls ? makeSelfSignedCert(domain) : undefined;
  const started = Date.now();
  const requests: ServedRequest[] = [];
  const served: ServedOrigin[] = [];
  const sockets = new Set<Socket>();
  const sessions = new Set<http2.ServerHttp2Session>();
  const servers: (http.Server | https.Server | http2.Http2SecureServer)[] = [];
  let closing = false;

  const expand = (text: string): string =>
    text.replace(/\{\{origin:([a-z0-9-]+)\}\}/g, (whole, name: string) => {
      const o = served.find((s) => s.name === name);
      return o ? o.url.slice(0, -1) : whole;
    });

  /** Spec for a path: delays.json files from the root down to the file's directory, then opts.delays, then the query. */
  const specFor = (path: string, query: URLSearchParams): DelaySpec => {
    let spec: DelaySpec = {};
    // A directory URL serves its index.html, and delays.json names it so.
    const parts = (path.endsWith('/') ? path + 'index.html' : path).split('/').filter(Boolean);
    for (let i = 0; i < parts.length; i++) {
      const dirParts = parts.slice(0, i);
      const file = join(root, ...dirParts, 'delays.json');
      if (!existsSync(file)) continue;
      let table: Record<string, number | DelaySpec>;
      try {
        table = JSON.parse(readFileSync(file, 'utf8')) as Record<string, number | DelaySpec>;
      } catch (e) {
        throw new Error(`bad ${file}: ${(e as Error).message}`);
      }
      const rel = parts.slice(i).join('/');
      if (table[rel] !== undefined) spec = { ...spec, ...toSpec(table[rel]) };
    }
    if (opts.delays?.[path] !== undefined) spec = { ...spec, ...toSpec(opts.delays[path]) };
    for (const k of ['delay', 'chunkSize', 'chunkDelay', 'size'] as const) {
      const v = query.get(k);
      if (v !== null && Number.isFinite(Number(v))) spec[k] = Number(v);
    }
    return spec;
  };

  const send = async (res: Res, status: number, headers: Record<string, string>, body: Buffer, spec: DelaySpec): Promise<void> => {
    if (spec.delay) await sleep(spec.delay);
    if (closing) return;
    res.writeHead(status, { ...headers, 'content-length': String(body.length) });
    const size = spec.chunkSize && spec.chunkSize > 0 ? spec.chunkSize : body.length;
    for (let off = 0; off < body.length; off += size) {
      if (off > 0 && spec.chunkDelay) await sleep(spec.chunkDelay);
      if (closing || res.destroyed) return;
      (res as http.ServerResponse).write(body.subarray(off, off + size));
    }
    res.end();
  };

  const handle = async (origin: ServedOrigin, req: Req, res: Res): Promise<void> => {
    const url = new URL(req.url ?? '/', origin.url);
    const path = decodeURIComponent(url.pathname);
    const record: ServedRequest = {
      origin: origin.name, method: req.method ?? 'GET', path: url.pathname + url.search,
      httpVersion: req.httpVersion, status: 0, at: Date.now() - started,
    };
    requests.push(record);
    const common: Record<string, string> = {
      'access-control-allow-origin': '*',
      'timing-allow-origin': '*',
      'cache-control': 'public, max-age=600',
    };
    const reply = (status: number, headers: Record<string, string>, body: Buffer | string, spec: DelaySpec = {}): Promise<void> => {
      record.status = status;
      record.heldMs = spec.delay ?? 0;
      return send(res, status, { ...common, ...headers }, typeof body === 'string' ? Buffer.from(body) : body, spec);
    };
    const spec = specFor(path, url.searchParams);

    // Built-in endpoints for the situations a profiler must survive.
    if (path.startsWith('/_pcp/')) {
      const what = path.slice('/_pcp/'.length);
      if (what === 'redirect') {
        const to = url.searchParams.get('to') ?? '/';
        const code = Number(url.searchParams.get('status') ?? 302);
        return reply(code, { location: expand(to), 'cache-control': 'no-store' }, '', spec);
      }
      if (what === 'status') {
        const code = Number(url.searchParams.get('code') ?? 500);
        return reply(code, { 'content-type': 'text/plain' }, `status ${code}\n`, spec);
      }
      if (what === 'hang') {
        // Headers, then a body that never comes: the page's load event never fires.
        record.status = 200;
        res.writeHead(200, { ...common, 'content-type': url.searchParams.get('type') ?? 'text/javascript' });
        if ('flushHeaders' in res) res.flushHeaders();
        return;
      }
      if (what === 'download') {
        const n = Number(url.searchParams.get('size') ?? 1024);
        return reply(200, { 'content-type': 'application/octet-stream', 'content-disposition': 'attachment; filename="file.bin"' }, Buffer.alloc(n), spec);
      }
      const blob = /^blob(\.[a-z0-9]+)$/.exec(what);
      if (blob?.[1]) {
        const ext = blob[1];
        return reply(200, { 'content-type': MIME[ext] ?? 'application/octet-stream' }, padding(ext, spec.size ?? 1024), { ...spec, size: undefined });
      }
      return reply(404, { 'content-type': 'text/plain' }, 'unknown /_pcp/ endpoint\n');
    }

    let file = normalize(join(root, path));
    if (file !== root && !file.startsWith(root + sep)) return reply(403, { 'content-type': 'text/plain' }, 'forbidden\n');
    if (existsSync(file) && statSync(file).isDirectory()) {
      if (!path.endsWith('/')) return reply(301, { location: url.pathname + '/' + url.search }, '');
      file = join(file, 'index.html');
    }
    if (!existsSync(file) || !statSync(file).isFile()) return reply(404, { 'content-type': 'text/plain' }, 'not found\n', spec);
    const ext = extname(file).toLowerCase();
    let body = await readFile(file);
    if (TEXT_EXT.has(ext)) body = Buffer.from(expand(body.toString('utf8')));
    if (spec.size && spec.size > body.length) body = Buffer.concat([body, padding(ext, spec.size - body.length)]);
    return reply(200, { 'content-type': MIME[ext] ?? 'application/octet-stream' }, body, spec);
  };

  const onRequest = (origin: ServedOrigin) => (req: Req, res: Res): void => {
    handle(origin, req, res).catch((e: unknown) => {
      if (!res.headersSent) {
        res.writeHead(500, { 'content-type': 'text/plain' });
        res.end(`test server error: ${(e as Error).message}\n`);
      } else res.destroy();
    });
  };

  try {
    for (const spec of opts.origins) {
      const tls = Boolean(spec.tls || spec.http2);
      const h2 = Boolean(spec.http2);
      const origin: ServedOrigin = { name: spec.name, host: `${spec.name}.${domain}`, port: 0, tls, http2: h2, url: '' };
      let server: http.Server | https.Server | http2.Http2SecureServer;
      if (h2 && cert) {
        const s = http2.createSecureServer({ key: cert.key, cert: cert.cert, allowHTTP1: true }, onRequest(origin));
        s.on('session', (sess) => {
          sessions.add(sess);
          sess.on('close', () => sessions.delete(sess));
        });
        server = s;
      } else if (tls && cert) {
        server = https.createServer({ key: cert.key, cert: cert.cert }, onRequest(origin));
      } else {
        server = http.createServer(onRequest(origin));
      }
      server.on('connection', (sock: Socket) => {
        sockets.add(sock);
        sock.on('close', () => sockets.delete(sock));
      });
      if (tls) server.on('secureConnection', (sock: Socket) => {
        sockets.add(sock);
        sock.on('close', () => sockets.delete(sock));
      });
      servers.push(server);
      await new Promise<void>((ok, fail) => {
        server.once('error', fail);
        server.listen(spec.port ?? 0, '127.0.0.1', () => {
          server.off('error', fail);
          ok();
        });
      });
      origin.port = (server.address() as AddressInfo).port;
      origin.url = `${tls ? 'https' : 'http'}://${origin.host}:${origin.port}/`;
      served.push(origin);
    }
  } catch (e) {
    for (const s of servers) s.close();
    throw e;
  }

  return {
    urls: Object.fromEntries(served.map((o) => [o.name, o.url])),
    origins: served,
    hostResolverRules: `MAP *.${domain} 127.0.0.1`,
    requests,
    expand,
    async close(): Promise<void> {
      closing = true;
      for (const sess of sessions) sess.destroy();
      for (const sock of sockets) sock.destroy();
      await Promise.all(servers.map((s) => new Promise<void>((ok) => s.close(() => ok()))));
    },
  };
}

