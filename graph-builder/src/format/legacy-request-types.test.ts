import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { LegacyRawEvidence, RawElementUse, RawFetch } from './legacy-raw.ts';
import { requestingElement, requestTypeOf } from './legacy-request-types.ts';

const el = (name: string, code: string, at: number, urls = 1): RawElementUse => ({ name, code, at, urls });
const evidence = (uses: RawElementUse[]): LegacyRawEvidence => ({ fetches: new Map(), elements: new Map([['http://a.test/x', uses]]), bodyStarts: new Map(), preloads: new Map(), bodyParsedAt: new Map() });
const fetch = (sent: number, from: string): RawFetch => ({ url: 'http://a.test/x', sent, from, received: 0, arrivals: [] });

test('the requesting element is the one the fetch names, else the last made before the request', () => {
  const ev = evidence([el('script', '0x1', 5), el('img', '0x2', 8), el('iframe', '0x3', 9.6)]);
  assert.equal(requestingElement(ev, 'http://a.test/x', fetch(10, '0x1'))?.name, 'script');
  assert.equal(requestingElement(ev, 'http://a.test/x', fetch(10, '0xdead'))?.name, 'iframe');
  assert.equal(requestingElement(ev, 'http://a.test/x', fetch(8.5, '(nil)'))?.name, 'img');
  assert.equal(requestingElement(ev, 'http://a.test/x', fetch(1, '0x1')), undefined, 'made after the request: not its requester');
  assert.equal(requestingElement(ev, 'http://a.test/x')?.name, 'script', 'a memory-cache reuse: the first');
});

test('elements that fetch nothing, or name several URLs, request nothing', () => {
  assert.equal(requestingElement(evidence([el('a', '0x1', 1), el('div', '0x2', 1)]), 'http://a.test/x', fetch(10, '0x1')), undefined);
  assert.equal(requestingElement(evidence([el('iframe', '0x1', 1, 9)]), 'http://a.test/x', fetch(10, '0x1')), undefined, "slack.com's iframe naming nine fonts");
  assert.equal(requestingElement(evidence([]), 'http://a.test/y'), undefined);
});

test("elements' request types in Chromium's names; plugins have none", () => {
  assert.deepEqual(['img', 'image', 'script', 'iframe', 'frame', 'object'].map((n) => requestTypeOf(el(n, '0x1', 0))), ['Image', 'Image', 'Script', 'Document', 'Document', undefined]);
  assert.equal(requestingElement(evidence([el('object', '0x1', 1)]), 'http://a.test/x', fetch(10, '0x1'))?.name, 'object', 'found, kept as the element, untyped');
  assert.equal(requestTypeOf(undefined), undefined);
});
