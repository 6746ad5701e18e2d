import { test } from 'node:test';
import assert from 'node:assert/strict';
import { browserDelay, documentBrowserDelay, frameDocumentBrowserDelay, mayBeHeld } from './browser-delay.ts';
import type { TraceRequest } from '../load.ts';

const request = (o: Partial<TraceRequest>): TraceRequest => ({
  requestId: '1', url: 'http://a.test/x', frame: 'f', resourceType: 'Script', method: 'GET', send: 10, chunks: [],
  encodedLength: 0, decodedLength: 0, failed: false, fromCache: false, status: 200, mimeType: '', ...o,
});

test('a request Blink never holds (High, VeryHigh, XHR, fetch): send -> socket (connection set-up excluded), network end -> renderer finish, headers -> network end', () => {
  const r = request({ priority: 'High', released: 12, finish: 60, network: { sent: 25, headers: 40, connect: 5, finish: 52 } });
  // Headers read at 40, the body's end at the network service at 52: 12 ms of reading.
  // Released at 12: 2 ms from the request to its release (the renderer's hop; never a hold at High).
  assert.deepEqual(browserDelay(r), { request: 10, release: 2, response: 8, read: 12, wait: 15 });
  const xhr = request({ priority: 'Low', resourceType: 'Other', initiator: { type: 'script', fetchType: 'xmlhttprequest' }, network: { sent: 25, headers: 40, connect: 0 } });
  assert.equal(mayBeHeld(xhr), false);
  assert.deepEqual(browserDelay(xhr), { request: 15, wait: 15 });
});

test("a request Blink's scheduler may hold (below High): from its release, the scheduler's wait being the emulator's", () => {
  const r = request({ priority: 'Low', resourceType: 'Image', released: 12, finish: 60, network: { sent: 25, headers: 40, connect: 5, finish: 52 } });
  assert.equal(mayBeHeld(r), true);
  // Sent at 10, released at 12: 2 ms from the request to its release.
  assert.deepEqual(browserDelay(r), { request: 8, release: 2, response: 8, read: 12, wait: 15 });
});

test('parts the trace lacks are left out; nothing known gives undefined', () => {
  assert.deepEqual(browserDelay(request({ finish: 60, network: { sent: 25, headers: 40, connect: 0, finish: 59 } })), { response: 1, read: 19, wait: 15 });
  assert.equal(browserDelay(request({ released: 12, finish: 60 })), undefined);
  assert.deepEqual(browserDelay(request({ priority: 'Low', network: { sent: 25, headers: 40, connect: 0 } })), { wait: 15 }, 'no release recorded for a request that may have been held: no request side');
  assert.deepEqual(browserDelay(request({ network: { sent: 25, headers: 40, connect: 0 } })), { wait: 15 }, 'no release, no finish: the wait alone');
});

test('clock skew between processes never gives a negative delay', () => {
  assert.deepEqual(browserDelay(request({ priority: 'Low', released: 30, finish: 50, network: { sent: 29.5, headers: 40, connect: 0, finish: 50.2 } })), { request: 0, release: 20, response: 0, read: 10.2, wait: 10.5 });
});

test("the main document: from the browser's navigation request to the socket; the response side as any resource's; the commit from the network's headers", () => {
  const r = request({ resourceType: 'Document', send: 0, finish: 30, network: { sent: -30, headers: -20, connect: 2, finish: -10 } });
  // The trace's send (0) is the commit; the headers were read at -20 (DevTools' responseReceived, -12, is later).
  assert.deepEqual(documentBrowserDelay(r, { navigationStart: -45, documentRequest: -43, documentResponse: -12 }), { request: 11, response: 40, read: 10, wait: 10, commit: 20 });
  assert.deepEqual(documentBrowserDelay(r, { navigationStart: -45 }), { response: 40, read: 10, wait: 10, commit: 20 }, 'no request recorded: as any resource');
  assert.equal(documentBrowserDelay(request({}), { navigationStart: -45, documentRequest: -43 }), undefined);
});

test("a frame's document: its trace request is the frame's commit; from the network's headers to it, no request side", () => {
  const r = request({ resourceType: 'Document', send: 150, finish: 180, network: { sent: 120, headers: 128, connect: 0, finish: 130 } });
  assert.deepEqual(frameDocumentBrowserDelay(r), { response: 50, read: 2, wait: 8, commit: 22 });
  // The browser's navigation request at 100 (DevTools log): its request side, as the main document's.
  assert.deepEqual(frameDocumentBrowserDelay(r, 100), { request: 20, response: 50, read: 2, wait: 8, commit: 22 });
  assert.equal(frameDocumentBrowserDelay(request({ resourceType: 'Document' })), undefined);
});

test('a request that opened a connection records its handshakes (connect), beside the delays that exclude them', () => {
  const r = request({ priority: 'High', finish: 60, network: { sent: 25, headers: 40, connect: 13, handshake: 12.5, finish: 52 } });
  // send 10 -> socket 25 less the 13 ms of DNS and handshakes: 2 ms of request delay.
  assert.deepEqual(browserDelay(r), { request: 2, response: 8, read: 12, wait: 15, connect: 12.5 });
  assert.deepEqual(browserDelay(request({ network: { sent: 25, headers: 40, connect: 0, handshake: 0 } })), { wait: 15 }, 'a reused connection: no connect');
  const doc = request({ resourceType: 'Document', send: 0, finish: 30, network: { sent: -30, headers: -20, connect: 11, handshake: 11, finish: -10 } });
  assert.deepEqual(documentBrowserDelay(doc, { navigationStart: -45, documentRequest: -43 }), { request: 2, response: 40, read: 10, wait: 10, commit: 20, connect: 11 });
});

test("a server's hold of the body before the renderer hears of the response stays in the read (issue 17)", () => {
  // Synthesized craigslist's general-concat.min.js (a cross-origin script, h2, loopback): headers read at the network
  // service at 744.5, the body there by 1323.4 (the capture: the server sent its headers, then the body 575 ms later
  // in one burst), the renderer's response only at 1325.3 with both pieces 7 us apart. The renderer's pieces (graph
  // `arrivals`) and the profiler's archive (`_chunks`, from DevTools' responseReceived) never see that hold; the read,
  // timed at the network service, does: the emulator replays it (identity on the synthesized server: -0.6%).
  const r = request({ priority: 'High', send: 736.6, released: 736.9, response: 1325.3, finish: 1325.5, chunks: [{ time: 1325.389, bytes: 286558 }, { time: 1325.396, bytes: 93214 }], network: { sent: 741.8, headers: 744.5, connect: 0, finish: 1323.35 } });
  const d = browserDelay(r)!;
  assert.equal(d.read, 578.85, 'from the headers at the network service to the body there, not from the renderer\'s late response');
  assert.equal(d.response, 2.15);
});
