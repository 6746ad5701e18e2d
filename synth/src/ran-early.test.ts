import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ResourceNode } from '@pcp/graph-builder';
import { indexGraph } from './graph-index.ts';
import { asFetched, endBy, ranBeforeEnd } from './ran-early.ts';
import { graphOf, res } from './testing.ts';

const PAGE = 'http://www.pcp.test/';
const LIB = 'http://cdn.pcp.test/global.js';

/**
 * The parser reaches `global.js` at 5,240 ms; the source drew it 5,240-10,073 ms (the preloaded fetch's
 * duration after the memory-cache access, as the 2016 builder did), its evaluation at `ranAt`.
 */
function page(ranAt: number) {
  return graphOf(PAGE, [
    res('doc', PAGE, 'text/html', 3000, { start: 0, end: 50 }),
    { id: 'p0', kind: 'parse_chunk', docUrl: PAGE, startLine: 1, startColumn: 16, endLine: 2, endColumn: 1, start: 5230, end: 5240 },
    res('lib', LIB, 'text/javascript', 83597, { start: 5240, end: 10073 }),
    { id: 's', kind: 'script_eval', scriptUrl: LIB, scriptKind: 'sync', start: ranAt, end: ranAt + 4 },
  ], [['doc', 'p0', 'resource-chunk'], ['p0', 'lib', 1], ['lib', 's', 10]]);
}
const lib = (g: ReturnType<typeof page>): ResourceNode => g.nodes.find((n) => n.id === 'lib') as ResourceNode;

test('a download run over 20 ms before its recorded end ran early; one run after its end, or within 20 ms of it, did not', () => {
  const early = page(5241);
  assert.equal(ranBeforeEnd(indexGraph(early), lib(early)), 5241);
  const late = page(10074);
  assert.equal(ranBeforeEnd(indexGraph(late), lib(late)), undefined);
  const near = page(10060); // the record's own jitter
  assert.equal(ranBeforeEnd(indexGraph(near), lib(near)), undefined);
  const noEval = page(5241);
  noEval.edges = noEval.edges.filter((e) => e.to !== 's');
  assert.equal(ranBeforeEnd(indexGraph(noEval), lib(noEval)), undefined);
});

test('for the connection queue it was fetched over its recorded 4,833 ms ending when it ran: 408-5,241', () => {
  const early = page(5241);
  const f = asFetched(indexGraph(early), lib(early));
  assert.deepEqual([f.start, f.end], [408, 5241]);
  const late = page(10074);
  assert.equal(asFetched(indexGraph(late), lib(late)), lib(late));
});

test('it ends by its request on the page\'s clock plus its span: fetched 408 and lasting 4,833 ms, by 5,241; none for one that did not run early', () => {
  const early = page(5241);
  assert.equal(endBy(indexGraph(early), lib(early)), 5241);
  assert.equal(endBy(indexGraph(early), lib(early), 10), 5231, 'on a page clock that starts with the document\'s request at 10 ms');
  const late = page(10074);
  assert.equal(endBy(indexGraph(late), lib(late)), undefined);
});

test('a tag whose bytes came before the 2016 fetch is asked for then (the preload scanner): youdao\'s jquery by 807 + 388', () => {
  // www.youdao.com: the document's bytes all came at 807 ms (one download chunk, timed by arrival), the 2016 parser
  // began at 1,165 and reached the script's tag at 1,630; it ran at 1,658, its span 388 ms (1,630-2,018 as drawn,
  // fetched 1,270-1,658). The replay's preload scanner asks for it as the bytes arrive: by 807 + 388 = 1,195.
  const JQ = 'http://shared.ydstatic.com/js/jquery/jquery-1.12.3.min.js';
  const g = graphOf(PAGE, [
    res('doc', PAGE, 'text/html', 3000, { start: 0, end: 1270 }),
    { id: 'd0', kind: 'download_chunk', resource: 'doc', index: 0, offset: 0, size: 3000, start: 807, end: 807, extra: { chunkTimes: 'received' } },
    { id: 'p0', kind: 'parse_chunk', docUrl: PAGE, startLine: 1, startColumn: 16, endLine: 2, endColumn: 1, start: 1630, end: 1630.3 },
    res('jq', JQ, 'text/javascript', 97870, { start: 1630, end: 2018 }),
    { id: 's', kind: 'script_eval', scriptUrl: JQ, scriptKind: 'sync', start: 1658, end: 1721 },
  ], [['doc', 'd0', 'resource-chunk'], ['d0', 'p0', 3], ['p0', 'jq', 1], ['jq', 's', 10]]);
  const ix = indexGraph(g);
  assert.deepEqual([asFetched(ix, ix.byId.get('jq') as ResourceNode).start], [1270]);
  assert.equal(endBy(ix, ix.byId.get('jq') as ResourceNode), 1195);
});
