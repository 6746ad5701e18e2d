import { test } from 'node:test';
import assert from 'node:assert/strict';
import { frameDocumentRequests, navigationTimes } from './navigation.ts';
import { frameDocumentKey } from './activities/context.ts';
import { loggedDocuments } from './logged-documents.ts';
import type { TraceEvent } from './reader.ts';

// Shaped like Chromium 156's trace of a navigation (values from a real bundle of the example site): the
// navigationStart mark of the page (with its url and navigation id), the initial about:blank document's
// own mark (empty url), fetchStart, and the renderer's record of the document request at commit (the
// page's time 0, origin below). Trace times in µs; the DevTools log's timestamps in s on the same clock.
const origin = 452_251_741;
const ev = (name: string, ts: number, args: Record<string, unknown>): TraceEvent => ({ name, cat: 'blink.user_timing', ph: 'R', ts, pid: 1, tid: 1, args });
const events: TraceEvent[] = [
  ev('navigationStart', origin - 32_595, { frame: 'F', data: { documentLoaderURL: 'http://a.test/index.html', navigationId: 'NAV' } }),
  ev('fetchStart', origin - 30_836, { frame: 'F' }),
  ev('navigationStart', origin - 26_468, { frame: 'F', data: { documentLoaderURL: '', navigationId: 'BLANK' } }),
  ev('navigationStart', origin + 142_816, { frame: 'SUB', data: { documentLoaderURL: 'http://b.test/frame.html', navigationId: 'N2' } }),
];
const log = [
  { method: 'Network.requestWillBeSent', params: { requestId: 'NAV', type: 'Document', frameId: 'F', timestamp: 452.220916, request: { url: 'http://a.test/index.html', method: 'GET' } } },
  { method: 'Network.responseReceived', params: { requestId: 'NAV', type: 'Document', frameId: 'F', timestamp: 452.237357, response: { status: 200, mimeType: 'text/html' } } },
  { method: 'Network.requestWillBeSent', params: { requestId: 'X', type: 'Script', frameId: 'F', timestamp: 452.263, request: { url: 'http://a.test/a.js', method: 'GET' } } },
];

test('navigationTimes: the page navigation start (not about:blank, not a subframe), document request and response on the page clock', () => {
  const t = navigationTimes(events, origin, 'F', loggedDocuments(log))!;
  assert.ok(Math.abs(t.navigationStart - -32.595) < 1e-9);
  assert.ok(Math.abs(t.documentRequest! - -30.825) < 1e-6);
  assert.ok(Math.abs(t.documentResponse! - -14.384) < 1e-6);
});

test("navigationTimes: a redirected navigation's request is its first hop's, its response the final one's; another frame's or navigation's documents are not it", () => {
  const nav = (method: string, requestId: string, frameId: string, timestamp: number, url?: string) =>
    ({ method, params: { requestId, type: 'Document', frameId, timestamp, ...(url ? { request: { url, method: 'GET' } } : { response: { status: 200, mimeType: 'text/html' } }) } });
  const redirected = [
    nav('Network.requestWillBeSent', 'SUBNAV', 'SUB', 452.219, 'http://b.test/early.html'), // another frame, in the window
    nav('Network.requestWillBeSent', 'OLD', 'F', 452.2195, 'http://a.test/old.html'), // the frame's, another navigation
    nav('Network.requestWillBeSent', 'NAV', 'F', 452.220916, 'http://a.test/'),
    nav('Network.requestWillBeSent', 'NAV', 'F', 452.228, 'http://a.test/index.html'), // the redirect's hop
    nav('Network.responseReceived', 'NAV', 'F', 452.237357),
  ];
  const t = navigationTimes(events, origin, 'F', loggedDocuments(redirected))!;
  assert.ok(Math.abs(t.documentRequest! - -30.825) < 1e-6);
  assert.ok(Math.abs(t.documentResponse! - -14.384) < 1e-6);
  // Without the navigation's id (an older trace), the frame's first document request in the window.
  const noId = events.map((e) => (e.args?.data as { navigationId?: string } | undefined)?.navigationId === 'NAV' ? { ...e, args: { ...e.args, data: { documentLoaderURL: 'http://a.test/index.html' } } } : e);
  const u = navigationTimes(noId, origin, 'F', loggedDocuments(redirected))!;
  assert.ok(Math.abs(u.documentRequest! - -32.241) < 1e-6);
  assert.equal(u.documentResponse, undefined);
});

test("navigationTimes: the load event's start is the page's loadEventStart mark (not about:blank's before time 0, not a subframe's); none, none", () => {
  const marks = [
    ...events,
    ev('loadEventStart', origin - 20_000, { frame: 'F' }), // the initial about:blank document's
    ev('loadEventStart', origin + 300_000, { frame: 'SUB' }),
    ev('loadEventStart', origin + 412_500, { frame: 'F' }),
    ev('loadEventEnd', origin + 470_000, { frame: 'F' }),
  ];
  assert.ok(Math.abs(navigationTimes(marks, origin, 'F')!.loadEventStart! - 412.5) < 1e-9);
  assert.equal(navigationTimes(events, origin, 'F')!.loadEventStart, undefined);
});

test('navigationTimes: without a DevTools log the request is the fetchStart mark and the response unknown; no mark, no times', () => {
  const t = navigationTimes(events, origin, 'F')!;
  assert.ok(Math.abs(t.documentRequest! - -30.836) < 1e-9);
  assert.equal(t.documentResponse, undefined);
  assert.equal(navigationTimes(events.slice(2, 3), origin, 'F'), undefined);
});

test("frameDocumentRequests: each subframe's first logged Document request, on the page clock; the main frame's left out", () => {
  const frameLog = [
    ...log,
    { method: 'Network.requestWillBeSent', params: { requestId: 'N2', type: 'Document', frameId: 'SUB', timestamp: 452.383, request: { url: 'http://b.test/frame.html' } } },
    { method: 'Network.requestWillBeSent', params: { requestId: 'N3', type: 'Document', frameId: 'SUB', timestamp: 452.5, request: { url: 'http://b.test/frame.html' } } },
    { method: 'Network.requestWillBeSent', params: { requestId: 'NAV', type: 'Document', frameId: 'F', timestamp: 452.220916, request: { url: 'http://a.test/index.html' } } },
  ];
  const m = frameDocumentRequests(loggedDocuments(frameLog), origin, 'F');
  assert.deepEqual([...m.keys()], [frameDocumentKey('SUB', 'http://b.test/frame.html')]);
  assert.ok(Math.abs(m.get(frameDocumentKey('SUB', 'http://b.test/frame.html'))! - 131.259) < 1e-6);
  assert.equal(frameDocumentRequests([], origin, 'F').size, 0);
});
