/**
 * The response archive: buildHar on protocol events (redirect chains, failures, missing bodies), and
 * `--archive` against real Chromium and the test server: every response the server sent is in the
 * archive with the bytes it sent (text, binary), the redirect hop and the 404 are kept, a body that
 * never finished is recorded as missing and counted in meta.json.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bodyChunks, buildHar, entryBody, harHeaders, headersReadAt, ONE_PIECE_HOLD_MS, type Har, type RecordedBody } from './archive.ts';
import { capturePage } from './capture.ts';
import { BUNDLE_FILES, type DevtoolsLogEntry } from './bundle.ts';
import { startSuiteServer, SITES_DIR } from '../fidelity/suite.ts';
import type { TestServer } from '../test-server/server.ts';

const creator = { name: 'test', version: '0' };
const sent = (requestId: string, url: string, timestamp: number, extra: Record<string, unknown> = {}): DevtoolsLogEntry => ({
  method: 'Network.requestWillBeSent',
  params: { requestId, request: { url, method: 'GET', headers: { Accept: '*/*' } }, timestamp, wallTime: 1_700_000_000 + timestamp, type: 'Image', ...extra },
});
const received = (requestId: string, url: string, status: number, protocol = 'http/1.1', headers: Record<string, string> = {}): DevtoolsLogEntry => ({
  method: 'Network.responseReceived',
  params: { requestId, timestamp: 2, response: { url, status, statusText: 'OK', protocol, mimeType: 'image/png', headers, remoteIPAddress: '127.0.0.1', remotePort: 8000 } },
});
const finished = (requestId: string): DevtoolsLogEntry => ({ method: 'Network.loadingFinished', params: { requestId, timestamp: 3, encodedDataLength: 10 } });

test('buildHar: a redirect chain is one entry per hop; bodies attach to the final response', () => {
  const log = [
    sent('1', 'http://h:1/r', 1),
    sent('1', 'http://h:1/t.png', 1.5, { redirectResponse: { url: 'http://h:1/r', status: 302, statusText: 'Found', protocol: 'http/1.1', headers: { Location: '/t.png' } } }),
    received('1', 'http://h:1/t.png', 200, 'h2', { 'Content-Type': 'image/png', 'Set-Cookie': 'a=1\nb=2' }),
    { method: 'Network.dataReceived', params: { requestId: '1', timestamp: 2.0005, dataLength: 2, encodedDataLength: 2 } },
    { method: 'Network.dataReceived', params: { requestId: '1', timestamp: 2.25, dataLength: 1, encodedDataLength: 1 } },
    finished('1'),
  ];
  const bodies = new Map<string, RecordedBody>([['1', { body: Buffer.from([0, 255, 1]).toString('base64'), base64Encoded: true }]]);
  const { har, summary } = buildHar(log, bodies, { creator, pageUrl: 'http://h:1/' });
  assert.deepEqual(summary, { entries: 2, missingBodies: 0, redirects: 1 });
  const [hop, fin] = har.log.entries;
  assert.equal(hop!.response.status, 302);
  assert.equal(hop!.response.redirectURL, '/t.png');
  assert.equal(hop!.response.content.text, undefined);
  assert.equal(fin!.response.httpVersion, 'h2');
  assert.equal(fin!.serverIPAddress, '127.0.0.1');
  assert.equal(fin!._remotePort, 8000);
  assert.equal(fin!.response.content.encoding, 'base64');
  assert.deepEqual([...entryBody(fin!)!], [0, 255, 1]);
  assert.equal(fin!.response.content.size, 3);
  assert.deepEqual(fin!._chunks, [[0.5, 2], [250, 1]], 'how the body arrived, ms after the headers');
  assert.equal(hop!._chunks, undefined);
  assert.deepEqual(fin!.response.headers.filter((h) => h.name === 'Set-Cookie').map((h) => h.value), ['a=1', 'b=2']);
  assert.equal(har.log.version, '1.2');
});

