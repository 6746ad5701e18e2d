import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ResourceNode } from '@pcp/graph-builder';
import { indexGraph } from './graph-index.ts';
import { asFetched, ranBeforeEnd } from './ran-early.ts';
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
