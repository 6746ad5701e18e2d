import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { DownloadChunkNode, ResourceNode } from '@pcp/graph-builder';
import { chunkArrival, documentPace, throughSpace } from './document-pace.ts';
import { indexGraph } from './graph-index.ts';
import { graphOf, res, type NodeSpec } from './testing.ts';

const PAGE = 'http://www.pcp.test/';

/** A document 0-1000 ms whose two download chunks feed parse chunks that began at `parsedAt`. */
function page(parsedAt: [number, number], interpolated: boolean) {
  const extra = interpolated ? { interpolatedTimes: true } : undefined;
  const nodes: NodeSpec[] = [
    res('doc', PAGE, 'text/html', 3000, { start: 0, end: 1000 }),
    { id: 'd0', kind: 'download_chunk', resource: 'doc', index: 0, offset: 0, size: 1000, start: 0, end: 300, extra },
    { id: 'd1', kind: 'download_chunk', resource: 'doc', index: 1, offset: 1000, size: 2000, start: 300, end: 900, extra },
    { id: 'p0', kind: 'parse_chunk', docUrl: PAGE, startLine: 1, startColumn: 16, endLine: 2, endColumn: 1, start: parsedAt[0], end: parsedAt[0] + 1 },
    { id: 'p1', kind: 'parse_chunk', docUrl: PAGE, startLine: 3, startColumn: 1, endLine: 4, endColumn: 1, start: parsedAt[1], end: parsedAt[1] + 1 },
  ];
  const ix = indexGraph(graphOf(PAGE, nodes, [['doc', 'd0', 'resource-chunk'], ['d0', 'd1', 9], ['d0', 'p0', 3], ['d1', 'p1', 3], ['p0', 'p1', 3]]));
  return { ix, doc: ix.byId.get('doc') as ResourceNode };
}

test('recorded chunk times are kept: each chunk at its end, bringing its parse chunk, the rest with the last', () => {
  const { ix, doc } = page([950, 980], false);
  assert.deepEqual(documentPace(ix, doc, [100, 2500], 3000, 20), [[280, 100], [880, 2900]]);
});

test('interpolated chunk times (legacy layout): the bytes come when the source parser began their chunk', () => {
  // The importer spread the chunks over 0-900 ms; the 2016 parser began them at 950 and 980 ms.
  const { ix, doc } = page([950, 980], true);
  assert.deepEqual(documentPace(ix, doc, [100, 2500], 3000, 20), [[930, 100], [960, 2900]]);
  // The 30 bytes before the first tag open the response at the first chunk's interpolated end (300 ms).
  assert.deepEqual(documentPace(ix, doc, [100, 2500], 3000, 20, 30), [[280, 30], [930, 70], [960, 2900]]);
});

test('interpolated: no later than the document end, never before the chunk before', () => {
  // A parser blocked on a script until after the last byte: that chunk's bytes had arrived by the end.
  const blocked = page([400, 1600], true);
  assert.equal(chunkArrival(blocked.ix, blocked.doc, blocked.ix.byId.get('d1') as DownloadChunkNode), 1000);
  assert.deepEqual(documentPace(blocked.ix, blocked.doc, [100, 2500], 3000, 0), [[400, 100], [1000, 2900]]);
  const reordered = page([700, 500], true);
  assert.deepEqual(documentPace(reordered.ix, reordered.doc, [100, 2500], 3000, 0)!.map(([t]) => t), [700, 700]);
});

test("each chunk's end goes past the whitespace after it, to the next chunk's first tag: the padding is the chunk before's bytes", () => {
  // kickstarter's shape: the chunk ending with base.css's <link>, then padding, then an inline script's chunk.
  const html = '<!DOCTYPE html>\n<link href="/base.css">\n\n   \t\r\n<script>B(1)</script>\f\n<img src="/a.png"> tail';
  const body = Buffer.from(html);
  const ends = [html.indexOf('>', 20) + 1, html.indexOf('</script>') + 9, html.indexOf('.png">') + 6];
  assert.deepEqual(throughSpace(body, ends), [html.indexOf('<script>'), html.indexOf('<img'), html.indexOf('tail')]);
  // Nothing to skip (a tag right after, or the body's end): the end stays.
  assert.deepEqual(throughSpace(Buffer.from('<p><b>'), [3, 6]), [3, 6]);
  // UTF-8: offsets are bytes ('é' is two), as document.ts counts them.
  const utf = Buffer.from('<title>é</title>  <p>');
  assert.deepEqual(throughSpace(utf, [17]), [19]);
});
