import { test } from 'node:test';
import assert from 'node:assert/strict';
import { indexGraph } from './graph-index.ts';
import { frameSuffixes, sharedFrameBodies } from './frame-bodies.ts';
import { synthesizeSite } from './site.ts';
import { withHttpsTwins } from './upgrades.ts';
import { sharedUrlFramesPage, type graphOf } from './testing.ts';

const PAGE = 'http://www.pcp.test/';
const AD = 'http://ads.pcp.test/frame.html';
const LIB = 'http://cdn.pcp.test/lib.js';
const twoAdFrames = (): ReturnType<typeof graphOf> => sharedUrlFramesPage(PAGE, AD, LIB);

test('frames of one document URL get a body each, in the order their documents were requested', () => {
  const shared = sharedFrameBodies(indexGraph(twoAdFrames()), PAGE);
  assert.deepEqual([...shared.keys()], [AD]);
  assert.deepEqual(shared.get(AD)!.map((b) => [b.frame, b.resource.id, b.chunks.map((c) => c.id), b.suffix]), [['a', 'doc_a', ['p_a'], ''], ['b', 'doc_b', ['p_b'], ' [1]']]);
  const { byFrame, byRequest } = frameSuffixes(shared);
  assert.equal(byFrame.get('b'), ' [1]');
  assert.equal(byRequest.get('doc_a'), '');
});

test("the site serves each frame its own document, never from the browser's cache, and names the later frame's iframe", () => {
  const site = synthesizeSite(twoAdFrames());
  const ads = site.responses.filter((r) => r.url === AD);
  assert.equal(ads.length, 2);
  assert.ok(ads.every((r) => r.noStore));
  const [a = '', b = ''] = ads.map((r) => r.body.toString('utf8'));
  // Frame a parses its image tag only, frame b its inline script only.
  assert.match(a, /a\.png/);
  assert.doesNotMatch(a, /<script>/);
  assert.doesNotMatch(b, /a\.png/);
  assert.match(b, /<script>/);
  const page = site.responses.find((r) => r.url === PAGE)!.body.toString('utf8');
  assert.match(page, /<iframe src="http:\/\/ads\.pcp\.test\/frame\.html"><\/iframe>/);
  assert.match(page, /<iframe src="http:\/\/ads\.pcp\.test\/frame\.html" name="pcp-frame \[1\]"><\/iframe>/);
  // The shared script holds each frame's program, keyed by the frame's name: only b's requests b.png.
  const lib = site.responses.find((r) => r.url === LIB)!.body.toString('utf8');
  assert.match(lib, /"http:\/\/ads\.pcp\.test\/frame\.html \[1\]\|1":function\(\)\{[^}]*b\.png/);
  assert.match(lib, /window\.name\.indexOf\("pcp-frame "\)/);
});

test('a frame of a URL no other frame loads is served as before: one body, cacheable, no name', () => {
  const g = twoAdFrames();
  g.nodes = g.nodes.filter((n) => n.frame !== 'b');
  g.edges = g.edges.filter((e) => g.nodes.some((n) => n.id === e.from) && g.nodes.some((n) => n.id === e.to));
  assert.equal(sharedFrameBodies(indexGraph(g), PAGE).size, 0);
  const site = synthesizeSite(g);
  assert.deepEqual(site.responses.filter((r) => r.url === AD).map((r) => r.noStore), [undefined]);
});

test('every body of a URL served several times gets its https twin, in order', () => {
  const twins = withHttpsTwins([{ url: PAGE, status: 200 }, { url: AD, status: 200, n: 1 }, { url: AD, status: 200, n: 2 }], PAGE);
  assert.deepEqual(twins.filter((r) => r.url === AD.replace('http:', 'https:')).map((r) => (r as { n?: number }).n), [1, 2]);
});
