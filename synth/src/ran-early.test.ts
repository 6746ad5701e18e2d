import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ResourceNode } from '@pcp/graph-builder';
import { indexGraph } from './graph-index.ts';
import { endedWhenRun, servedSpan } from './ran-early.ts';
import { synthesizeSite } from './site.ts';
import { graphOf, res } from './testing.ts';

const PAGE = 'http://www.pcp.test/';
const LIB = 'http://cdn.pcp.test/global.js';

/**
 * The parser reaches `global.js` at 5,240 ms; the source drew it 5,240-10,073 ms (the preloaded fetch's
 * duration after the memory-cache access, as the 2016 builder did), its evaluation at `ranAt`.
 */
function page(ranAt: number, serverDelay?: number) {
  return graphOf(PAGE, [
    res('doc', PAGE, 'text/html', 3000, { start: 0, end: 50 }),
    { id: 'p0', kind: 'parse_chunk', docUrl: PAGE, startLine: 1, startColumn: 16, endLine: 2, endColumn: 1, start: 5230, end: 5240 },
    res('lib', LIB, 'text/javascript', 83597, { start: 5240, end: 10073, ...(serverDelay !== undefined && { serverDelay }) }),
    { id: 's', kind: 'script_eval', scriptUrl: LIB, scriptKind: 'sync', start: ranAt, end: ranAt + 4 },
  ], [['doc', 'p0', 'resource-chunk'], ['p0', 'lib', 1], ['lib', 's', 10]]);
}
const lib = (g: ReturnType<typeof page>): ResourceNode => g.nodes.find((n) => n.id === 'lib') as ResourceNode;

test('a download run before its recorded end ends when it ran; one run after its end keeps its span', () => {
  const early = page(5241);
  assert.equal(endedWhenRun(indexGraph(early), lib(early)).end, 5241);
  const late = page(10074);
  assert.equal(endedWhenRun(indexGraph(late), lib(late)), lib(late));
  // Within 20 ms of its end: the record's own jitter, kept.
  const near = page(10060);
  assert.equal(endedWhenRun(indexGraph(near), lib(near)), lib(near));
  const noEval = page(5241);
  noEval.edges = noEval.edges.filter((e) => e.to !== 's');
  assert.equal(endedWhenRun(indexGraph(noEval), lib(noEval)), lib(noEval));
});

test('its server delay is cut to the span it has left', () => {
  const g = page(5300, 2000);
  const served = servedSpan(indexGraph(g), lib(g));
  assert.equal(served.end, 5300);
  assert.equal(served.serverDelay, 60);
});

test('the replay serves such a script in the time it took to run, not the recorded 4.8 s', () => {
  const r = synthesizeSite(page(5241)).responses.find((x) => x.url === LIB)!;
  assert.equal(r.delayMs, 0);
  assert.ok(r.chunks === undefined || r.chunks.at(-1)![0] <= 1, `served over ${JSON.stringify(r.chunks?.at(-1))}`);
  const kept = synthesizeSite(page(10074)).responses.find((x) => x.url === LIB)!;
  assert.equal(kept.chunks!.at(-1)![0], 4833);
});
