import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { DownloadChunkNode, Graph, ResourceNode } from './format/types.ts';
import { buildFromTrace } from './build-trace.ts';

const FIXTURES = new URL('./adapters/trace/fixtures/', import.meta.url).pathname;
const chunksOf = (g: Graph, url: string): { doc: ResourceNode; chunks: DownloadChunkNode[] } => {
  const doc = g.nodes.find((n): n is ResourceNode => n.kind === 'resource' && n.url === url)!;
  const chunks = g.nodes.filter((n): n is DownloadChunkNode => n.kind === 'download_chunk' && n.resource === doc.id).sort((a, b) => a.index - b.index);
  return { doc, chunks };
};
const near = (a: number, b: number, what: string): void => assert.ok(Math.abs(a - b) < 0.01, `${what}: ${a} against ${b}`);

// The synthesized login.microsoftonline.com as Chromium loaded it from the replay: the trace's
// ResourceReceivedData for the main document, ms after its ResourceSendRequest (the graph's 0):
// 1,787 bytes at 3.844, 511 at 21.209, 1,002 at 36.738, 210 at 45.264, 348 at 64.879, 299 at 84.479,
// 601 at 170.074, 33,977 at 228.192 (38,735 in all); ResourceFinish at 235.347.
const MSO = `${FIXTURES}synth-microsoftonline`;
const MSO_URL = 'https://login.microsoftonline.com/';

test('a trace document\'s download chunks span their bytes\' arrival (ResourceReceivedData), as a legacy log\'s do', () => {
  const { doc, chunks } = chunksOf(buildFromTrace(MSO).graph, MSO_URL);
  near(doc.end, 235.347, 'document end');
  assert.ok(chunks.every((d) => d.extra?.chunkTimes === 'received'));
  // Chunk 0 is bytes 0-1,802: its first came in the first piece, its last (byte 1,803) in the second.
  assert.deepEqual([chunks[0]!.offset, chunks[0]!.size], [0, 1803]);
  near(chunks[0]!.start, 3.844, 'chunk 0 start');
  near(chunks[0]!.end, 21.209, 'chunk 0 end');
  // Bytes 2,298-3,299 are the third piece, whole.
  assert.deepEqual([chunks[2]!.offset, chunks[2]!.size], [2298, 1002]);
  near(chunks[2]!.start, 36.738, 'chunk 2 start');
  near(chunks[2]!.end, 36.738, 'chunk 2 end');
  // The last chunks' bytes came in the 33,977-byte last piece, 7 ms before the document's end: no chunk
  // lasts from the request on (as the byte-share interpolation had them: chunk 0 from 0 to 11.0 ms).
  const last = chunks.at(-1)!;
  near(last.end, 228.192, 'last chunk end');
  for (const d of chunks) assert.ok(d.start <= d.end && d.end <= doc.end && d.start >= 3.844, d.id);
});

test('--chunk-times interpolated keeps the byte share of the document\'s span; the structure does not depend on the timing', () => {
  const received = buildFromTrace(MSO).graph;
  const interpolated = buildFromTrace(MSO, { chunkTimes: 'interpolated' }).graph;
  assert.deepEqual(interpolated.edges, received.edges);
  assert.deepEqual(interpolated.nodes.map((n) => n.id), received.nodes.map((n) => n.id));
  const { doc, chunks } = chunksOf(interpolated, MSO_URL);
  for (const d of chunks) {
    assert.equal(d.extra?.chunkTimes, 'interpolated');
    near(d.start, doc.start + ((doc.end - doc.start) * d.offset) / doc.size, `${d.id} start`);
  }
  near(chunks[0]!.end, (235.347 * 1803) / 38735, 'chunk 0 interpolated end');
});

test('a document that came in one piece: every chunk at that piece', () => {
  // r04-sync-script-blocks: its 214 bytes in one ResourceReceivedData, 8.7 ms after the request.
  const { doc, chunks } = chunksOf(buildFromTrace(`${FIXTURES}r04-sync-script-blocks`).graph, 'http://a.pcp.test:32835/r04-sync-script-blocks/index.html');
  assert.equal(doc.size, 214);
  assert.equal(doc.arrivals, undefined); // one piece: the resource node keeps no arrivals
  assert.equal(chunks.length, 3);
  const at = chunks[0]!.start;
  near(at, 8.655, 'the piece');
  for (const d of chunks) assert.deepEqual([d.start, d.end, d.extra?.chunkTimes], [at, at, 'received'], d.id);
});

test("the navigation's load event start (loadEventStart) is before MarkLoad by the window's load handlers, where its marker starts", () => {
  // The same trace: loadEventStart at 51,227,321.383 ms, the window's load EventDispatch 51,227,321.393 for
  // 1.768 ms, loadEventEnd 51,227,323.163, MarkLoad 51,227,323.207 (µs on the trace clock / 1000).
  const g = buildFromTrace(MSO).graph;
  const nav = g.navigation!;
  near(nav.load! - nav.loadEventStart!, 1.824, 'MarkLoad after loadEventStart');
  // The marker is the window's load handler, which the trace starts a few µs into the dispatch.
  const marker = g.nodes.find((n) => n.id === g.markers!.load)!;
  assert.ok(marker.start >= nav.loadEventStart! && marker.start - nav.loadEventStart! < 0.1, `the window load marker at ${marker.start}, loadEventStart ${nav.loadEventStart}`);
});
