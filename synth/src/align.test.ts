import { test } from 'node:test';
import assert from 'node:assert/strict';
import { alignByCause } from './align.ts';
import { compareRoundTrip } from './compare.ts';
import { contentKeys, indexGraph } from './graph-index.ts';
import { graphOf, res, type NodeSpec } from './testing.ts';

const PAGE = 'http://www.pcp.test/';

/**
 * Two scripts each set a 50 ms timer that requests an image (walmart.com's two chains); `aFirst`: a.js
 * runs (and its timer fires) before b.js, else after. `extra`: b.js sets one more 50 ms timer first.
 */
function page(aFirst: boolean, extra = false) {
  const [ta, tb] = aFirst ? [10, 20] : [20, 10];
  return graphOf(PAGE, [
    res('doc', PAGE, 'text/html', 100),
    { id: 'p0', kind: 'parse_chunk', docUrl: PAGE, startLine: 1, startColumn: 1, endLine: 2, endColumn: 1, start: 1, end: 2 },
    res('ja', 'http://www.pcp.test/a.js', 'application/javascript', 10, { start: 2, end: ta - 1 }),
    res('jb', 'http://www.pcp.test/b.js', 'application/javascript', 10, { start: 2, end: tb - 1 }),
    { id: 'sa', kind: 'script_eval', scriptUrl: 'http://www.pcp.test/a.js', scriptKind: 'async', start: ta, end: ta + 1 },
    { id: 'sb', kind: 'script_eval', scriptUrl: 'http://www.pcp.test/b.js', scriptKind: 'async', start: tb, end: tb + 1 },
    { id: 'xa', kind: 'timer', timerId: '1', timerDelay: 50, start: ta + 50, end: ta + 51 },
    { id: 'xb', kind: 'timer', timerId: '2', timerDelay: 50, start: tb + 50, end: tb + 51 },
    ...(extra ? [{ id: 'xx', kind: 'timer', timerId: '3', timerDelay: 50, start: tb + 40, end: tb + 41 } as NodeSpec] : []),
    res('ia', 'http://img.pcp.test/a.png', 'image/png', 10, { start: ta + 51, end: ta + 60 }),
    res('ib', 'http://img.pcp.test/b.png', 'image/png', 10, { start: tb + 51, end: tb + 60 }),
  ], [['doc', 'p0', 'resource-chunk'], ['p0', 'ja', 1], ['p0', 'jb', 1], ['ja', 'sa', 10], ['jb', 'sb', 10], ['sa', 'xa', 19], ['sb', 'xb', 19],
    ...(extra ? [['sb', 'xx', 19] as [string, string, number]] : []), ['xa', 'ia', 2], ['xb', 'ib', 2]]);
}

test('timers of one delay that fired in the other order are matched by the script that set them', () => {
  const f = compareRoundTrip(page(true), page(false));
  assert.equal(f.parentAgreement, 1, JSON.stringify(f.parentMisses));
  assert.equal(f.edgeRecall, 1);
  assert.equal(f.edgePrecision, 1);
});

test('a rebuilt timer with no source counterpart keeps a key of its own; the others still match', () => {
  const si = indexGraph(page(true));
  const bi = indexGraph(page(false, true));
  const sk = contentKeys(si, true);
  const bk = contentKeys(bi, true);
  alignByCause(si, sk, bi, bk);
  assert.equal(bk.get('xa'), sk.get('xa'), "a.js's timer is not taken by b.js's extra one");
  // b.js's two timers are told apart by order only: one is b.js's of the source, the other rebuilt only.
  assert.deepEqual([bk.get('xx'), bk.get('xb')].map((k) => k === sk.get('xb') ? 'source' : /\(rebuilt only\)$/.test(k!) ? 'only' : k).sort(), ['only', 'source']);
  assert.ok(![...sk.values()].some((k) => k.endsWith('(rebuilt only)')));
});

test('with nothing to tell them apart, computations of one key pair by order', () => {
  const si = indexGraph(page(true));
  const sk = contentKeys(si, true);
  const bk = new Map(sk);
  alignByCause(si, sk, si, bk);
  assert.deepEqual([...bk], [...sk]);
});
