import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compareRoundTrip } from './compare.ts';
import { res, scriptPage, type NodeSpec } from './testing.ts';

const PAGE = 'http://www.pcp.test/';
const FONT = 'http://fonts.pcp.test/lato.woff';

const GTM = 'http://www.pcp.test/gtm.js';

/** A script whose evaluation ends at 9 ms requests a font at 1,144 ms (slack.com's `gtm.js`, 1,124 ms late). */
function source() {
  return scriptPage(PAGE, GTM, 'application/javascript', [res('f', FONT, 'font/woff', 10, { start: 1144, end: 1150 })], [['s', 'f', 2]]);
}

/** The replay: the synthesized page's `setTimeout(function(){request}, delay)`, drawn by the trace builder. */
function rebuilt(delay: number, parentOfFont: 's' | 'p0' = 's') {
  const timer: NodeSpec = { id: 't', kind: 'timer', timerId: '7', timerDelay: delay, start: 9 + delay, end: 10 + delay };
  return scriptPage(PAGE, GTM, 'application/javascript', [timer, res('f', FONT, 'font/woff', 10, { start: 10 + delay, end: 19 + delay })], [[parentOfFont, 't', 19], ['t', 'f', 2]]);
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
