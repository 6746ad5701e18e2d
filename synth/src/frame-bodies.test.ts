import { test } from 'node:test';
import assert from 'node:assert/strict';
import { indexGraph } from './graph-index.ts';
import { frameSuffixes, sharedFrameBodies } from './frame-bodies.ts';
import { synthesizeSite } from './site.ts';
import { withHttpsTwins } from './upgrades.ts';
import { graphOf, ownUrlFrameByScriptPage, res, sharedUrlFramesPage } from './testing.ts';

const PAGE = 'http://www.pcp.test/';
const AD = 'http://ads.pcp.test/frame.html';
const LIB = 'http://cdn.pcp.test/lib.js';
const twoAdFrames = (): ReturnType<typeof graphOf> => sharedUrlFramesPage(PAGE, AD, LIB);

test('frames of one document URL get a body each, in the order their documents were requested', () => {
  const shared = sharedFrameBodies(indexGraph(twoAdFrames()));
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
  assert.equal(sharedFrameBodies(indexGraph(g)).size, 0);
  const site = synthesizeSite(g);
  assert.deepEqual(site.responses.filter((r) => r.url === AD).map((r) => r.noStore), [undefined]);
});

test('every body of a URL served several times gets its https twin, in order', () => {
  const twins = withHttpsTwins([{ url: PAGE, status: 200 }, { url: AD, status: 200, n: 1 }, { url: AD, status: 200, n: 2 }], PAGE);
  assert.deepEqual(twins.filter((r) => r.url === AD.replace('http:', 'https:')).map((r) => (r as { n?: number }).n), [1, 2]);
});

test("a frame of the page's own URL that parsed a document of its own (www.behance.net) gets that document, the navigation the page's", () => {
  // The main document (p0) makes an iframe of its own URL, whose document (p_f) parses an image tag.
  const g = graphOf(PAGE, [
    res('doc', PAGE, 'text/html', 3000, { start: 0, end: 10 }),
    { id: 'p0', kind: 'parse_chunk', docUrl: PAGE, startLine: 1, startColumn: 16, endLine: 2, endColumn: 1, start: 11, end: 12 },
    res('self', `${PAGE}#f`, 'text/html', 5000, { frame: 'f', start: 20, end: 30 }),
    { id: 'd_f', kind: 'download_chunk', frame: 'f', resource: 'self', index: 0, offset: 0, size: 5000, start: 21, end: 30 },
    { id: 'p_f', kind: 'parse_chunk', frame: 'f', docUrl: PAGE, startLine: 2, startColumn: 1, endLine: 3, endColumn: 1, start: 31, end: 32 },
    res('img', 'http://www.pcp.test/in-frame.png', 'image/png', 300, { frame: 'f', start: 33, end: 40 }),
  ], [['doc', 'p0', 'resource-chunk'], ['p0', 'self', 1], ['self', 'd_f', 'resource-chunk'], ['d_f', 'p_f', 3], ['p_f', 'img', 1]],
  [{ id: 'main', url: PAGE, parent: null }, { id: 'f', url: `${PAGE}#f`, parent: 'main' }]);
  const site = synthesizeSite(g);
  const [main = '', frame = ''] = site.responses.filter((r) => r.url === PAGE).map((r) => r.body.toString('utf8'));
  assert.match(main, /<iframe src="http:\/\/www\.pcp\.test\/" name="pcp-frame \[1\]"><\/iframe>/);
  assert.doesNotMatch(main, /in-frame\.png/);
  assert.match(frame, /<img src="http:\/\/www\.pcp\.test\/in-frame\.png"/);
  assert.equal(site.responses[0]!.url, PAGE);
  assert.equal(site.warnings.filter((w) => /page's own URL/.test(w)).length, 0, site.warnings.join('\n'));
});

test("a frame of the page's own URL that a script inserts (www.behance.net) is named as the parser's tag would name it, so its scripts find their programs", () => {
  const g = ownUrlFrameByScriptPage(PAGE, LIB);
  const site = synthesizeSite(g);
  const [main = ''] = site.responses.filter((r) => r.url === PAGE).map((r) => r.body.toString('utf8'));
  assert.ok(main.includes('E("iframe","http://www.pcp.test/",null,null,null,"pcp-frame [1]");'), main);
  const lib = site.responses.find((r) => r.url === LIB)!.body.toString('utf8');
  assert.match(lib, /"http:\/\/www\.pcp\.test\/ \[1\]\|1":function\(\)\{[^}]*in-frame\.png/);
  assert.equal(site.warnings.filter((w) => /page's own URL/.test(w)).length, 0, site.warnings.join('\n'));
});
