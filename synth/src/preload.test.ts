import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ResourceNode } from '@pcp/graph-builder';
import { asRequested, tagArrival } from './preload.ts';
import { indexGraph } from './graph-index.ts';
import { graphOf, res, type NodeSpec } from './testing.ts';

const PAGE = 'http://www.pcp.test/';

/** A document 0-1000 ms; its second chunk (parsed at 1500 ms, after a sync script) declares a script drawn at 1500 ms and an iframe. */
function page(interpolated: boolean) {
  const extra = interpolated ? { interpolatedTimes: true } : undefined;
  const nodes: NodeSpec[] = [
    res('doc', PAGE, 'text/html', 3000, { start: 0, end: 1000 }),
    { id: 'd0', kind: 'download_chunk', resource: 'doc', index: 0, offset: 0, size: 1000, start: 0, end: 300, extra },
    { id: 'd1', kind: 'download_chunk', resource: 'doc', index: 1, offset: 1000, size: 2000, start: 300, end: 1000, extra },
    { id: 'p0', kind: 'parse_chunk', docUrl: PAGE, startLine: 1, startColumn: 16, endLine: 2, endColumn: 1, start: 900, end: 901 },
    { id: 'p1', kind: 'parse_chunk', docUrl: PAGE, startLine: 3, startColumn: 1, endLine: 4, endColumn: 1, start: 1500, end: 1501 },
    res('js', 'http://www.pcp.test/b.js', 'application/javascript', 100, { start: 1500, end: 1800 }),
    res('frame', 'http://ads.pcp.test/f.html', 'text/html', 100, { start: 1500, end: 1600 }),
  ];
  const ix = indexGraph(graphOf(PAGE, nodes, [['doc', 'd0', 'resource-chunk'], ['d0', 'd1', 9], ['d0', 'p0', 3], ['d1', 'p1', 3], ['p0', 'p1', 3], ['p1', 'js', 1], ['p1', 'frame', 1]]));
  return { ix, r: (id: string) => ix.byId.get(id) as ResourceNode };
}

test('a tag of a legacy-layout document is requested when its bytes arrive (the preload scanner), its span kept', () => {
  const { ix, r } = page(true);
  assert.equal(tagArrival(ix, r('js')), 1000); // parsed at 1500, every byte in by the document's end
  assert.deepEqual([asRequested(ix, r('js')).start, asRequested(ix, r('js')).end], [1000, 1300]);
});

test('iframes are not preloaded; trace graphs keep their request times', () => {
  assert.equal(asRequested(page(true).ix, page(true).r('frame')).start, 1500);
  const trace = page(false);
  assert.equal(tagArrival(trace.ix, trace.r('js')), undefined);
  assert.equal(asRequested(trace.ix, trace.r('js')), trace.r('js'));
});
