import { test } from 'node:test';
import assert from 'node:assert/strict';
import { indexGraph } from './graph-index.ts';
import { frameSuffixes, sharedFrameBodies } from './frame-bodies.ts';
import { synthesizeSite } from './site.ts';
import { withHttpsTwins } from './upgrades.ts';
import { graphOf, res } from './testing.ts';

const PAGE = 'http://www.pcp.test/';
const AD = 'http://ads.pcp.test/frame.html';
const LIB = 'http://cdn.pcp.test/lib.js';

/**
 * The page's parser makes two iframes of AD (requests `doc_a` at 10 ms, `doc_b` at 20 ms, in the frames
 * they load, as legacy graphs record them): frame a parses an image tag, frame b an inline script, and
 * both run LIB, b's evaluation requesting an image of its own.
 */
function twoAdFrames(): ReturnType<typeof graphOf> {
  const frame = (f: 'a' | 'b', t: number) => [
    res(`doc_${f}`, `${AD}#${f}`, 'text/html', 4000, { frame: f, start: t, end: t + 5 }),
    { id: `d_${f}`, kind: 'download_chunk' as const, frame: f, resource: `doc_${f}`, index: 0, offset: 0, size: 4000, start: t + 1, end: t + 5 },
    { id: `p_${f}`, kind: 'parse_chunk' as const, frame: f, docUrl: AD, startLine: 2, startColumn: 1, endLine: 3, endColumn: 1, start: t + 6, end: t + 7 },
    res(`lib_${f}`, LIB, 'application/javascript', 3000, { frame: f, start: t + 8, end: t + 9 }),
    { id: `l_${f}`, kind: 'script_eval' as const, frame: f, scriptUrl: LIB, scriptKind: 'sync' as const, start: t + 10, end: t + 11 },
  ];
  return graphOf(PAGE, [
    res('doc', PAGE, 'text/html', 3000),
    { id: 'p0', kind: 'parse_chunk', docUrl: PAGE, startLine: 1, startColumn: 16, endLine: 2, endColumn: 1 },
    ...frame('b', 20), ...frame('a', 10),
    res('img_a', 'http://ads.pcp.test/a.png', 'image/png', 300, { frame: 'a', start: 17 }),
    { id: 's_b', kind: 'script_eval', frame: 'b', scriptUrl: AD, scriptKind: 'sync', start: 27, end: 28 },
    res('img_b', 'http://ads.pcp.test/b.png', 'image/png', 300, { frame: 'b', start: 32 }),
  ], [
    ['doc', 'p0', 'resource-chunk'], ['p0', 'doc_a', 1], ['p0', 'doc_b', 1],
    ['doc_a', 'd_a', 'resource-chunk'], ['doc_b', 'd_b', 'resource-chunk'], ['d_a', 'p_a', 3], ['d_b', 'p_b', 3],
    ['p_a', 'lib_a', 1], ['p_b', 'lib_b', 1], ['lib_a', 'l_a', 10], ['lib_b', 'l_b', 10],
    ['p_a', 'img_a', 1], ['p_b', 's_b', 12], ['l_b', 'img_b', 2],
  ], [{ id: 'main', url: PAGE, parent: null }, { id: 'a', url: `${AD}#a`, parent: 'main' }, { id: 'b', url: `${AD}#b`, parent: 'main' }]);
}

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
