/**
 * The replay server on loopback, spoken to by node's own clients the way Chromium would after
 * --host-resolver-rules: each origin on its own listener, the recorded Host/authority kept.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import http2 from 'node:http2';
import https from 'node:https';
import tls from 'node:tls';
import { createHash, X509Certificate } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TLSSocket } from 'node:tls';
import { readArchive } from './archive.ts';
import { replayHeaders, startReplayServer, type ReplayServer } from './server.ts';
import { writeBundle } from './testing.ts';

let dir: string;
let server: ReplayServer;
const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 255, 128]);
before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'pcp-replay-server-'));
  writeBundle(dir, 'http://www.site.test:8080/', [
    { url: 'http://www.site.test:8080/', body: Buffer.from('<p>page</p>'), headers: { 'Content-Encoding': 'gzip', 'Content-Length': '999', 'X-Kept': 'yes' } },
    { url: 'http://www.site.test:8080/api?_=1700000000000&q=a', body: Buffer.from('{"a":1}'), mimeType: 'application/json' },
    { url: 'http://www.site.test:8080/gone.js', body: undefined, mimeType: 'text/javascript' },
    { url: 'http://www.site.test:8080/old', status: 301, body: undefined, headers: { Location: '/' } },
    { url: 'https://cdn.site.test/img.png', body: png, mimeType: 'image/png', protocol: 'h2' },
    { url: 'https://h1.site.test:8443/x.css', body: Buffer.from('p{}'), mimeType: 'text/css' },
    { url: 'http://127.0.0.1:8000/slow', body: Buffer.from('slow'), mimeType: 'text/plain' },
    { url: 'http://127.0.0.1:8000/trickled', body: Buffer.from('aaaabbbbcccc'), mimeType: 'text/plain', chunks: [[0, 4], [150, 4], [300, 4]] },
    { url: 'http://127.0.0.1:8000/held', body: Buffer.from('held'), mimeType: 'text/css', chunks: [[600, 4]] },
  ]);
  const archive = readArchive(dir);
  archive.entries.find((e) => e.url.endsWith('/slow'))!.delayMs = 300;
  server = await startReplayServer(archive);
});
after(async () => {
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

const listener = (origin: string): number => server.origins.find((o) => o.origin === origin)!.listenPort;

function get(port: number, path: string, host: string): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http.get({ host: '127.0.0.1', port, path, headers: { host } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
    }).on('error', reject);
  });
}

test('origins, listeners and the Chromium switches', () => {
  assert.deepEqual(server.origins.map((o) => [o.origin, o.served]), [
    ['http://www.site.test:8080', 'http/1.1'], ['https://cdn.site.test:443', 'h2'], ['https://h1.site.test:8443', 'http/1.1'], ['http://127.0.0.1:8000', 'http/1.1'],
  ]);
  assert.match(server.hostResolverRules, new RegExp(`^MAP www\\.site\\.test:8080 127\\.0\\.0\\.1:${listener('http://www.site.test:8080')}, `));
  assert.ok(server.hostResolverRules.includes(`MAP 127.0.0.1:8000 127.0.0.1:${listener('http://127.0.0.1:8000')}`), 'IP literal origins are mapped too');
  assert.ok(server.hostResolverRules.endsWith('MAP * ~NOTFOUND'));
  assert.ok(server.chromiumArgs.includes(`--ignore-certificate-errors-spki-list=${server.spkiHash}`));
});

test('recorded responses: headers kept but framing redone, cache-busting query matched, misses 404 and counted, missing bodies empty', async () => {
  server.resetStats();
  const port = listener('http://www.site.test:8080');
  const page = await get(port, '/', 'www.site.test:8080');
  assert.equal(page.status, 200);
  assert.equal(page.body.toString(), '<p>page</p>');
  assert.equal(page.headers['content-encoding'], undefined, 'bodies are stored decoded');
  assert.equal(page.headers['content-length'], String(page.body.length));
  assert.equal(page.headers['x-kept'], 'yes');
  const api = await get(port, '/api?q=a&_=1800000000000', 'www.site.test:8080');
  assert.equal(api.body.toString(), '{"a":1}');
  assert.equal((await get(port, '/api?q=b&_=1', 'www.site.test:8080')).status, 404);
  assert.equal((await get(port, '/nothing', 'www.site.test:8080')).status, 404);
  assert.equal((await get(port, '/favicon.ico', 'www.site.test:8080')).status, 404);
  const gone = await get(port, '/gone.js', 'www.site.test:8080');
  assert.deepEqual([gone.status, gone.body.length], [200, 0]);
  const old = await get(port, '/old', 'www.site.test:8080');
  assert.deepEqual([old.status, old.headers.location], [301, '/']);
  assert.deepEqual(server.stats.matched, { exact: 3, query: 1 });
  assert.deepEqual(server.stats.misses.map((m) => m.url), ['http://www.site.test:8080/api?q=b&_=1', 'http://www.site.test:8080/nothing']);
  assert.equal(server.stats.emptyBodies, 1);
  assert.equal(server.stats.faviconMisses, 1, 'an unrecorded favicon is counted apart');
  assert.equal(server.stats.requests, 7);
});

test('TLS: HTTP/2 where recorded, HTTP/1.1 where not, with the replay certificate', async () => {
  const client = http2.connect(`https://cdn.site.test`, {
    lookup: (_h, _o, cb) => cb(null, [{ address: '127.0.0.1', family: 4 }] as never, 4),
    port: listener('https://cdn.site.test:443'), servername: 'cdn.site.test', rejectUnauthorized: false,
  } as http2.SecureClientSessionOptions);
  try {
    const peer = await new Promise<X509Certificate>((resolve) => client.once('connect', () => resolve((client.socket as TLSSocket).getPeerX509Certificate()!)));
    assert.equal((client.socket as TLSSocket).alpnProtocol, 'h2');
    assert.equal(peer.checkHost('cdn.site.test'), 'cdn.site.test');
    const spki = createHash('sha256').update(peer.publicKey.export({ type: 'spki', format: 'der' })).digest('base64');
    assert.equal(spki, server.spkiHash);
    const req = client.request({ ':path': '/img.png', ':authority': 'cdn.site.test' });
    const chunks: Buffer[] = [];
    const status = await new Promise<number>((resolve) => req.on('response', (h) => resolve(Number(h[':status']))));
    req.on('data', (c: Buffer) => chunks.push(c));
    await new Promise((r) => req.on('end', r));
    assert.equal(status, 200);
    assert.deepEqual(Buffer.concat(chunks), png);
  } finally {
    client.close();
  }
  const alpn = await new Promise<string>((resolve, reject) => {
    const sock = tls.connect({ host: '127.0.0.1', port: listener('https://h1.site.test:8443'), servername: 'h1.site.test', rejectUnauthorized: false, ALPNProtocols: ['h2', 'http/1.1'] }, () => {
      resolve(String(sock.alpnProtocol));
      sock.end();
    });
    sock.on('error', reject);
  });
  assert.equal(alpn, 'http/1.1');
});

test('a response is held for its server delay; close() cuts held responses', async () => {
  const t0 = performance.now();
  const slow = await get(listener('http://127.0.0.1:8000'), '/slow', '127.0.0.1:8000');
  assert.equal(slow.body.toString(), 'slow');
  assert.ok(performance.now() - t0 >= 295, 'held at least its 300 ms');
  const held = get(listener('http://127.0.0.1:8000'), '/slow', '127.0.0.1:8000').then(() => 'answered', () => 'cut');
  await new Promise((r) => setTimeout(r, 50));
  await server.close();
  assert.equal(await held, 'cut');
});

test('--pace: a body goes out as it arrived when recorded; without it, at once', async () => {
  const archive = readArchive(dir);
  for (const pace of [true, false]) {
    const s = await startReplayServer(archive, { pace });
    try {
      const port = s.origins.find((o) => o.origin === 'http://127.0.0.1:8000')!.listenPort;
      const arrivals = await new Promise<{ at: number; text: string }[]>((resolve, reject) => {
        const t0 = performance.now();
        const got: { at: number; text: string }[] = [];
        http.get({ host: '127.0.0.1', port, path: '/trickled', headers: { host: '127.0.0.1:8000' } }, (res) => {
          res.on('data', (c: Buffer) => got.push({ at: performance.now() - t0, text: c.toString() }));
          res.on('end', () => resolve(got));
        }).on('error', reject);
      });
      assert.equal(arrivals.map((a) => a.text).join(''), 'aaaabbbbcccc');
      if (pace) {
        // Lower bounds only: a loaded machine may be late, never early.
        assert.ok(arrivals.length >= 2, 'sent in pieces');
        assert.ok(arrivals.at(-1)!.at >= 295, `last piece after its 300 ms (${arrivals.at(-1)!.at.toFixed(0)} ms)`);
        assert.equal(arrivals[0]!.text, 'aaaa');
      }
    } finally {
      await s.close();
    }
  }
});

test('--pace: a body held in one piece (a one-entry _chunks) goes that long after its headers, the headers at once (HTTP/1.1)', async () => {
  const s = await startReplayServer(readArchive(dir), { pace: true });
  try {
    const port = s.origins.find((o) => o.origin === 'http://127.0.0.1:8000')!.listenPort;
    const { headersAt, endAt, text } = await new Promise<{ headersAt: number; endAt: number; text: string }>((resolve, reject) => {
      http.get({ host: '127.0.0.1', port, path: '/held', headers: { host: '127.0.0.1:8000' } }, (res) => {
        const headersAt = performance.now();
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () => resolve({ headersAt, endAt: performance.now(), text }));
      }).on('error', reject);
    });
    assert.equal(text, 'held');
    // A lower bound at half the hold: a loaded machine may read the headers late, never the body early.
    assert.ok(endAt - headersAt >= 300, `body ${(endAt - headersAt).toFixed(0)} ms after the headers (held 600)`);
  } finally {
    await s.close();
  }
});

test('replayHeaders: hop-by-hop and framing dropped, repeats joined, Set-Cookie kept apart', () => {
  const h = replayHeaders({ headers: [{ name: 'Set-Cookie', value: 'a=1' }, { name: 'set-cookie', value: 'b=2' }, { name: 'Vary', value: 'A' }, { name: 'Vary', value: 'B' }, { name: 'Transfer-Encoding', value: 'chunked' }, { name: ':status', value: '200' }] }, 5);
  assert.deepEqual(h, { 'set-cookie': ['a=1', 'b=2'], vary: 'A, B', 'content-length': '5' });
});

test('--protocol forces every https origin to h1 or h2; plain http stays HTTP/1.1', async () => {
  const archive = readArchive(dir);
  for (const [force, want] of [['h1', 'http/1.1'], ['h2', 'h2']] as const) {
    const s = await startReplayServer(archive, { protocol: force });
    try {
      assert.deepEqual(s.origins.map((o) => o.served), ['http/1.1', want, want, 'http/1.1']);
      const port = s.origins.find((o) => o.origin === 'https://h1.site.test:8443')!.listenPort;
      const alpn = await new Promise<string>((resolve, reject) => {
        const sock = tls.connect({ host: '127.0.0.1', port, servername: 'h1.site.test', rejectUnauthorized: false, ALPNProtocols: ['h2', 'http/1.1'] }, () => {
          resolve(String(sock.alpnProtocol));
          sock.end();
        });
        sock.on('error', reject);
      });
      assert.equal(alpn, want);
    } finally {
      await s.close();
    }
  }
});

test('--pace: a schedule made from the source span loses the TLS handshake of its connection, once per connection; a recorded one keeps it; dropped connections are opened again', async () => {
  const d = mkdtempSync(join(tmpdir(), 'pcp-replay-setup-'));
  try {
    writeBundle(d, 'https://s.site.test/', [
      { url: 'https://s.site.test/', body: Buffer.from('page'), setupInSpan: true, chunks: [[0, 2], [400, 2]] },
      { url: 'https://s.site.test/a', body: Buffer.from('aa'), setupInSpan: true, chunks: [[0, 1], [30, 1]] },
      { url: 'https://r.site.test/', body: Buffer.from('rec'), chunks: [[0, 1], [30, 2]] },
    ]);
    const s = await startReplayServer(readArchive(d), { pace: true, protocol: 'h1' });
    try {
      const agent = new https.Agent({ keepAlive: true, maxSockets: 1, rejectUnauthorized: false });
      const fetchOver = (origin: string, path: string): Promise<string> => new Promise((resolve, reject) => {
        const host = new URL(origin).hostname;
        https.get({ host: '127.0.0.1', port: s.origins.find((o) => o.origin === `${origin}:443`)!.listenPort, path, servername: host, headers: { host }, agent }, (res) => {
          const got: Buffer[] = [];
          res.on('data', (c: Buffer) => got.push(c));
          res.on('end', () => resolve(Buffer.concat(got).toString()));
        }).on('error', reject);
      });
      assert.equal(await fetchOver('https://s.site.test', '/'), 'page');
      assert.equal(await fetchOver('https://s.site.test', '/a'), 'aa', 'the same connection (keep-alive): no set-up left');
      assert.equal(await fetchOver('https://r.site.test', '/'), 'rec');
      assert.equal(s.stats.setupTaken.responses, 1, 'the first response of the new connection only; the recorded bundle\'s never');
      assert.ok(s.stats.setupTaken.ms > 0);
      // A fresh start (after a cache warm-up): counts zeroed, connections dropped: the next request opens a new one and pays its set-up again.
      s.freshStart();
      assert.deepEqual(s.stats.setupTaken, { responses: 0, ms: 0 });
      while (Object.keys(agent.freeSockets).length > 0) await new Promise((r) => setTimeout(r, 10));
      assert.equal(await fetchOver('https://s.site.test', '/a'), 'aa');
      assert.equal(s.stats.setupTaken.responses, 1);
      assert.equal(s.stats.requests, 1);
      agent.destroy();
      s.resetStats();
      assert.deepEqual(s.stats.setupTaken, { responses: 0, ms: 0 });
    } finally {
      await s.close();
    }
  } finally {
    rmSync(d, { recursive: true, force: true });
  }
});

test('--pace: a body with `_endBy` ends by that on the page\'s clock (its first request) when asked for late, its own schedule when early; the clock restarts with the counts', async () => {
  const d = mkdtempSync(join(tmpdir(), 'pcp-replay-end-by-'));
  writeBundle(d, 'http://127.0.0.1:8000/', [
    { url: 'http://127.0.0.1:8000/', body: Buffer.from('<p>page</p>') },
    // A 600 ms recorded span, to end by 700 ms on the page's clock (requested at 100 in the source).
    { url: 'http://127.0.0.1:8000/held.js', body: Buffer.from('x'), mimeType: 'text/javascript', chunks: [[0, 0], [600, 1]], endBy: 700 },
  ]);
  const paced = await startReplayServer(readArchive(d), { pace: true });
  try {
    const port = paced.origins[0]!.listenPort;
    const t0 = performance.now();
    await get(port, '/', '127.0.0.1:8000'); // the page's clock starts here
    // Asked for 400 ms late (at about 500 instead of 100): served by 700, not over its whole 600 ms (1,100).
    await new Promise((r) => setTimeout(r, 500));
    assert.equal((await get(port, '/held.js', '127.0.0.1:8000')).body.toString(), 'x');
    const ended = performance.now() - t0;
    assert.ok(ended >= 695, `held.js ended ${ended} ms after the page's request, before 700`);
    // Arrived 500 ms or more into the page: at least 600 - (700 - 500) = 400 ms of its schedule taken off (timers never fire early).
    assert.equal(paced.stats.endByTaken.responses, 1);
    assert.ok(paced.stats.endByTaken.ms >= 399, `${paced.stats.endByTaken.ms} ms taken off, not the 400 a request 400 ms late owes`);
    // Counts restarted (the profiler's, after its cache warm-up): the clock restarts at the next request, and
    // asked for at once the body takes its whole recorded 600 ms (never longer: 700 is later).
    paced.resetStats();
    assert.deepEqual(paced.stats.endByTaken, { responses: 0, ms: 0 });
    const t1 = performance.now();
    await get(port, '/', '127.0.0.1:8000');
    await get(port, '/held.js', '127.0.0.1:8000');
    const took = performance.now() - t1;
    assert.ok(took >= 595, `held.js took ${took} ms from the new first request: its recorded 600`);
    assert.equal(paced.stats.endByTaken.responses, 0);
  } finally {
    await paced.close();
    rmSync(d, { recursive: true, force: true });
  }
});

test('--pace: a body with `_endBy` and `_endByLeast` (a held preload) asked for after its page time still lasts its least time', async () => {
  const d = mkdtempSync(join(tmpdir(), 'pcp-replay-end-by-least-'));
  writeBundle(d, 'http://127.0.0.1:8000/', [
    { url: 'http://127.0.0.1:8000/', body: Buffer.from('<p>page</p>') },
    // A 600 ms drawn span, to end by 700 ms on the page's clock, its bytes 300 ms on the network.
    { url: 'http://127.0.0.1:8000/held.png', body: Buffer.from('x'), mimeType: 'image/png', chunks: [[0, 0], [600, 1]], endBy: 700, endByLeast: 300 },
  ]);
  const paced = await startReplayServer(readArchive(d), { pace: true });
  try {
    const port = paced.origins[0]!.listenPort;
    await get(port, '/', '127.0.0.1:8000'); // the page's clock starts here
    // Asked for at 600 or later: 100 ms or less to its page time, but never sooner than 300 after the request.
    await new Promise((r) => setTimeout(r, 600));
    const t1 = performance.now();
    assert.equal((await get(port, '/held.png', '127.0.0.1:8000')).body.length, 1);
    const took = performance.now() - t1;
    assert.ok(took >= 295, `held.png took ${took} ms from its request, under its least 300`);
    // 600 - 300 = 300 ms taken off (no more: the least time holds), whenever it came after 700 - 300 = 400.
    assert.equal(paced.stats.endByTaken.responses, 1);
    assert.ok(Math.abs(paced.stats.endByTaken.ms - 300) < 1, `${paced.stats.endByTaken.ms} ms taken off, not 600 - 300`);
  } finally {
    await paced.close();
    rmSync(d, { recursive: true, force: true });
  }
});
