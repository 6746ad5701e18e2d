import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { DownloadChunkNode, Edge, GraphNode, ParseChunkNode, ResourceNode } from './format/types.ts';
import type { ResourceActivity } from './model/types.ts';
import { buildFromLegacyLog } from './build.ts';
import { legacyRawEvidence } from './format/legacy-raw.ts';
import { readLegacyLogFile } from './adapters/legacy-log/file.ts';
import { linesOf } from './adapters/legacy-log/reader.ts';
import { timeDownloadChunks } from './chunk-times.ts';

const resource = (id: string, start: number, end: number, size: number): ResourceNode => ({
  id, kind: 'resource', frame: '0', start, end, url: `http://a.test/${id}`, mimeType: 'text/html', size, method: 'GET', status: 200, cached: false,
  priority: { mimeType: 0, criticalPath: 0 }, onCriticalPath: false,
});
const dchunk = (r: string, index: number, offset: number, size: number): DownloadChunkNode => ({ id: `d_${r}_${index}`, kind: 'download_chunk', frame: '0', start: -1, end: -1, resource: r, index, offset, size });
const pchunk = (r: string, index: number, start: number): ParseChunkNode => ({
  id: `p_${r}_${index}`, kind: 'parse_chunk', frame: '0', start, end: start + 1, docUrl: `http://a.test/${r}`, startLine: 1, startColumn: 0, endLine: 1, endColumn: 0, isFragment: false,
});
const activity = (id: string, arrivals: { time: number; bytes: number }[]): ResourceActivity => ({
  id, url: `http://a.test/${id}`, frame: '0', start: 0, end: 1000, mimeType: 'text/html', size: 1000, method: 'GET', status: 200, cached: false, issuedBy: { kind: 'none' }, arrivals,
});

/** Document `a` (1,000 bytes, pieces at 600 and 900 ms) and `b` (no pieces logged), two chunks each, parsed at 650/950 and 300/700 ms. */
function page(): { nodes: GraphNode[]; edges: Edge[]; acts: ResourceActivity[] } {
  const nodes: GraphNode[] = [resource('a', 0, 1000, 1000), dchunk('a', 0, 0, 400), dchunk('a', 1, 400, 600), pchunk('a', 0, 650), pchunk('a', 1, 950),
    resource('b', 0, 1000, 1000), dchunk('b', 0, 0, 500), dchunk('b', 1, 500, 500), pchunk('b', 0, 300), pchunk('b', 1, 700)];
  const edges: Edge[] = ['a', 'b'].flatMap((r) => [0, 1].map((i) => ({ from: `d_${r}_${i}`, to: `p_${r}_${i}`, rule: 3 as const })));
  return { nodes, edges, acts: [activity('a', [{ time: 600, bytes: 500 }, { time: 900, bytes: 500 }]), activity('b', [])] };
}
const spans = (nodes: GraphNode[]) => nodes.filter((n) => n.kind === 'download_chunk').map((d) => [d.id, d.start, d.end, d.extra?.chunkTimes]);

test('received: a chunk spans its bytes\' arrival; a document without logged pieces by its parser (chunk n ends when parse chunk n began)', () => {
  const { nodes, edges, acts } = page();
  timeDownloadChunks(nodes, edges, acts, 'received');
  assert.deepEqual(spans(nodes), [['d_a_0', 600, 600, 'received'], ['d_a_1', 600, 900, 'received'], ['d_b_0', 0, 300, 'parser'], ['d_b_1', 300, 700, 'parser']]);
});

test('parser and interpolated timings, on request; each chunk says which', () => {
  const p = page();
  timeDownloadChunks(p.nodes, p.edges, p.acts, 'parser');
  assert.deepEqual(spans(p.nodes).slice(0, 2), [['d_a_0', 0, 650, 'parser'], ['d_a_1', 650, 950, 'parser']]);
  const q = page();
  timeDownloadChunks(q.nodes, q.edges, q.acts, 'interpolated');
  assert.deepEqual(spans(q.nodes), [['d_a_0', 0, 400, 'interpolated'], ['d_a_1', 400, 1000, 'interpolated'], ['d_b_0', 0, 500, 'interpolated'], ['d_b_1', 500, 1000, 'interpolated']]);
  assert.ok(q.nodes.every((n) => n.kind !== 'download_chunk' || n.extra?.interpolatedTimes === true));
});

const FRIV = new URL('../test/fixtures/friv.log.gz', import.meta.url).pathname;
const friv = readLegacyLogFile(FRIV).text;

test("friv.com (2016): pcp build times its documents' chunks by the log's ReceivedChunk pieces by default, by byte offset on request; same structure", () => {
  const byDefault = buildFromLegacyLog(friv).graph;
  const interpolated = buildFromLegacyLog(friv, { chunkTimes: 'interpolated' }).graph;
  assert.deepEqual(interpolated.edges, byDefault.edges);
  assert.deepEqual(interpolated.nodes.map((n) => n.id), byDefault.nodes.map((n) => n.id));
  // The pieces as logged, read apart from the builder: the three documents each came in one piece.
  const pieces = legacyRawEvidence(linesOf(friv)).fetches;
  const chunks = byDefault.nodes.filter((n): n is DownloadChunkNode => n.kind === 'download_chunk');
  assert.equal(chunks.length, 9);
  for (const d of chunks) {
    const r = byDefault.nodes.find((n): n is ResourceNode => n.id === d.resource && n.kind === 'resource')!;
    const arrivals = pieces.get(r.url)![0]!.arrivals.map((a) => a.at);
    assert.equal(d.extra?.chunkTimes, 'received', d.id);
    assert.ok(arrivals.some((t) => Math.abs(t - d.end) < 1e-6) || d.end === r.end, `${d.id} ends at ${d.end}, when no piece came (${arrivals})`);
    assert.ok(d.start <= d.end && d.end <= r.end, d.id);
    const i = interpolated.nodes.find((n) => n.id === d.id)!;
    const share = (b: number) => r.start + ((r.end - r.start) * Math.min(b, r.size)) / r.size;
    assert.deepEqual([i.start, i.end, i.extra?.chunkTimes], [share(d.offset), share(d.offset + d.size), 'interpolated'], d.id);
  }
  // The main document's 2,020 bytes came at once at 615.6 ms: its first chunk no longer counts 330 ms of the
  // download the path already counts on the document itself.
  const first = (g: typeof byDefault) => g.nodes.find((n) => n.id === 'dchunk_0_0')!;
  assert.ok(first(byDefault).end - first(byDefault).start < 1);
  assert.ok(first(interpolated).end - first(interpolated).start > 300);
  assert.ok(byDefault.criticalPath!.length < interpolated.criticalPath!.length);
});
