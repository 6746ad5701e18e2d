/**
 * The viewer's HTTP server, bound to 127.0.0.1 only.
 *   GET  /                               the client (public/index.html, app.js, worker.js, style.css)
 *   GET  /api/graphs                     list: id, name, url, nodes, resources, bytes, load time, critical-path length
 *   GET  /api/graphs/<id>                one graph as v1 JSON, criticalPath attached
 *   GET  /api/graphs/<id>/export?format=svg|pdf[&engine=dot|time]   whole graph for papers
 *   POST /api/whatif  {graph, options, pairs?, traces?}   the emulator's result for the graph under the options
 * Static files come only from the bundle directory (fixed names), graphs only by catalog id; requests
 * with a foreign Host header are refused (DNS rebinding), and a CSP forbids inline script.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildClient, PUBLIC_DIR } from './build.ts';
import { buildCatalog } from './catalog.ts';
import { chooseEngine, exportGraph, type ExportFormat } from './exporter.ts';
import { GraphStore } from './store.ts';
import { runWhatIf, whatIfRequest, WhatIfInputError } from './whatif.ts';

export interface ViewerOptions {
  paths: string[];
  port?: number;
  /** Skip the esbuild step (the bundle in public/ is used as is). */
  skipBuild?: boolean;
  /** Tests and the benchmark: serve a bundle with the `window.__pcpViewer` hook, built into a
   * temporary directory of this server's own (removed on close). Never set by `pcp view`. */
  testHook?: boolean;
}

export interface Viewer {
  url: string;
  server: Server;
  store: GraphStore;
  /** Where the client bundle is served from (public/, or a test build's temporary directory). */
  bundleDir: string;
  problems: string[];
  close(): Promise<void>;
}

const STATIC: Record<string, { file: string; type: string }> = {
  '/': { file: 'index.html', type: 'text/html; charset=utf-8' },
  '/index.html': { file: 'index.html', type: 'text/html; charset=utf-8' },
  '/app.js': { file: 'app.js', type: 'text/javascript; charset=utf-8' },
  '/app.js.map': { file: 'app.js.map', type: 'application/json' },
  '/worker.js': { file: 'worker.js', type: 'text/javascript; charset=utf-8' },
  '/worker.js.map': { file: 'worker.js.map', type: 'application/json' },
  '/style.css': { file: 'style.css', type: 'text/css; charset=utf-8' },
};

const CSP = "default-src 'self'; script-src 'self'; worker-src 'self'; style-src 'self'; img-src 'self' data: blob:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'";
/** A what-if may carry two link traces (Mahimahi's cellular traces run to a few MB). */
const MAX_BODY = 16 << 20;

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

function send(res: ServerResponse, status: number, type: string, body: string | Buffer, extra: Record<string, string> = {}): void {
  res.writeHead(status, {
    'content-type': type,
    'content-length': Buffer.byteLength(body),
    'x-content-type-options': 'nosniff',
    'content-security-policy': CSP,
    'cache-control': 'no-store',
    ...extra,
  });
  res.end(body);
}

