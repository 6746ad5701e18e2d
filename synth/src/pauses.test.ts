import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { DownloadChunkNode, ResourceNode } from '@pcp/graph-builder';
import { busySpans, idleWithin, unrecordedPauses } from './pauses.ts';
import { chunkArrival, documentPace } from './document-pace.ts';
import { indexGraph } from './graph-index.ts';
import { graphOf, res, type NodeSpec } from './testing.ts';

const PAGE = 'http://www.pcp.test/';

/**
 * flickr's shape: a document 0-300 ms in three download chunks (ending 100, 200, 250 ms); parse chunk p0 at 100,
 * p1 at 200-210 declaring an inline script `s1` that ran at `scriptAt` (5 ms), p2 after it (`p2At`, 2 ms);
 * `more`: other work of the page.
 */
function page(scriptAt: number, p2At: number, more: NodeSpec[] = [], p2Line = 5) {
  const nodes: NodeSpec[] = [
    res('doc', PAGE, 'text/html', 3000, { start: 0, end: 300 }),
    { id: 'd0', kind: 'download_chunk', resource: 'doc', index: 0, offset: 0, size: 1000, start: 0, end: 100 },
    { id: 'd1', kind: 'download_chunk', resource: 'doc', index: 1, offset: 1000, size: 1000, start: 100, end: 200 },
    { id: 'd2', kind: 'download_chunk', resource: 'doc', index: 2, offset: 2000, size: 1000, start: 200, end: 250 },
    { id: 'p0', kind: 'parse_chunk', docUrl: PAGE, startLine: 1, startColumn: 16, endLine: 2, endColumn: 1, start: 100, end: 110 },
    { id: 'p1', kind: 'parse_chunk', docUrl: PAGE, startLine: 3, startColumn: 1, endLine: 4, endColumn: 1, start: 200, end: 210 },
    { id: 's1', kind: 'script_eval', scriptUrl: PAGE, scriptKind: 'inline', start: scriptAt, end: scriptAt + 5 },
    { id: 'p2', kind: 'parse_chunk', docUrl: PAGE, startLine: p2Line, startColumn: 1, endLine: p2Line + 1, endColumn: 1, start: p2At, end: p2At + 2 },
    ...more,
  ];
  const ix = indexGraph(graphOf(PAGE, nodes, [['doc', 'd0', 'resource-chunk'], ['d0', 'd1', 9], ['d1', 'd2', 9], ['d0', 'p0', 3], ['d1', 'p1', 3], ['d2', 'p2', 3],
    ['p0', 'p1', 3], ['p1', 's1', 12], ['s1', 'p2', 4], ['p1', 'p2', 3]]));
  const doc = ix.byId.get('doc') as ResourceNode;
  const chunk = (id: string) => ix.byId.get(id) as DownloadChunkNode;
  return { ix, doc, chunk, pauses: unrecordedPauses(ix, doc, (d) => d.end) };
}

test('idleWithin: the part of a window no busy span covers', () => {
  assert.equal(idleWithin([], 100, 400), 300);
  // 150-200 and 180-250 overlap: busy 150-250 of 100-400, idle 50 + 150.
  assert.equal(idleWithin([[150, 200], [180, 250]], 100, 400), 200);
  // Spans outside the window count for nothing, one across its start cuts it.
  assert.equal(idleWithin([[0, 50], [90, 120], [500, 600]], 100, 400), 280);
  assert.equal(idleWithin([[0, 500]], 100, 400), 0);
});

test('busySpans: computations and parse chunks that last, by start', () => {
  const { ix } = page(500, 505);
  // p0 100-110, p1 200-210, s1 500-505, p2 505-507; resources and download chunks are not the renderer's work.
  assert.deepEqual(busySpans(ix.graph.nodes), [[100, 110], [200, 210], [500, 505], [505, 507]]);
});

test("an inline script that ran long after its chunk, nothing running: its chunk's bytes, and the later ones, wait for it", () => {
  // p1 ended at 210 with its bytes there since 200; s1 ran at 500: 290 ms idle. d1 brings p1's bytes: held to 500,
  // d2 (250) comes after it, so at 500 too. p2 waited for s1 (rule 4): no pause of its own.
  const { pauses, ix, doc, chunk } = page(500, 505);
  assert.deepEqual([...pauses], [['d1', 500], ['d2', 500]]);
  assert.equal(chunkArrival(ix, doc, chunk('d0')), 100);
  assert.equal(chunkArrival(ix, doc, chunk('d1')), 500);
  // The site sends them so: 20 ms of headers, bytes up to each chunk's tags.
  assert.deepEqual(documentPace(ix, doc, [900, 1900], 3000, 20), [[80, 900], [480, 1000], [480, 1100]]);
});

test('a parse chunk that began long after all it waited for: its bytes wait for its start', () => {
  // s1 ran at 215 (5 ms after p1: no pause); p2 began at 700, s1 ended at 220 and its bytes came at 250: 480 ms idle.
  const { pauses } = page(215, 700);
  assert.deepEqual([...pauses], [['d2', 700]]);
});

test('short waits, waits the renderer spent working, and documents parsed out of order are no pauses', () => {
  // 89 ms idle (210 -> 299): under PAUSE_MIN_MS.
  assert.deepEqual([...page(299, 304).pauses], []);
  // A timer of another frame ran 250-450 in the 290 ms wait: 90 ms idle.
  const timer: NodeSpec = { id: 't', kind: 'timer', timerId: '1', timerDelay: 0, frame: 'other', start: 250, end: 450 };
  assert.deepEqual([...page(500, 505, [timer]).pauses], []);
  // p2 sits before p1 in the text but was parsed after it (a second parse, xfinity's): left alone.
  assert.deepEqual([...page(500, 505, [], 2).pauses], []);
  // The first chunk's wait for its bytes is the navigation's commit: p0 began at 180 with d0's bytes there at 50
  // (130 ms, nothing running), no pause.
  const late = page(215, 220);
  Object.assign(late.ix.byId.get('p0')!, { start: 180, end: 185 });
  assert.deepEqual([...unrecordedPauses(late.ix, late.doc, (d) => (d.id === 'd0' ? 50 : d.end))], []);
  // Bytes whose time the graph does not know (interpolated): nothing to measure the wait from.
  const made = page(215, 700);
  assert.deepEqual([...unrecordedPauses(made.ix, made.doc, (d) => (d.id === 'd2' ? undefined : d.end))], []);
  // A lower threshold takes the 89 ms wait.
  const short = page(299, 304);
  assert.deepEqual([...unrecordedPauses(short.ix, short.doc, (d) => d.end, 50)], [['d1', 299], ['d2', 299]]);
});

test('only the page document is held: the paced body of a graph without pauses is unchanged', () => {
  const { ix, doc } = page(215, 220);
  assert.deepEqual(documentPace(ix, doc, [900, 1900], 3000, 20), [[80, 900], [180, 1000], [230, 1100]]);
});
