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

test('a trace document\'s download chunks span their bytes\' arrival (ResourceReceivedData), from the chunk before\'s last byte, as a legacy log\'s do', () => {
  const { doc, chunks } = chunksOf(buildFromTrace(MSO).graph, MSO_URL);
  near(doc.end, 235.347, 'document end');
  assert.ok(chunks.every((d) => d.extra?.chunkTimes === 'received'));
  // Chunk 0 is bytes 0-64, up to the inline script at line 22 column 14 it ends with, all in the first piece. The
  // script ran at 10.3 ms inside the first parse slice; the slice after it (21.5 ms, after the second piece) names
  // line 22 too and begins past the script (resumeColumn), so chunk 1 holds the bytes from there to its own
  // script (line 25), the last of them in the second piece: parse chunk 1 starts after its download chunk ends.
  // (Session 16 had chunk 0 as bytes 0-1,802 ending at 21.209, after parse chunk 0 had run: the slice's start
  // was put at column 0 of line 22, before the script, and took the arrivals' offset.)
  assert.deepEqual([chunks[0]!.offset, chunks[0]!.size], [0, 65]);
  near(chunks[0]!.start, 3.844, 'chunk 0 start');
  near(chunks[0]!.end, 3.844, 'chunk 0 end');
  assert.deepEqual([chunks[1]!.offset, chunks[1]!.size], [65, 2233]);
  const parse1 = buildFromTrace(MSO).graph.nodes.find((n) => n.id === 'pchunk_0_1')!;
  assert.ok(parse1.start >= chunks[1]!.end, `parse chunk 1 at ${parse1.start} after its bytes at ${chunks[1]!.end}`);
  // Bytes 2,298-3,299 are the third piece, whole: chunk 2 waited for it from where chunk 1's last byte came
  // (byte 2,298, the second piece at 21.209: rule 9, a chunk's download follows the one before it).
  assert.deepEqual([chunks[2]!.offset, chunks[2]!.size], [2298, 1002]);
  near(chunks[1]!.end, 21.209, 'chunk 1 end');
  near(chunks[2]!.start, 21.209, 'chunk 2 start');
  near(chunks[2]!.end, 36.738, 'chunk 2 end');
  // The chunks tile the body's arrival: each starts where the one before ended.
  for (let i = 1; i < chunks.length; i++) near(chunks[i]!.start, chunks[i - 1]!.end, `${chunks[i]!.id} start`);
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
  near(chunks[0]!.end, (235.347 * 65) / 38735, 'chunk 0 interpolated end');
});

test('r03-parse-chunks (the ground-truth page of rule 9, served in 256-byte pieces 150 ms apart): its chunks tile the body\'s arrival, a chunk whose bytes came in one piece holding the wait for it', () => {
  // As Chromium recorded it (session 16, fidelity:rules --keep): 822 bytes in four ResourceReceivedData, 256 at
  // 2.068 ms, 256 at 82.985, 256 at 285.740, 54 at 436.497; four download chunks (bytes 0-511, 512-767, 768-821,
  // and an empty one at the end).
  const { doc, chunks } = chunksOf(buildFromTrace(`${FIXTURES}r03-parse-chunks`).graph, 'http://a.pcp.test:46605/r03-parse-chunks/index.html');
  assert.deepEqual(doc.arrivals?.map((a) => a.bytes), [256, 256, 256, 54]);
  assert.deepEqual(chunks.map((d) => [d.offset, d.size]), [[0, 512], [512, 256], [768, 54], [822, 0]]);
  // Chunk 0 from its first byte (the first piece) to its last (the second); chunks 1 and 2 each came whole
  // in one piece, the third and the fourth, and span from the piece before it: each waited 150 ms for its bytes,
  // where spanning only their own bytes they lasted 0 and the chain lost the wait.
  const expected = [[2.068, 82.985], [82.985, 285.74], [285.74, 436.497], [436.497, 436.497]];
  chunks.forEach((d, i) => {
    near(d.start, expected[i]![0]!, `${d.id} start`);
    near(d.end, expected[i]![1]!, `${d.id} end`);
    assert.equal(d.extra?.chunkTimes, 'received');
  });
  near(chunks.at(-1)!.end - chunks[0]!.start, doc.arrivals!.at(-1)!.at - doc.arrivals![0]!.at, 'the chain spans the body\'s arrival');
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