function sendJson(res: ServerResponse, status: number, data: unknown): void {
  send(res, status, 'application/json; charset=utf-8', typeof data === 'string' ? data : JSON.stringify(data));
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolveBody, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (d: Buffer) => {
      size += d.length;
      if (size > MAX_BODY) {
        reject(new HttpError(413, 'request body too large'));
        req.destroy();
      } else chunks.push(d);
    });
    req.on('end', () => resolveBody(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

export async function startViewer(opts: ViewerOptions): Promise<Viewer> {
  const publicDir = opts.testHook ? `${mkdtempSync(join(tmpdir(), 'pcp-viewer-test-'))}/` : PUBLIC_DIR;
  const removeBundle = (): void => {
    if (publicDir !== PUBLIC_DIR) rmSync(publicDir, { recursive: true, force: true });
  };
  try {
    if (opts.testHook) await buildClient(publicDir, { testHook: true });
    else if (!opts.skipBuild) await buildClient();
  } catch (e) {
    removeBundle();
    throw e;
  }
  const catalog = buildCatalog(opts.paths);
  const store = new GraphStore(catalog);
  let port = 0;

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const host = req.headers.host ?? '';
    if (host !== `127.0.0.1:${port}` && host !== `localhost:${port}`) throw new HttpError(403, 'unexpected Host header');
    const url = new URL(req.url ?? '/', `http://127.0.0.1:${port}`);
    const path = url.pathname;
    if (req.method === 'GET' && path === '/favicon.ico') {
      res.writeHead(204, { 'cache-control': 'max-age=86400' });
      res.end();
      return;
    }
    if (req.method === 'GET' && STATIC[path]) {
      const s = STATIC[path];
      send(res, 200, s.type, await readFile(`${publicDir}${s.file}`));
      return;
    }
    if (req.method === 'GET' && path === '/api/graphs') {
      sendJson(res, 200, { graphs: store.list(), problems: catalog.problems, complete: store.list().every((g) => g.status !== 'pending') });
      return;
    }
    const m = /^\/api\/graphs\/([A-Za-z0-9._-]+)(\/export)?$/.exec(path);
    if (req.method === 'GET' && m) {
      const id = m[1]!;
      if (!store.has(id)) throw new HttpError(404, `no graph '${id}'`);
      let loaded;
      try {
        loaded = store.get(id);
      } catch (e) {
        throw new HttpError(422, (e as Error).message.split('\n', 1)[0]!);
      }
      if (!m[2]) {
        sendJson(res, 200, loaded.json);
        return;
      }
      const format = url.searchParams.get('format') ?? 'svg';
      if (format !== 'svg' && format !== 'pdf') throw new HttpError(400, `format must be svg or pdf, not '${format}'`);
      const engine = chooseEngine(loaded.graph, url.searchParams.get('engine') ?? undefined);
      const body = await exportGraph(loaded.graph, format as ExportFormat, engine);
      send(res, 200, format === 'svg' ? 'image/svg+xml' : 'application/pdf', body, {
        'content-disposition': `attachment; filename="${id}.${format}"`,
        'x-pcp-export-engine': engine,
      });
      return;
    }
    if (req.method === 'POST' && path === '/api/whatif') {
      let body: unknown;
      try {
        body = JSON.parse(await readBody(req));
      } catch (e) {
        if (e instanceof HttpError) throw e;
        throw new HttpError(400, 'body must be JSON: {"graph": id, "options": {...}}');
      }
      const graph = (body as { graph?: unknown } | null)?.graph;
      if (typeof graph !== 'string' || !store.has(graph)) throw new HttpError(404, 'unknown graph');
      try {
        const { options, pairs, traces } = whatIfRequest(body);
        const started = performance.now();
        const result = await runWhatIf(store.get(graph).graph, options, { pairs, traces });
        sendJson(res, 200, { options, result, elapsedMs: performance.now() - started });
      } catch (e) {
        if (e instanceof WhatIfInputError) throw new HttpError(400, e.message);
        throw e;
      }
      return;
    }
    throw new HttpError(req.method === 'GET' || req.method === 'POST' ? 404 : 405, 'not found');
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((e: unknown) => {
      const status = e instanceof HttpError ? e.status : 500;
      const message = (e as Error).message?.split('\n', 1)[0] ?? 'error';
      if (!res.headersSent) sendJson(res, status, { error: message });
      else res.end();
    });
  });
  try {
    await new Promise<void>((resolveListen, reject) => {
      server.once('error', reject);
      server.listen(opts.port ?? 0, '127.0.0.1', () => resolveListen());
    });
  } catch (e) {
    removeBundle();
    throw e;
  }
  port = (server.address() as AddressInfo).port;
  void store.summariseAll();
  return {
    url: `http://127.0.0.1:${port}/`,
    server,
    store,
    bundleDir: publicDir,
    problems: catalog.problems,
    close: () =>
      new Promise((r) => {
        server.closeAllConnections();
        server.close(() => {
          removeBundle();
          r();
        });
      }),
  };
}
