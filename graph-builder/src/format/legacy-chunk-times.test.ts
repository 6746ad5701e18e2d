import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { DownloadChunkNode, ResourceNode } from './types.ts';
import { byteArrival, interpolatedSpan, parserSpans, receivedSpans, timeLegacyChunks } from './legacy-chunk-times.ts';

const doc = (size = 1000): ResourceNode => ({
  id: 'r', kind: 'resource', frame: '0', start: 0, end: 1000, url: 'http://a.test/', mimeType: 'text/html', size, method: 'GET', status: 200, cached: false,
  priority: { mimeType: 0, criticalPath: 0 }, onCriticalPath: false,
});
const chunk = (index: number, offset: number, size: number): DownloadChunkNode => ({ id: `d${index}`, kind: 'download_chunk', frame: '0', start: 0, end: 0, resource: 'r', index, offset, size });
const arrivals = [{ at: 600, bytes: 100 }, { at: 700, bytes: 400 }, { at: 900, bytes: 500 }];

test('a byte arrived with the piece that brought it; past the last byte, with the last piece', () => {
  assert.deepEqual([1, 100, 101, 500, 501, 1000, 5000].map((b) => byteArrival(arrivals, b)), [600, 600, 700, 700, 900, 900, 900]);
});

test("received: a chunk spans from the chunk before's last byte (the first: its own first byte) to its own last, no later than the document's end", () => {
  // Bytes 1-100 came at 600, 101-500 at 700, 501-1000 at 900.
  assert.deepEqual(receivedSpans(doc(), [chunk(0, 50, 20), chunk(1, 70, 400), chunk(2, 470, 0), chunk(3, 470, 530)], arrivals), [
    { start: 600, end: 600 }, { start: 600, end: 700 }, { start: 700, end: 700 }, { start: 700, end: 900 },
  ]);
  // Bytes 101-500 came in one piece at 700: chunk 1 waited for it from 600, where chunk 0's last byte came.
  assert.deepEqual(receivedSpans(doc(), [chunk(0, 0, 100), chunk(1, 100, 400), chunk(2, 500, 500)], arrivals), [
    { start: 600, end: 600 }, { start: 600, end: 700 }, { start: 700, end: 900 },
  ], "a chunk whose bytes came in one piece holds the wait for it");
  // An empty chunk at byte 100 needs no byte past it: it ends with byte 100 (600), and the wait for the next piece
  // is the next chunk's (bytes 101-500, at 700).
  assert.deepEqual(receivedSpans(doc(), [chunk(0, 0, 100), chunk(1, 100, 0), chunk(2, 100, 400)], arrivals), [
    { start: 600, end: 600 }, { start: 600, end: 600 }, { start: 600, end: 700 },
  ], 'an empty chunk ends with the byte before it');
  const early = { ...doc(), end: 800 };
  assert.deepEqual(receivedSpans(early, [chunk(0, 0, 500), chunk(1, 500, 500)], arrivals), [{ start: 600, end: 700 }, { start: 700, end: 800 }], 'the renderer took the last piece after the download ended');
});

test('parser: chunk n ends when its parse chunk began, within the document, never before the chunk before', () => {
  const parsed = new Map([['d0', 650], ['d1', 620], ['d3', 5000]]);
  const spans = parserSpans(doc(), [chunk(0, 100, 100), chunk(1, 200, 300), chunk(2, 500, 100), chunk(3, 600, 400)], (d) => parsed.get(d.id));
  assert.deepEqual(spans, [{ start: 100, end: 650 }, { start: 650, end: 650 }, { start: 650, end: 1000 }, { start: 1000, end: 1000 }]);
});

test('interpolated: a share of the whole span by byte offset', () => {
  assert.deepEqual(interpolatedSpan(doc(), chunk(1, 250, 250)), { start: 250, end: 500 });
});

test('timeLegacyChunks: received where the arrivals are known, else by the parser, each chunk saying how', () => {
  const r = doc();
  const other: ResourceNode = { ...doc(), id: 'q' };
  const nodes = [r, chunk(1, 500, 500), chunk(0, 0, 500), other, { ...chunk(0, 0, 1000), id: 'e0', resource: 'q' }];
  timeLegacyChunks(nodes, 'received', (x) => (x.id === 'r' ? arrivals : undefined), () => 300);
  const d = (id: string) => nodes.find((n) => n.id === id) as DownloadChunkNode;
  assert.deepEqual([d('d0').start, d('d0').end, d('d1').start, d('d1').end], [600, 700, 700, 900]);
  assert.equal(d('d0').extra?.chunkTimes, 'received');
  assert.equal(d('e0').extra?.chunkTimes, 'parser');
  assert.equal(d('e0').end, 300);
  assert.equal(d('e0').extra?.interpolatedTimes, undefined);
  timeLegacyChunks(nodes, 'interpolated', () => arrivals, () => 300);
  assert.deepEqual([d('d1').start, d('d1').end, d('d1').extra?.chunkTimes, d('d1').extra?.interpolatedTimes], [500, 1000, 'interpolated', true]);
});
