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

/**
 * www.snapdeal.com's shape: one script sets three 200 ms timers, each requesting images of its own;
 * `order` is the order they fire in (the replay fired the source's #3 first, #0 second).
 */
function timersOfOneScript(order: number[]) {
  const at = (i: number): number => 100 + order.indexOf(i) * 10;
  return graphOf(PAGE, [
    res('doc', PAGE, 'text/html', 100),
    { id: 'p0', kind: 'parse_chunk', docUrl: PAGE, startLine: 1, startColumn: 1, endLine: 2, endColumn: 1, start: 1, end: 2 },
    res('js', 'http://www.pcp.test/home.js', 'application/javascript', 10, { start: 2, end: 9 }),
    { id: 'sj', kind: 'script_eval', scriptUrl: 'http://www.pcp.test/home.js', scriptKind: 'async', start: 10, end: 11 },
    ...[0, 1, 2].map((i): NodeSpec => ({ id: `t${i}`, kind: 'timer', timerId: String(i + 1), timerDelay: 200, start: at(i), end: at(i) + 1 })),
    ...[0, 1, 2].map((i) => res(`i${i}`, `http://img.pcp.test/${i}.png`, 'image/png', 10, { start: at(i) + 1, end: at(i) + 5 })),
    res('i0b', 'http://img.pcp.test/0b.png', 'image/png', 10, { start: at(0) + 1, end: at(0) + 5 }),
  ], [['doc', 'p0', 'resource-chunk'], ['p0', 'js', 1], ['js', 'sj', 10], ...[0, 1, 2].flatMap((i): [string, string, number][] => [['sj', `t${i}`, 19], [`t${i}`, `i${i}`, 2]]), ['t0', 'i0b', 2]]);
}

test('timers of one delay and one cause fired in another order are told apart by what they request', () => {
  const f = compareRoundTrip(timersOfOneScript([0, 1, 2]), timersOfOneScript([2, 0, 1]));
  assert.deepEqual(f.edgeMisses, { missing: [], extra: [] });
  assert.equal(f.edgePrecision, 1);
  assert.equal(f.parentAgreement, 1, JSON.stringify(f.parentMisses));
});

test('a rebuilt timer whose cause no source timer has takes the one sharing its requests', () => {
  const source = timersOfOneScript([0, 1, 2]);
  const built = timersOfOneScript([1, 2, 0]);
  // The rebuilt timers' installer is not the source's (another script's name): no cause matches.
  const renamed = { ...built, nodes: built.nodes.map((n) => (n.id === 'sj' && n.kind === 'script_eval' ? { ...n, scriptUrl: 'http://www.pcp.test/other.js' } : n)) };
  const si = indexGraph(source);
  const bi = indexGraph(renamed);
  const sk = contentKeys(si, true);
  const bk = contentKeys(bi, true);
  alignByCause(si, sk, bi, bk);
  for (const t of ['t0', 't1', 't2']) assert.equal(bk.get(t), sk.get(t), t);
});
