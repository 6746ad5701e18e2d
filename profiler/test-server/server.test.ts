/**
 * The test server against real clients on loopback: node's http client for HTTP/1.1 and node's
 * http2 client for h2 (ALPN), on a temporary site built by each test.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import http2 from 'node:http2';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { padding, startTestServer, type TestServer } from './server.ts';
import { parseOrigin } from './cli.ts';

interface Got { status: number; headers: Record<string, string | string[] | undefined>; body: Buffer; ms: number; version: string }

function get1(server: TestServer, origin: string, path: string): Promise<Got> {
  const o = server.origins.find((x) => x.name === origin)!;
  const t0 = Date.now();
  return new Promise((ok, fail) => {
    const req = http.get({ host: '127.0.0.1', port: o.port, path, headers: { host: `${o.host}:${o.port}` } }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (d: Buffer) => parts.push(d));
      res.on('end', () => ok({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(parts), ms: Date.now() - t0, version: res.httpVersion }));
    });
    req.on('error', fail);
  });
}

function get2(server: TestServer, origin: string, path: string): Promise<Got> {
  const o = server.origins.find((x) => x.name === origin)!;
  const t0 = Date.now();
  return new Promise((ok, fail) => {
    const client = http2.connect(`https://127.0.0.1:${o.port}`, { rejectUnauthorized: false, servername: o.host });
    client.on('error', fail);
    const req = client.request({ ':path': path, ':authority': `${o.host}:${o.port}` });
    let headers: Record<string, string | string[] | undefined> = {};
    req.on('response', (h) => { headers = h as typeof headers; });
    const parts: Buffer[] = [];
    req.on('data', (d: Buffer) => parts.push(d));
    req.on('end', () => {
      client.close();
      ok({ status: Number(headers[':status']), headers, body: Buffer.concat(parts), ms: Date.now() - t0, version: client.alpnProtocol ?? '' });
    });
    req.end();
  });
}

function site(): string {
  const dir = mkdtempSync(join(tmpdir(), 'pcp-site-'));
  mkdirSync(join(dir, 'p'));
  writeFileSync(join(dir, 'p', 'index.html'), '<script src="{{origin:b}}/p/x.js"></script>');
  writeFileSync(join(dir, 'p', 'x.js'), 'var x = 1;');
  writeFileSync(join(dir, 'p', 'slow.js'), 'var s = 1;');
  writeFileSync(join(dir, 'p', 'delays.json'), JSON.stringify({ 'slow.js': 300, 'x.js': { size: 100 }, 'index.html': 150 }));
  return dir;
}

test('serves files on several origins, expands {{origin:x}}, applies delays.json and ?delay', async () => {
  const dir = site();
  const server = await startTestServer({ root: dir, origins: [{ name: 'a' }, { name: 'b' }] });
  try {
    assert.equal(server.hostResolverRules, 'MAP *.pcp.test 127.0.0.1');
    assert.match(server.urls.a!, /^http:\/\/a\.pcp\.test:\d+\/$/);
    const page = await get1(server, 'a', '/p/');
    assert.equal(page.status, 200);
    assert.ok(page.ms >= 140, `the directory URL gets index.html's delay (took ${page.ms} ms)`);
    assert.equal(page.headers['content-type'], 'text/html; charset=utf-8');
    // The placeholder becomes origin b's base URL (no trailing slash) so pages can name other origins.
    assert.equal(page.body.toString(), `<script src="${server.urls.b!.slice(0, -1)}/p/x.js"></script>`);
    // delays.json says x.js is padded to 100 bytes: 'var x = 1;' + a /*xxx*/ comment.
    const x = await get1(server, 'b', '/p/x.js');
    assert.equal(x.body.length, 100);
    assert.match(x.body.toString(), /^var x = 1;\/\*x+\*\/$/);
    // delays.json says slow.js waits 300 ms; a query delay overrides it.
    const slow = await get1(server, 'a', '/p/slow.js');
    assert.ok(slow.ms >= 290, `slow.js took ${slow.ms} ms`);
    // How long a request takes has no upper bound on a busy machine: what the server was told to hold
    // says that the query overrode delays.json.
    await get1(server, 'a', '/p/slow.js?delay=0');
    assert.deepEqual(server.requests.map((r) => r.heldMs), [150, 0, 300, 0]);
    const q = await get1(server, 'a', '/p/x.js?delay=200&size=50');
    assert.ok(q.ms >= 190);
    assert.equal(q.body.length, 50, 'the query size overrides delays.json (10-byte file padded to 50)');
    assert.deepEqual(server.requests.map((r) => `${r.origin} ${r.path} ${r.status}`), [
      'a /p/ 200', 'b /p/x.js 200', 'a /p/slow.js 200', 'a /p/slow.js?delay=0 200', 'a /p/x.js?delay=200&size=50 200',
    ]);
  } finally {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('HTTP/2 over TLS with a run-time certificate; built-in endpoints; path escapes refused', async () => {
  const dir = site();
  const server = await startTestServer({ root: dir, origins: [{ name: 'a' }, { name: 'c', http2: true }] });
  try {
    assert.match(server.urls.c!, /^https:\/\/c\.pcp\.test:\d+\/$/);
    const r = await get2(server, 'c', '/p/x.js');
    assert.equal(r.version, 'h2');
    assert.equal(r.status, 200);
    assert.equal(r.body.length, 100);
    const blob = await get2(server, 'c', '/_pcp/blob.css?size=5000');
    assert.equal(blob.body.length, 5000);
    assert.equal(blob.headers['content-type'], 'text/css; charset=utf-8');
    const redirect = await get1(server, 'a', '/_pcp/redirect?to={{origin:c}}/p/x.js');
    assert.equal(redirect.status, 302);
    assert.equal(redirect.headers.location, `${server.urls.c}p/x.js`);
    const dl = await get1(server, 'a', '/_pcp/download?size=10');
    assert.match(String(dl.headers['content-disposition']), /^attachment/);
    assert.equal((await get1(server, 'a', '/nope.js')).status, 404);
    assert.equal((await get1(server, 'a', '/../../etc/passwd')).status, 404, 'URL normalisation keeps paths under root');
    assert.equal((await get1(server, 'a', '/p/..%2f..%2f..%2fetc%2fpasswd')).status, 403);
    // A chunked trickle: 3 pieces of 4 bytes 100 ms apart take at least 200 ms.
    const trickle = await get1(server, 'a', '/p/x.js?chunkSize=40&chunkDelay=100');
    assert.ok(trickle.ms >= 190, `trickle took ${trickle.ms}`);
    assert.equal(trickle.body.length, 100);
  } finally {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a hanging response does not keep close() waiting', async () => {
  const dir = site();
  const server = await startTestServer({ root: dir, origins: [{ name: 'a' }] });
  const o = server.origins[0]!;
  const req = http.get({ host: '127.0.0.1', port: o.port, path: '/_pcp/hang' });
  req.on('error', () => {});
  await new Promise((r) => req.on('response', r));
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

test('padding keeps text types meaning the same', () => {
  assert.equal(padding('.js', 10).toString(), '/*xxxxxx*/');
  assert.equal(padding('.html', 10).toString(), '<!--xxx-->');
  assert.deepEqual([...padding('.png', 3)], [0, 0, 0]);
  assert.deepEqual(parseOrigin('c:8443:h2'), { name: 'c', port: 8443, http2: true });
  assert.throws(() => parseOrigin('c:bogus'), /not a port/);
});