test('headersReadAt and bodyChunks: pieces timed from the network service\'s headers; one piece kept only when held', () => {
  assert.equal(headersReadAt({ timing: { requestTime: 1.5, receiveHeadersEnd: 500 } }), 2);
  assert.equal(headersReadAt({}), undefined, 'no timing (a cache hit)');
  assert.equal(headersReadAt({ timing: { requestTime: 0, receiveHeadersEnd: -1 } }), undefined);
  assert.deepEqual(bodyChunks([[2.0005, 2], [2.25, 1]], 2), [[0.5, 2], [250, 1]]);
  assert.deepEqual(bodyChunks([[2.228, 9]], 2), [[228, 9]], 'one piece held 228 ms: kept');
  assert.deepEqual(bodyChunks([[2.228, 9], [2.2288, 0]], 2), [[228, 9]], 'an empty data event after the body is no piece');
  assert.equal(bodyChunks([[2 + (ONE_PIECE_HOLD_MS - 1) / 1000, 9]], 2), undefined, 'one piece within the browser\'s own passing: nothing to pace');
  assert.equal(bodyChunks([], 2), undefined);
  assert.deepEqual(bodyChunks([[1.999, 3], [2.1, 1]], 2), [[0, 3], [100, 1]], 'never before the headers');
});

