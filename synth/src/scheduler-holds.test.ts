import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ParseChunkNode, ResourceNode } from '@pcp/graph-builder';
import { bodyParsedAt, schedulerHolds } from './scheduler-holds.ts';
import { res } from './testing.ts';

const r = (id: string, url: string, mime: string, start: number, end: number, more: Partial<ResourceNode> = {}): ResourceNode =>
  ({ ...res(id, url, mime, 10, more), frame: 'main', start, end }) as ResourceNode;

test("thesaurus.com's shape: images held while the head's scripts load, released when all but one have ended", () => {
  // Body parsed at 3,938. Scripts asked before it (layout-blocking) end at 5,454, 6,929 and 6,978; one after it at 4,329.
  const scripts = [
    r('jq', 'http://s.test/jquery.js', 'application/javascript', 2445, 5454),
    r('ui', 'http://s.test/ui.js', 'application/javascript', 3881, 6929),
    r('home', 'http://s.test/home.js', 'application/javascript', 3937, 6978),
    r('nh', 'http://s.test/new-home.js', 'application/javascript', 4047, 4329),
  ];
  const img = r('img', 'http://s.test/a.jpg', 'image/jpeg', 3961, 7003);
  const holds = schedulerHolds([...scripts, img], 3938);
  // At 3,961: jq, ui, home in flight (3 > 1), home asked before the body: held. Next drops: 5,454 (jq) -> ui, home
  // still in flight (2 > 1); 6,929 (ui) -> only home (1): released at 6,929, 74 ms before its end.
  assert.equal(holds.get('img'), 6929 - 3961);
  assert.equal(holds.size, 1); // scripts are never held
  assert.equal(schedulerHolds([...scripts, img], 3938, (x) => x.id !== 'img').size, 0); // a script's image: sent at once by Chromium 156
});

test('no hold once the body is parsed and no layout-blocking request is in flight, or with one request in flight', () => {
  const late = r('late', 'http://s.test/late.js', 'application/javascript', 500, 900); // asked after the body
  const other = r('other', 'http://s.test/other.js', 'application/javascript', 600, 900);
  assert.equal(schedulerHolds([late, other, r('i', 'http://s.test/i.png', 'image/png', 700, 800)], 400).size, 0);
  const head = r('head', 'http://s.test/head.css', 'text/css', 100, 900); // before the body, but alone
  assert.equal(schedulerHolds([head, r('i', 'http://s.test/i.png', 'image/png', 700, 800)], 400).size, 0);
});

test('before the body: held until the body is parsed; no hold past the end, for https images or cached ones', () => {
  const two = [r('a', 'http://s.test/a.js', 'application/javascript', 0, 2000, {}), r('b', 'http://s.test/b.js', 'application/javascript', 0, 250)];
  // Before the body at 300: a and b in flight -> next moment min(250, 300) = 250: a alone (1), released at 250.
  assert.equal(schedulerHolds([...two, r('i', 'http://s.test/i.png', 'image/png', 100, 400)], 300).get('i'), 150);
  const three = [...two, r('c', 'http://s.test/c.js', 'application/javascript', 0, 2000)];
  // a and c stay in flight past the image's end: the rule would hold it to its end, so it did not apply (no hold).
  assert.equal(schedulerHolds([...three, r('i', 'http://s.test/i.png', 'image/png', 100, 400)], 300).size, 0);
  assert.equal(schedulerHolds([...three, r('h', 'https://s.test/i.png', 'image/png', 100, 400)], 300).size, 0); // HTTP/2: priorities, no hold
  assert.equal(schedulerHolds([...three, r('k', 'http://s.test/i.png', 'image/png', 100, 400, { cached: true })], 300).size, 0);
});

test("the body's parse chunk: the first whose end is at or past the <body> tag", () => {
  const c = (id: string, start: number, endLine: number, endColumn: number) =>
    ({ id, kind: 'parse_chunk', docUrl: 'http://p.test/', frame: 'main', start, end: start + 1, startLine: 1, startColumn: 1, endLine, endColumn }) as ParseChunkNode;
  const chunks = [c('p0', 10, 5, 1), c('p1', 40, 9, 3), c('p2', 90, 20, 1)];
  assert.equal(bodyParsedAt(chunks, { line: 9, column: 2 }), 40);
  assert.equal(bodyParsedAt(chunks, { line: 30, column: 1 }), Infinity);
  assert.equal(bodyParsedAt(chunks, undefined), Infinity);
});
