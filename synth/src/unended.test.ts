import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ResourceNode } from '@pcp/graph-builder';
import { indexGraph } from './graph-index.ts';
import { synthesizeSite } from './site.ts';
import { graphOf, res, type NodeSpec } from './testing.ts';
import { heldToItsLoad, unendedBy } from './unended.ts';

const PAGE = 'http://www.pcp.test/';
const TAP = 'http://ads.pcp.test/tap.gif';

/**
 * www.walmart.com's shape: the document is requested at `docStart`; a script (`rum`, 3,690-3,702 ms) makes an
 * `<img>` request for `tap.gif` at 3,703 ms that the log never saw end (`tap` of `size` bytes lasting `span`);
 * the window load at 10,335 ms hangs off it (rule 25), and `more` nodes (with `moreEdges`) beside.
 */
function page(tap: Partial<Extract<NodeSpec, { kind: 'resource' }>> = {}, more: NodeSpec[] = [], moreEdges: [string, string, number | string][] = [], docStart = 0) {
  return graphOf(PAGE, [
    res('doc', PAGE, 'text/html', 3000, { start: docStart, end: docStart + 50 }),
    { id: 'p0', kind: 'parse_chunk', docUrl: PAGE, startLine: 1, startColumn: 16, endLine: 2, endColumn: 1, start: 90, end: 100 },
    res('rumjs', 'http://www.pcp.test/rum.js', 'text/javascript', 2000, { start: 100, end: 300 }),
    { id: 'rum', kind: 'script_eval', scriptUrl: 'http://www.pcp.test/rum.js', scriptKind: 'async', start: 3690, end: 3702 },
    res('tap', TAP, 'image/gif', 0, { start: 3703, end: 3703, status: 0, ...tap }),
    { id: 'wl', kind: 'event', eventName: 'load', eventTarget: 'Window', start: 10335, end: 10336 },
    ...more,
  ], [['doc', 'p0', 'resource-chunk'], ['p0', 'rumjs', 1], ['rumjs', 'rum', 10], ['rum', 'tap', 2], ['tap', 'wl', 25], ['rumjs', 'wl', 25], ...moreEdges]);
}

const tapOf = (g: ReturnType<typeof page>): ResourceNode => g.nodes.find((n) => n.id === 'tap') as ResourceNode;
const by = (g: ReturnType<typeof page>): number | undefined => unendedBy(indexGraph(g), tapOf(g));

test('a load-holding request the log never saw end ends 1 ms before the load it held: 10,334', () => {
  assert.equal(by(page()), 10334);
  const held = heldToItsLoad(indexGraph(page()), tapOf(page()));
  assert.deepEqual([held.start, held.end, held.serverDelay], [3703, 10334, 6631]);
});

test('an earlier child bounds it first: a window error at 4,445 (walmart\'s pubads_impl_95.js) -> by 4,444', () => {
  const g = page({}, [{ id: 'err', kind: 'event', eventName: 'error', eventTarget: 'Window', start: 4445, end: 4446 }], [['tap', 'err', 25]]);
  assert.equal(by(g), 4444);
});

test('left as recorded: bytes or a span received, a cache hit, an XHR, a failed element, no load among its children, a bound not after its request', () => {
  assert.equal(by(page({ size: 68, end: 3930 })), undefined, 'received');
  assert.equal(by(page({ end: 3704 })), undefined, 'a span of 1 ms');
  assert.equal(by(page({ cached: true })), undefined, 'a Cached record');
  assert.equal(by(page({ requestType: 'XHR' })), undefined, 'Chromium\'s load does not wait for an XHR');
  const failed = page({}, [{ id: 'ee', kind: 'event', eventName: 'error', eventTarget: 'Element', start: 3800, end: 3801 }], [['tap', 'ee', 25]]);
  assert.equal(by(failed), undefined, 'its element fired error at 3,800: the log times it');
  const noLoad = page();
  noLoad.edges = noLoad.edges.filter((e) => !(e.from === 'tap' && e.to === 'wl'));
  assert.equal(by(noLoad), undefined, 'requested after the load, or holding none');
  const past = page({}, [{ id: 'err', kind: 'event', eventName: 'error', eventTarget: 'Window', start: 3703.5, end: 3704 }], [['tap', 'err', 25]]);
  assert.equal(by(past), undefined, '3,702.5 is before its request');
});

test('the site holds its headers 6,631 ms and ends it by 10,334 on the page\'s clock (HAR `_endBy`); the other responses are as before', () => {
  const site = synthesizeSite(page());
  const r = site.responses.find((x) => x.url === TAP)!;
  assert.equal(r.delayMs, 6631);
  assert.equal(r.chunks, undefined, 'the body at once after the headers');
  assert.equal(r.endByMs, 10334);
  // The replay's browser asks at 5,000 on the page's clock: its schedule of 6,631 ms is cut to end by 10,334, 5,334 ms
  // after (`endingBy`: no body steps, the delay shortened by 1,297); asked at 3,000, it keeps 6,631 and ends at 9,631.
  const plain = synthesizeSite(page({ size: 68, end: 3930 }));
  const before = plain.responses.find((x) => x.url === TAP)!;
  assert.deepEqual([before.delayMs, before.endByMs], [0, undefined]);
  for (const u of [PAGE, 'http://www.pcp.test/rum.js']) {
    const a = site.responses.find((x) => x.url === u)!;
    const b = plain.responses.find((x) => x.url === u)!;
    assert.deepEqual([a.delayMs, a.chunks, a.body], [b.delayMs, b.chunks, b.body], u);
  }
});

test('on a page clock that starts with the document\'s request at 40 ms, it ends by 10,294', () => {
  const r = synthesizeSite(page({}, [], [], 40)).responses.find((x) => x.url === TAP)!;
  assert.equal(r.endByMs, 10294);
  assert.equal(r.delayMs, 6631);
});