test('buildHar: a cross-origin script\'s late responseReceived does not hide the server\'s hold; one held piece is archived', () => {
  const timing = (requestTime: number, receiveHeadersEnd: number) => ({ requestTime, receiveHeadersEnd });
  const late = (requestId: string, url: string, at: number, t: { requestTime: number; receiveHeadersEnd: number }): DevtoolsLogEntry => ({
    method: 'Network.responseReceived',
    params: { requestId, timestamp: at, type: 'Script', response: { url, status: 200, statusText: 'OK', protocol: 'http/1.1', mimeType: 'text/javascript', headers: {}, timing: t } },
  });
  const data = (requestId: string, timestamp: number, dataLength: number): DevtoolsLogEntry => ({ method: 'Network.dataReceived', params: { requestId, timestamp, dataLength, encodedDataLength: dataLength } });
  const log: DevtoolsLogEntry[] = [
    // Headers read at 1.02 s; the renderer hears of the response only with the body, 580.8 ms later.
    sent('s', 'http://b:2/general.js', 1), late('s', 'http://b:2/general.js', 1.6008, timing(1, 20)), data('s', 1.6009, 4000), finished('s'),
    // A style sheet held 228 ms after its headers, in one piece, its response seen at once.
    sent('c', 'http://h:1/home.css', 1), late('c', 'http://h:1/home.css', 1.0301, timing(1, 30)), data('c', 1.258, 900), finished('c'),
    // An image in one piece right after its headers: nothing to pace.
    sent('i', 'http://h:1/i.png', 1), late('i', 'http://h:1/i.png', 1.0401, timing(1, 40)), data('i', 1.0415, 50), finished('i'),
    // Data logged before the response (another session's order): still counted.
    sent('d', 'http://h:1/d.js', 1), data('d', 1.3, 10), data('d', 1.35, 10), late('d', 'http://h:1/d.js', 1.36, timing(1, 100)), finished('d'),
  ];
  const { har } = buildHar(log, new Map(), { creator, pageUrl: 'http://h:1/' });
  const chunks = Object.fromEntries(har.log.entries.map((e) => [e.request.url.replace(/^.*\//, ''), e._chunks]));
  assert.deepEqual(chunks, { 'general.js': [[580.9, 4000]], 'home.css': [[228, 900]], 'i.png': undefined, 'd.js': [[200, 10], [250, 10]] });
});

test('buildHar: missing bodies are counted with the reason; requests without a response and data: URLs are left out', () => {
  const log = [
    sent('1', 'http://h:1/a', 1), received('1', 'http://h:1/a', 200), finished('1'),
    sent('2', 'http://h:1/stream', 1), received('2', 'http://h:1/stream', 200), // never finishes
    sent('3', 'http://h:1/refused', 1), { method: 'Network.loadingFailed', params: { requestId: '3', timestamp: 2, errorText: 'net::ERR_CONNECTION_REFUSED' } },
    sent('4', 'data:text/plain,x', 1), received('4', 'data:text/plain,x', 200), finished('4'),
  ];
  const bodies = new Map<string, RecordedBody>([['1', { error: 'No resource with given identifier found' }]]);
  const { har, summary } = buildHar(log, bodies, { creator, pageUrl: 'http://h:1/' });
  assert.deepEqual(summary, { entries: 2, missingBodies: 2, redirects: 0 });
  assert.deepEqual(har.log.entries.map((e) => e._bodyMissing), ['No resource with given identifier found', 'the response had not finished when the capture ended']);
  assert.deepEqual(harHeaders({ A: 'x\ny' }), [{ name: 'A', value: 'x' }, { name: 'A', value: 'y' }]);
});

let server: TestServer;
let work: string;
before(async () => {
  server = await startSuiteServer();
  work = mkdtempSync(join(tmpdir(), 'pcp-archive-test-'));
});
after(async () => {
  await server.close();
  rmSync(work, { recursive: true, force: true });
});

test('--archive on real Chromium: every response, byte-identical bodies, the redirect, the 404, a missing body', async () => {
  const url = `${server.urls.a}profiler-archive/`;
  const dir = join(work, 'archive');
  const { meta } = await capturePage(url, dir, { hostResolverRules: server.hostResolverRules, ignoreCertificateErrors: true, quietMs: 500, stallMs: 1000, archive: true });
  assert.equal(meta.status, 'complete', meta.message);
  assert.ok(meta.files.includes(BUNDLE_FILES.archive));
  const har = JSON.parse(readFileSync(join(dir, BUNDLE_FILES.archive), 'utf8')) as Har;
  const entries = har.log.entries;
  const pathOf = (u: string): string => new URL(u).pathname + new URL(u).search;
  const find = (path: string) => entries.find((e) => pathOf(e.request.url) === path);

  // Every request the server answered is archived (favicon and the hang included).
  for (const r of server.requests.filter((q) => q.path.startsWith('/profiler-archive/') || q.path.startsWith('/_pcp/') || q.path === '/favicon.ico')) {
    assert.ok(entries.some((e) => pathOf(e.request.url) === r.path), `archived ${r.path}`);
  }
  const file = (f: string): Buffer => readFileSync(join(SITES_DIR, 'profiler-archive', f));
  assert.equal(entryBody(find('/profiler-archive/')!)!.toString('utf8'), server.expand(file('index.html').toString('utf8')));
  assert.deepEqual(entryBody(find('/profiler-archive/pixel.png')!), file('pixel.png'));
  assert.equal(find('/profiler-archive/pixel.png')!.response.content.encoding, 'base64');
  assert.deepEqual(entryBody(find('/profiler-archive/bytes.bin')!), file('bytes.bin'));
  assert.deepEqual(entryBody(find('/profiler-archive/target.png')!), file('target.png'));
  assert.deepEqual(entryBody(find('/profiler-archive/style.css')!), file('style.css'));
  const data = entries.find((e) => e.request.url.includes('/profiler-archive/data.json?_='))!;
  assert.deepEqual(entryBody(data), file('data.json'), 'UTF-8 text byte for byte');
  const h2 = find('/profiler-archive/h2.js')!;
  assert.equal(h2.response.httpVersion, 'h2');
  assert.equal(new URL(h2.request.url).hostname, 'c.pcp.test');
  assert.equal(h2.serverIPAddress, '127.0.0.1');
  assert.equal(h2._remotePort, Number(new URL(server.urls.c!).port));
  // The redirect hop and the 404 are kept.
  const hop = entries.find((e) => e.request.url.includes('/_pcp/redirect'))!;
  assert.equal(hop.response.status, 302);
  assert.equal(hop.response.redirectURL, '/profiler-archive/target.png');
  assert.equal(find('/profiler-archive/not-there.png')!.response.status, 404);
  // The hung response: headers archived, body missing, counted.
  const hang = entries.find((e) => e.request.url.includes('/_pcp/hang'))!;
  assert.equal(hang.response.status, 200);
  assert.match(hang._bodyMissing ?? '', /not finished/);
  assert.equal(meta.archive!.missingBodies, entries.filter((e) => e._bodyMissing).length);
  assert.ok(meta.archive!.missingBodies >= 1);
  assert.equal(meta.archive!.entries, entries.length);
  assert.equal(meta.archive!.redirects, 1);
  assert.ok(meta.warnings.some((w) => /archive: \d+ of \d+ response bodies/.test(w)));
});
