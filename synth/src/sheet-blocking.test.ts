import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ParseChunkNode, ResourceNode } from '@pcp/graph-builder';
import { sheetHeldNoScript } from './sheet-blocking.ts';
import { indexGraph } from './graph-index.ts';
import { graphOf, res, type NodeSpec } from './testing.ts';

const PAGE = 'http://www.pcp.test/';

/**
 * www.icicibank.com's head: chunk p0 declares `main.css` and `print.css`, chunk p1 `modernizr.js`.
 * main.css is evaluated at 170 ms and holds modernizr (an edge to it, which runs at 200 ms);
 * print.css arrives late: evaluated at `printAt` ms, drawn to `printTo` when given.
 */
function head(printAt: number, printTo?: { id: string; node?: NodeSpec }) {
  const nodes: NodeSpec[] = [
    res('doc', PAGE, 'text/html', 3000, { start: 0, end: 10 }),
    { id: 'p0', kind: 'parse_chunk', docUrl: PAGE, startLine: 1, startColumn: 16, endLine: 2, endColumn: 1, start: 11, end: 12 },
    { id: 'p1', kind: 'parse_chunk', docUrl: PAGE, startLine: 2, startColumn: 1, endLine: 3, endColumn: 1, start: 12, end: 13 },
    res('main', 'http://www.pcp.test/main.css', 'text/css', 900, { start: 12, end: 160 }),
    { id: 'mainEval', kind: 'css_eval', styleUrl: 'http://www.pcp.test/main.css', start: 170, end: 190 },
    res('print', 'http://www.pcp.test/print.css', 'text/css', 200, { start: 12, end: printAt - 1 }),
    { id: 'printEval', kind: 'css_eval', styleUrl: 'http://www.pcp.test/print.css', start: printAt, end: printAt + 9 },
    res('js', 'http://www.pcp.test/modernizr.js', 'application/javascript', 5000, { start: 13, end: 100 }),
    { id: 's', kind: 'script_eval', scriptUrl: 'http://www.pcp.test/modernizr.js', scriptKind: 'sync', start: 200, end: 228 },
    ...(printTo?.node ? [printTo.node] : []),
  ];
  const edges: [string, string, number | string][] = [['doc', 'p0', 'resource-chunk'], ['p0', 'p1', 3], ['p0', 'main', 1], ['p0', 'print', 1], ['p1', 'js', 1],
    ['main', 'mainEval', 18], ['print', 'printEval', 18], ['js', 's', 10], ['mainEval', 's', 'legacy'], ...(printTo ? [['printEval', printTo.id, 11] as [string, string, number]] : [])];
  const ix = indexGraph(graphOf(PAGE, nodes, edges));
  return (id: string) => sheetHeldNoScript(ix, ix.byId.get(id) as ResourceNode, ix.byId.get('p0') as ParseChunkNode);
}

test('a sheet evaluated after the next parser-blocking script began, drawn to no script, held none (icicibank print.css)', () => {
  assert.equal(head(1200)('print'), true);
});

test('a sheet the next script waited for (its edge to it) held it', () => {
  assert.equal(head(1200)('main'), false);
  assert.equal(head(190, { id: 's' })('print'), false);
});

test('a sheet evaluated before the next script began is taken as holding it (no evidence otherwise)', () => {
  assert.equal(head(150)('print'), false);
});

test('a late sheet whose rules request a resource is left blocking (a non-matching medium would not fetch it)', () => {
  assert.equal(head(1200, { id: 'bg', node: res('bg', 'http://www.pcp.test/bg.png', 'image/png', 100, { start: 1300, end: 1400 }) })('print'), false);
});
