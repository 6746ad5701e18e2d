import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ResourceNode } from '@pcp/graph-builder';
import { repeatBeforeItsRequest } from './early-repeats.ts';
import { indexGraph } from './graph-index.ts';
import { graphOf, res, type NodeSpec } from './testing.ts';

const PAGE = 'http://www.pcp.test/';
const GIF = 'http://www.pcp.test/divider.gif';

/** icicibank's shape: the parser's chunk p0 uses the gif at `repeatAt` ms (cached, zero-length); DOMContentLoaded (at 320 ms) requests it, 320-860 ms. */
function page(repeatAt: number, withLoad = false) {
  const nodes: NodeSpec[] = [
    res('doc', PAGE, 'text/html', 3000, { start: 0, end: 10 }),
    { id: 'p0', kind: 'parse_chunk', docUrl: PAGE, startLine: 1, startColumn: 16, endLine: 2, endColumn: 1, start: 11, end: 12 },
    res('rep', GIF, 'image/gif', 1105, { cached: true, status: 0, start: repeatAt, end: repeatAt }),
    res('gif', GIF, 'image/gif', 1105, { start: 320, end: 860 }),
    ...(withLoad ? [{ id: 'ld', kind: 'event', eventName: 'load', eventTarget: 'Element', start: 870, end: 871 } as NodeSpec] : []),
  ];
  const ix = indexGraph(graphOf(PAGE, nodes, [['doc', 'p0', 'resource-chunk'], ['p0', 'rep', 1], ['dcl', 'gif', 2], ...(withLoad ? [['rep', 'ld', 'event:img.load'] as [string, string, string]] : [])]));
  return (id: string) => repeatBeforeItsRequest(ix, ix.byId.get(id) as ResourceNode);
}

test('a parser repeat recorded before the request it used gets no tag (icicibank divider.gif)', () => {
  assert.equal(page(12)('rep'), true);
});

test('a repeat after its request, the request itself, and a repeat with its element load keep their tags', () => {
  assert.equal(page(900)('rep'), false);
  assert.equal(page(12)('gif'), false);
  assert.equal(page(12, true)('rep'), false);
});
