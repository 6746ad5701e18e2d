import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { capturePage } from './capture.ts';
import { warmUpExpression } from './cache-warm-up.ts';
import { BUNDLE_FILES, type DevtoolsLogEntry } from './bundle.ts';

// A real server on loopback: the page, a cacheable image and script, and the warm-up document.
const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000'
  + '1f15c4890000000d49444154789c6360000002000105fe02fea70000000049454e44ae426082', 'hex');
const asked = new Map<string, number>();
let server: http.Server;
let origin = '';
let dir = '';

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'pcp-warm-'));
  server = http.createServer((req, res) => {
    const path = req.url ?? '/';
    asked.set(path, (asked.get(path) ?? 0) + 1);
    const cacheable = { 'cache-control': 'max-age=3600' };
    if (path === '/') res.writeHead(200, { 'content-type': 'text/html', 'cache-control': 'no-store' }).end('<!DOCTYPE html><body><img src="/cached.png"><img src="/fresh.png"><script src="/cached.js"></script></body>');
    else if (path === '/cached.png' || path === '/fresh.png') res.writeHead(200, { 'content-type': 'image/png', ...cacheable }).end(PNG);
    else if (path === '/cached.js') res.writeHead(200, { 'content-type': 'text/javascript', ...cacheable }).end('window.ran = 1;');
    else res.writeHead(404, { 'content-type': 'text/plain', 'cache-control': 'no-store' }).end('warm-up document\n');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

after(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  rmSync(dir, { recursive: true, force: true });
});

test('the warm-up expression fetches each URL as an element would and reports each failure', () => {
  const e = warmUpExpression(['http://a.test/x.png', "http://b.test/'q'.js"]);
  assert.match(e, /mode: 'no-cors', credentials: 'include'/);
  assert.ok(e.includes(JSON.stringify(['http://a.test/x.png', "http://b.test/'q'.js"])), 'URLs go in as a JSON literal, never spliced');
});

test('a response warmed into the cache is not requested in the measured load, and the warm-up is not in its bundle', { timeout: 180_000 }, async () => {
  let countedAtWarmEnd = new Map<string, number>();
  const out = join(dir, 'bundle');
  const { meta } = await capturePage(`${origin}/`, out, {
    timeoutMs: 60_000, quietMs: 500, timerHorizonMs: 0,
    warmCache: { documentUrl: `${origin}/.pcp-cache-warm-up`, urls: [`${origin}/cached.png`, `${origin}/cached.js`], done: async () => void (countedAtWarmEnd = new Map(asked)) },
  });
  assert.equal(meta.status, 'complete', meta.message);
  assert.deepEqual(meta.cacheWarmUp, { urls: 2, warmed: 2, failed: 0 });
  // The warm-up fetched each once; the measured load asked the server for the page and the fresh image only.
  assert.equal(countedAtWarmEnd.get('/cached.png'), 1);
  assert.equal(countedAtWarmEnd.get('/cached.js'), 1);
  assert.equal(countedAtWarmEnd.get('/'), undefined, 'the warm-up never loads the page itself');
  assert.equal(asked.get('/cached.png'), 1, 'the warmed image is taken from the cache');
  assert.equal(asked.get('/cached.js'), 1, 'the warmed script is taken from the cache');
  assert.equal(asked.get('/fresh.png'), 1);
  assert.equal(asked.get('/'), 1);
  // The bundle's log sees the cached ones answered from the disk cache, and nothing of the warm-up.
  const log = JSON.parse(readFileSync(join(out, BUNDLE_FILES.devtoolsLog), 'utf8')) as DevtoolsLogEntry[];
  const responses = log.filter((e) => e.method === 'Network.responseReceived').map((e) => e.params.response as { url: string; fromDiskCache?: boolean });
  const fromCache = (path: string): boolean | undefined => responses.find((r) => r.url === `${origin}${path}`)?.fromDiskCache;
  assert.equal(fromCache('/cached.png'), true);
  assert.equal(fromCache('/cached.js'), true);
  assert.equal(fromCache('/fresh.png'), false);
  assert.ok(!JSON.stringify(log).includes('.pcp-cache-warm-up'), 'the warm-up document is not in the log');
  const trace = gunzipSync(readFileSync(join(out, BUNDLE_FILES.trace))).toString('utf8');
  assert.ok(!trace.includes('.pcp-cache-warm-up'), 'the warm-up document is not in the trace');
});
