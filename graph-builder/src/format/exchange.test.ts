import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Graph, ResourceNode } from './types.ts';
import { documentHeadersAt, recordedExchangeTimes } from './exchange.ts';

const res = (over: Partial<ResourceNode>): ResourceNode => ({ id: 'r', kind: 'resource', url: 'https://a.test/x.js', start: 100, end: 140, ...over }) as ResourceNode;
const graph: Pick<Graph, 'root' | 'navigation'> = { root: 'doc', navigation: { navigationStartOffset: 5, documentRequest: -30, documentResponse: -4 } };

test('a subresource: start + request delay + set-up on the socket, responseStart back', () => {
  const x = res({ responseStart: 125, browserDelay: { request: 2, connect: 13 } });
  assert.deepEqual(recordedExchangeTimes(graph, x), { requestOnSocket: 115, firstByte: 125 });
  assert.deepEqual(recordedExchangeTimes(graph, res({})), { requestOnSocket: 100, firstByte: undefined }, 'no browser delay: sent at its start');
});

test("a request Blink may hold counts its request delay from its release; headers are read `wait` after the socket", () => {
  // synth-nyaa's topbar.png as recorded (a Medium image over h2): released 4.5 ms after its start, on the socket 31.1
  // ms later, headers read 4.0 ms after that; the renderer's response came with the body, 216 ms on.
  const image = res({ start: 41, responseStart: 297, requestType: 'Image', browserPriority: 'Medium', browserDelay: { release: 4.5, request: 31.1, wait: 4 } });
  const t = recordedExchangeTimes(graph, image);
  assert.ok(Math.abs(t.requestOnSocket! - 76.6) < 1e-9 && Math.abs(t.firstByte! - 80.6) < 1e-9, JSON.stringify(t));
  // A style sheet (VeryHigh) is never held: its release is informational, its request delay runs from its start.
  const sheet = res({ start: 19.3, responseStart: 82, requestType: 'Stylesheet', browserPriority: 'VeryHigh', browserDelay: { release: 15.8, request: 43.7, connect: 12.5 } });
  assert.ok(Math.abs(recordedExchangeTimes(graph, sheet).requestOnSocket! - 75.5) < 1e-9);
  assert.equal(recordedExchangeTimes(graph, sheet).firstByte, 82, 'no wait recorded: the renderer\'s response');
});

test('the main document: its navigation\'s request; headers before its commit, else the navigation\'s', () => {
  const doc = res({ id: 'doc', url: 'https://a.test/', start: 0, requestType: 'Document', documentOfFrame: 'main', browserDelay: { request: 1.5, commit: 6 } });
  assert.deepEqual(recordedExchangeTimes(graph, doc), { requestOnSocket: -28.5, firstByte: -6 });
  const old = res({ id: 'doc', url: 'https://a.test/', start: 0, requestType: 'Document' });
  assert.deepEqual(recordedExchangeTimes(graph, old), { requestOnSocket: -30, firstByte: -4 });
  assert.equal(documentHeadersAt(undefined, old), undefined);
  assert.deepEqual(recordedExchangeTimes({ root: 'doc' }, old), { requestOnSocket: undefined, firstByte: undefined }, 'no navigation recorded');
});

test('a frame\'s document: the browser\'s navigation request, not its start (the commit, after its response)', () => {
  const frame = res({ id: 'f', url: 'https://b.test/frame.html', start: 400, responseStart: 380, requestType: 'Document', documentOfFrame: 'F1', navigationRequest: 350, browserDelay: { request: 1, connect: 12, commit: 15 } });
  assert.deepEqual(recordedExchangeTimes(graph, frame), { requestOnSocket: 363, firstByte: 385 });
  const noCommit = res({ ...frame, browserDelay: { request: 1 } });
  assert.deepEqual(recordedExchangeTimes(graph, noCommit), { requestOnSocket: 351, firstByte: 380 });
  assert.deepEqual(recordedExchangeTimes(graph, res({ ...frame, navigationRequest: undefined })).requestOnSocket, undefined, 'request side not recorded');
});
