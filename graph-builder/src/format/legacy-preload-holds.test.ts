import { test } from 'node:test';
import assert from 'node:assert/strict';
import { legacyRawEvidence } from './legacy-raw.ts';
import { addPreloadHolds, preloadHoldOf } from './legacy-preload-holds.ts';
import type { GraphNode, ResourceNode } from './types.ts';

const line = (kind: string, v: unknown): string => JSON.stringify({ [kind]: v });
const PAGE = 'https://www.pcp.test/';
const IMG = 'https://www.pcp.test/option-1-btn.png';
// www.capitalone.com's option-1-btn.png: the document sent at 12,038.667 s (the clock's 0), the scanner's ask at
// 12,041.198 (2,531 ms), the fetch sent at 12,043.872 (5,205) and received at 12,044.057 (5,390); the original
// builder drew it from the parser's access (5,244) for 5,390 - 2,531 = 2,859 ms; the <body> start tag parsed at 12,043.871 (5,204).
const body = (startTime: number) => line('ObjectHash', { code: '0xbd', comp: '(nil)', doc: PAGE, frame: '1', row: 2000, column: 0, tagName: 'body', startTime, endTime: startTime, urls: [], pos: 70000, isStartTag: 1, isFragment: 0 });
const evidence = (from = '(nil)', bodyAt = 12043.871) => legacyRawEvidence([
  line('Resource', { id: 1, url: PAGE, frame: '1', sentTime: 12038.667, recieveTime: 12041.198, len: 120428, from: '(nil)', mimeType: 'text/html', httpStatus: 200, httpMethod: 'GET', cached: 0 }),
  line('Resource', { id: 2, url: IMG, frame: '1', sentTime: 12043.872, recieveTime: 12044.057, len: 3617, from, mimeType: 'image/png', httpStatus: 200, httpMethod: 'GET', cached: 0 }),
  line('Preload', { code: '0xa', scriptCode: '0xb', docUrl: PAGE, url: IMG, tag: 'img', row: 2121, column: 150, time: 12041.198 }),
  body(bodyAt),
]);
const node = (start: number, end: number, cached = false): ResourceNode => ({
  id: 'download_29', kind: 'resource', frame: '0', start, end, url: IMG, mimeType: 'image/png', size: 3617, method: 'GET', status: 0, cached,
  priority: { mimeType: 1, criticalPath: 1, criticalPathPlus: 1, depth: 1 }, onCriticalPath: false,
});

test("a node drawn from the scanner's ask to the end of a fetch sent as the body was parsed keeps the three times", () => {
  const hold = preloadHoldOf(evidence(), node(5244, 8103));
  assert.ok(hold);
  assert.deepEqual([hold.askedAt, hold.sentAt, hold.receivedAt].map(Math.round), [2531, 5205, 5390]);
});

test('no hold: a duration that is the network fetch alone, a fetch not the scanner\'s, a cache hit, no preload', () => {
  assert.equal(preloadHoldOf(evidence(), node(5205, 5390)), undefined, 'drawn sent to received');
  assert.equal(preloadHoldOf(evidence('0x7f01'), node(5244, 8103)), undefined, "an element's own fetch");
  assert.equal(preloadHoldOf(evidence(), node(5244, 8103, true)), undefined, 'a memory-cache repeat');
  const noPreload = legacyRawEvidence([line('Resource', { id: 2, url: IMG, frame: '1', sentTime: 1, recieveTime: 2, len: 1, from: '(nil)', mimeType: 'image/png', httpStatus: 200, httpMethod: 'GET', cached: 0 })]);
  assert.equal(preloadHoldOf(noPreload, node(0, 1000)), undefined);
});

test('no hold where something else let the fetch go: sent before the body was parsed, or more than 40 ms after', () => {
  // www.xfinity.com's images: sent 78 ms before the body, after the 2016 renderer's unrecorded pause.
  assert.equal(preloadHoldOf(evidence('(nil)', 12043.950), node(5244, 8103)), undefined, 'sent 78 ms before the body');
  assert.equal(preloadHoldOf(evidence('(nil)', 12043.800), node(5244, 8103)), undefined, 'sent 72 ms after the body');
  assert.ok(preloadHoldOf(evidence('(nil)', 12043.840), node(5244, 8103)), 'sent 32 ms after the body');
});

test('addPreloadHolds puts the hold on the resource as extra.preloadHold, other nodes untouched', () => {
  const nodes: GraphNode[] = [node(5244, 8103), { id: 'p', kind: 'parse_chunk', frame: '0', start: 0, end: 1, docUrl: PAGE, startLine: 1, startColumn: 1, endLine: 1, endColumn: 2 }];
  addPreloadHolds(nodes, evidence());
  assert.equal(Math.round((nodes[0]!.extra!.preloadHold as { sentAt: number }).sentAt), 5205);
  assert.equal(nodes[1]!.extra, undefined);
});
