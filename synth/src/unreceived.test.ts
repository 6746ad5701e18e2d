import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ResourceNode } from '@pcp/graph-builder';
import { indexGraph } from './graph-index.ts';
import { synthesizeSite } from './site.ts';
import { graphOf, res } from './testing.ts';
import { heldUntilEvaluated } from './unreceived.ts';

const PAGE = 'http://www.pcp.test/';
const STAT = 'http://stat.pcp.test/stat.php';

/** The parser requests `stat.php` at 100 ms (`size` bytes, lasting `span`); its evaluation runs at 9,000 ms. */
function page(size: number, span: number) {
  return graphOf(PAGE, [
    res('doc', PAGE, 'text/html', 3000, { start: 0, end: 50 }),
    { id: 'p0', kind: 'parse_chunk', docUrl: PAGE, startLine: 1, startColumn: 16, endLine: 2, endColumn: 1, start: 90, end: 100 },
    res('stat', STAT, '', size, { start: 100, end: 100 + span, status: 0, cached: true }),
    { id: 's', kind: 'script_eval', scriptUrl: STAT, scriptKind: 'sync', start: 9000, end: 9001 },
  ], [['doc', 'p0', 'resource-chunk'], ['p0', 'stat', 1], ['stat', 's', 10]]);
}

const stat = (g: ReturnType<typeof page>): ResourceNode => g.nodes.find((n) => n.id === 'stat') as ResourceNode;

test('a download the log never received (no bytes, no span) ends when it ran; a received one keeps its span', () => {
  const g = page(0, 0);
  assert.equal(heldUntilEvaluated(indexGraph(g), stat(g)).end, 9000);
  const received = page(378, 40);
  assert.equal(heldUntilEvaluated(indexGraph(received), stat(received)).end, 140);
  const noEval = page(0, 0);
  noEval.edges = noEval.edges.filter((e) => e.to !== 's');
  assert.equal(heldUntilEvaluated(indexGraph(noEval), stat(noEval)).end, 100);
});

test('the replay holds such a script until its recorded evaluation', () => {
  const r = synthesizeSite(page(0, 0)).responses.find((x) => x.url === STAT)!;
  // 8,900 ms from its request: headers at once (no server delay), the body whole at the end.
  assert.equal(r.delayMs, 0);
  assert.equal(r.chunks!.at(-1)![0], 8900);
  assert.equal(synthesizeSite(page(378, 40)).responses.find((x) => x.url === STAT)!.chunks!.at(-1)![0], 40);
});

test('such a script is not one of the cache hits the replay warms: its bytes came from the network; a received cache hit is', () => {
  assert.equal(synthesizeSite(page(0, 0)).responses.find((x) => x.url === STAT)!.fromCache, undefined);
  assert.equal(synthesizeSite(page(378, 40)).responses.find((x) => x.url === STAT)!.fromCache, true);
});
