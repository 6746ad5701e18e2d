// Fidelity page load: a multi-origin delay server and a page load in headless /usr/bin/chromium
// through playwright-core, writing the DevTools Network events as a profiler-style log [{method, params}].
// A minimal launcher of our own: `pcp profile --pcap` did not exist when this was written.
// Each origin runs in its own server process (`serve SPEC NAME`), so one origin's TLS handshakes
// never hold back another origin's timers; the browser is driven from a third (`load SPEC`).
// Usage: node --import tsx load.ts serve SPEC_JSON ORIGIN | load SPEC_JSON
//   spec: {root, origins, page, devtools, keylog}
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import http from 'node:http';
import http2 from 'node:http2';
import https from 'node:https';
import { extname } from 'node:path';
import { makeSelfSignedCert } from '@pcp/profiler/testing';

interface OriginSpec {
  name: string;
  port: number;
  tls: boolean;
  /** HTTP/2 over TLS (ALPN h2): measurable only with the key log. */
  h2?: boolean;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html', '.css': 'text/css', '.js': 'application/javascript', '.png': 'image/png',
  '.json': 'application/json',
};

/**
 * One origin on 127.0.0.1: answers GET /<file>?delay=<ms> after holding it `delay` ms, and appends
 * what it actually held (request event -> headers written, epoch ms) to <root>/held-<name>.jsonl:
 * under CPU contention a timer fires late, and the capture should recover the real hold.
 */
function serve(origin: OriginSpec): void {
  // Appended as each response is served, so nothing is lost however the process ends.
  const heldLog = join(spec.root, `held-${origin.name}.jsonl`);
  writeFileSync(heldLog, '');
  type Req = http.IncomingMessage | http2.Http2ServerRequest;
  type Res = http.ServerResponse | http2.Http2ServerResponse;
  const handler = (req: Req, res: Res): void => {
    const t0 = performance.timeOrigin + performance.now();
    const url = new URL(req.url ?? '/', 'http://x');
    const delay = Number(url.searchParams.get('delay') ?? '0');
    let body: Buffer;
    try {
      body = readFileSync(join(spec.root, url.pathname.replace(/^\/+/, '').replace(/\.\./g, '')));
    } catch {
      res.writeHead(404).end();
      return;
    }
    setTimeout(() => {
      res.writeHead(200, {
        'Content-Type': TYPES[extname(url.pathname)] ?? 'application/octet-stream',
        'Content-Length': body.length, 'Cache-Control': 'no-store', 'Access-Control-Allow-Origin': '*',
      });
      const t1 = performance.timeOrigin + performance.now();
      res.end(body);
      appendFileSync(heldLog, `${JSON.stringify({ path: req.url, injected: delay, held: t1 - t0 })}\n`);
    }, delay);
  };
  const cert = origin.tls ? makeSelfSignedCert('pcp.test') : undefined;
  const server = origin.h2 && cert
    ? http2.createSecureServer({ ...cert, allowHTTP1: false }, handler)
    : cert
      ? https.createServer({ ...cert, ALPNProtocols: ['http/1.1'], keepAliveTimeout: 30000 }, handler)
      : http.createServer({ keepAliveTimeout: 30000 }, handler);
  server.listen(origin.port, '127.0.0.1', () => process.stdout.write('ready\n'));
  const stop = (): void => process.exit(0);
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

interface Spec {
  root: string;
  origins: OriginSpec[];
  page: string;
  devtools: string;
  keylog: string;
}

const [mode, specPath, originName] = process.argv.slice(2);
const spec = JSON.parse(readFileSync(specPath ?? '', 'utf8')) as Spec;

if (mode === 'serve') {
  const origin = spec.origins.find((o) => o.name === originName);
  if (!origin) throw new Error(`no origin ${originName} in ${specPath}`);
  serve(origin);
} else {
  await load();
}

async function load(): Promise<void> {
const profile = mkdtempSync(join(tmpdir(), 'sd-chromium-'));
const events: { method: string; params: unknown }[] = [];
const NETWORK = ['requestWillBeSent', 'responseReceived', 'loadingFinished', 'loadingFailed'];
try {
  const ctx = await chromium.launchPersistentContext(profile, {
    executablePath: process.env['CHROMIUM'] ?? '/usr/bin/chromium',
    headless: true,
    ignoreHTTPSErrors: true,
    env: { ...process.env, SSLKEYLOGFILE: spec.keylog },
    args: [
      '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
      '--disable-sync', '--no-first-run', '--disable-quic', '--host-resolver-rules=MAP *.pcp.test 127.0.0.1',
      `--ssl-key-log-file=${spec.keylog}`, '--ignore-certificate-errors',
    ],
  });
  try {
    const page = ctx.pages()[0] ?? (await ctx.newPage());
    const cdp = await ctx.newCDPSession(page);
    for (const name of NETWORK) {
      cdp.on(`Network.${name}` as 'Network.requestWillBeSent', (params: unknown) =>
        events.push({ method: `Network.${name}`, params }));
    }
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    await page.goto(spec.page, { waitUntil: 'load', timeout: 60000 });
    await page.waitForTimeout(1000); // fetches that finish after load
    writeFileSync(spec.devtools, JSON.stringify(events));
  } finally {
    await ctx.close();
  }
} finally {
  rmSync(profile, { recursive: true, force: true });
}
}
