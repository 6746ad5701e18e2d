import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compareRoundTrip } from './compare.ts';
import { graphOf, res, type NodeSpec } from './testing.ts';

const PAGE = 'http://www.pcp.test/';
const FONT = 'http://fonts.pcp.test/lato.woff';

/** A script whose evaluation ends at 20 ms requests a font at 1,144 ms (slack.com's `gtm.js`, 1,124 ms late). */
function source() {
  return graphOf(PAGE, [
    res('doc', PAGE, 'text/html', 100),
    { id: 'p0', kind: 'parse_chunk', docUrl: PAGE, startLine: 1, startColumn: 1, endLine: 2, endColumn: 1, start: 1, end: 2 },
    res('js', 'http://www.pcp.test/gtm.js', 'application/javascript', 10, { start: 2, end: 9 }),
    { id: 's', kind: 'script_eval', scriptUrl: 'http://www.pcp.test/gtm.js', scriptKind: 'async', start: 10, end: 20 },
    res('f', FONT, 'font/woff', 10, { start: 1144, end: 1150 }),
  ], [['doc', 'p0', 'resource-chunk'], ['p0', 'js', 1], ['js', 's', 10], ['s', 'f', 2]]);
}

/** The replay: the synthesized page's `setTimeout(function(){request}, delay)`, drawn by the trace builder. */
function rebuilt(delay: number, parentOfFont: 's' | 'p0' = 's') {
  const timer: NodeSpec = { id: 't_b', kind: 'timer', timerId: '7', timerDelay: delay, start: 20 + delay, end: 21 + delay };
  return graphOf(PAGE, [
    res('doc_b', PAGE, 'text/html', 100),
    { id: 'p0_b', kind: 'parse_chunk', docUrl: PAGE, startLine: 1, startColumn: 1, endLine: 2, endColumn: 1, start: 1, end: 2 },
    res('js_b', 'http://www.pcp.test/gtm.js', 'application/javascript', 10, { start: 2, end: 9 }),
    { id: 's_b', kind: 'script_eval', scriptUrl: 'http://www.pcp.test/gtm.js', scriptKind: 'async', start: 10, end: 20 },
    timer,
    res('f_b', FONT, 'font/woff', 10, { start: 21 + delay, end: 30 + delay }),
  ], [['doc_b', 'p0_b', 'resource-chunk'], ['p0_b', 'js_b', 1], ['js_b', 's_b', 10], [`${parentOfFont}_b`, 't_b', 19], ['t_b', 'f_b', 2]]);
}

test("the synthesizer's late-request timer is its script's: the source's one edge, script -> request, found; none added", () => {
  const f = compareRoundTrip(source(), rebuilt(1124));
  assert.deepEqual(f.edgeMisses, { missing: [], extra: [] });
  assert.equal(f.edgePrecision, 1);
  assert.equal(f.edgeRecall, 1);
  assert.equal(f.parentAgreement, 1, JSON.stringify(f.parentMisses));
});

test('a short timer, or one set by what the source does not draw the request from, stays a timer of its own', () => {
  for (const built of [rebuilt(500), rebuilt(1124, 'p0')]) {
    const f = compareRoundTrip(source(), built);
    // The source's 4 edges (document -> chunk -> script download -> evaluation -> font): all but the last found.
    assert.equal(f.edgeRecall, 3 / 4, JSON.stringify(f.edgeMisses));
    assert.deepEqual(f.edgeMisses.missing.map((e) => e.rule), ['2']);
    assert.equal(f.edgeMisses.extra.length, 2);
  }
});
