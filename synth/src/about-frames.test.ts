import { test } from 'node:test';
import assert from 'node:assert/strict';
import { aboutFrameOwners, isAboutUrl } from './about-frames.ts';
import { indexGraph } from './graph-index.ts';
import { synthesizeSite } from './site.ts';
import { graphOf, res, scriptPage } from './testing.ts';

const PAGE = 'http://www.pcp.test/';

function page() {
  const g = scriptPage(PAGE, 'http://www.pcp.test/tag.js', 'application/javascript', [
    res('frame', 'about:blank', 'text/html', 0, { start: 9, end: 9 }),
    { id: 'wl', kind: 'event', eventName: 'load', eventTarget: 'Window', frame: 'ad', start: 10, end: 12 },
    res('beacon', 'http://www.pcp.test/b.gif', 'image/gif', 40, { frame: 'ad', start: 12, end: 20 }),
  ], [['s', 'frame', 2], ['frame', 'wl', 25], ['wl', 'beacon', 2]]);
  g.frames.push({ id: 'ad', url: 'about:blank', parent: 'main' });
  return g;
}

test('an about: frame is owned by the about: resource with a child in it', () => {
  const owners = aboutFrameOwners(indexGraph(page()));
  assert.deepEqual([...owners].map(([f, r]) => [f, r.id]), [['ad', 'frame']]);
  assert.ok(isAboutUrl('about:blank') && isAboutUrl('ABOUT:srcdoc') && !isAboutUrl('http://about.pcp.test/'));
});

test("the frame's window load handler is installed by the script that inserts its iframe, between open and close", () => {
  const site = synthesizeSite(page());
  assert.deepEqual(site.warnings.filter((w) => /install/.test(w)), []);
  const js = site.responses.find((r) => r.url.endsWith('tag.js'))!.body.toString();
  assert.ok(js.includes('A("frame",null,function(w,d){w.addEventListener("load",function(){B(2);E("img","http://www.pcp.test/b.gif");});});'), js);
});

/** The page's tag.js makes an about:blank frame `ad` and requests ad.js, which that frame evaluates (`ev`, 2 ms); `nodes` and `edges` say what follows. */
function adFramePage(nodes: Parameters<typeof scriptPage>[3], edges: Parameters<typeof scriptPage>[4]) {
  const g = scriptPage(PAGE, 'http://www.pcp.test/tag.js', 'application/javascript', [
    res('frame', 'about:blank', 'text/html', 0, { start: 9, end: 9 }),
    res('ad', 'http://ads.pcp.test/ad.js', 'application/javascript', 300, { start: 10, end: 20 }),
    { id: 'ev', kind: 'script_eval', scriptUrl: 'http://ads.pcp.test/ad.js', scriptKind: 'sync', frame: 'ad', start: 20, end: 22 },
    ...nodes,
  ], [['s', 'frame', 2], ['frame', 'ev', 10], ['s', 'ad', 2], ['ad', 'ev', 10], ...edges]);
  g.frames.push({ id: 'ad', url: 'about:blank', parent: 'main' });
  return g;
}

test('a script a computation of the parent frame requests and the about: frame evaluates goes into that frame\'s document', () => {
  const g = adFramePage([res('pixel', 'http://ads.pcp.test/p.gif', 'image/gif', 40, { frame: 'ad', start: 22, end: 30 })], [['ev', 'pixel', 2]]);
  const site = synthesizeSite(g);
  const tag = site.responses.find((r) => r.url.endsWith('tag.js'))!.body.toString();
  assert.ok(tag.includes('A("frame",null);') && tag.includes('E("script","http://ads.pcp.test/ad.js",null,null,D("frame"));'), tag);
  // The frame's script runs its about:blank program.
  const ad = site.responses.find((r) => r.url.endsWith('ad.js'))!.body.toString();
  assert.ok(ad.includes('"about:blank|1":function(){B(2);E("img","http://ads.pcp.test/p.gif");}'), ad);
});

test('a script a computation of an about: frame requests and its parent evaluates goes into the parent\'s document', () => {
  const g = adFramePage([
    res('cb', 'http://ads.pcp.test/cb.js', 'application/javascript', 300, { frame: 'ad', start: 22, end: 30 }),
    { id: 'cbev', kind: 'script_eval', scriptUrl: 'http://ads.pcp.test/cb.js', scriptKind: 'sync', start: 30, end: 31 },
    res('pixel', 'http://ads.pcp.test/p.gif', 'image/gif', 40, { start: 31, end: 40 }),
  ], [['ev', 'cb', 2], ['cb', 'cbev', 10], ['cbev', 'pixel', 2]]);
  const site = synthesizeSite(g);
  const ad = site.responses.find((r) => r.url.endsWith('ad.js'))!.body.toString();
  assert.ok(ad.includes('"about:blank|1":function(){B(2);E("script","http://ads.pcp.test/cb.js",null,null,parent.document);}'), ad);
  // It runs the page's program there.
  const cb = site.responses.find((r) => r.url.endsWith('cb.js'))!.body.toString();
  assert.ok(cb.includes('"http://www.pcp.test/|1":function(){B(1);E("img","http://ads.pcp.test/p.gif");}'), cb);
});

test("an about: frame's own document (srcdoc, or HTML its creator wrote) is given to it with its tags", () => {
  for (const docUrl of ['about:srcdoc', 'about:blank']) {
    const g = graphOf(PAGE, [
      res('doc', PAGE, 'text/html', 2000),
      { id: 'p0', kind: 'parse_chunk', docUrl: PAGE, startLine: 1, startColumn: 16, endLine: 2, endColumn: 1 },
      res('js', 'http://www.pcp.test/tag.js', 'application/javascript', 800),
      { id: 's', kind: 'script_eval', scriptUrl: 'http://www.pcp.test/tag.js', scriptKind: 'sync', start: 5, end: 6 },
      res('frame', docUrl, 'text/html', 0, { start: 6, end: 6 }),
      { id: 'fp0', kind: 'parse_chunk', docUrl, frame: 'ad', startLine: 1, startColumn: 1, endLine: 1, endColumn: 40, start: 7, end: 8 },
      res('pixel', 'http://ads.pcp.test/p"<x>.gif', 'image/gif', 40, { frame: 'ad', start: 8, end: 30 }),
    ], [['doc', 'p0', 'resource-chunk'], ['p0', 'js', 1], ['js', 's', 10], ['s', 'frame', 2], ['frame', 'fp0', 'resource-chunk'], ['fp0', 'pixel', 1]]);
    g.frames.push({ id: 'ad', url: docUrl, parent: 'main' });
    const tag = synthesizeSite(g).responses.find((r) => r.url.endsWith('tag.js'))!.body.toString();
    const call = /A\("frame",null,null,("(?:[^"\\]|\\.)*"),([01])\);/.exec(tag);
    assert.ok(call, tag);
    assert.equal(call[2], docUrl === 'about:srcdoc' ? '1' : '0');
    // The frame's HTML is a JS string (no raw angle brackets in the script), with the image's tag, its URL escaped.
    assert.ok(!call[1]!.includes('<'), call[1]);
    assert.match(JSON.parse(call[1]!), /<img src="http:\/\/ads\.pcp\.test\/p%22%3Cx%3E\.gif" alt="">/);
  }
});

test('an about: frame no resource names takes the first about: resource its parent requested before the frame ran anything (GPT)', () => {
  // The tag script makes two about:blank iframes (their resources have no child in any frame) and requests
  // gampad.js, which the second about: frame evaluates; a third frame runs nothing.
  const g = scriptPage(PAGE, 'http://www.pcp.test/gpt.js', 'application/javascript', [
    res('f1', 'about:blank', 'text/html', 0, { start: 9, end: 9 }),
    res('f2', 'about:blank', 'text/html', 0, { start: 9.5, end: 9.5 }),
    res('ads', 'http://ads.pcp.test/gampad.js', 'application/javascript', 300, { start: 10, end: 20 }),
    { id: 'ev', kind: 'script_eval', scriptUrl: 'http://ads.pcp.test/gampad.js', scriptKind: 'sync', frame: 'slot', start: 20, end: 22 },
    res('creative', 'http://ads.pcp.test/c.gif', 'image/gif', 40, { frame: 'slot', start: 22, end: 30 }),
  ], [['s', 'f1', 2], ['s', 'f2', 2], ['s', 'ads', 2], ['ads', 'ev', 10], ['ev', 'creative', 2]]);
  g.frames.push({ id: 'empty', url: 'about:blank', parent: 'main' }, { id: 'slot', url: 'about:blank', parent: 'main' });
  assert.deepEqual([...aboutFrameOwners(indexGraph(g))].map(([f, r]) => [f, r.id]), [['slot', 'f1']]);
  const tag = synthesizeSite(g).responses.find((r) => r.url.endsWith('gpt.js'))!.body.toString();
  assert.ok(tag.includes('E("script","http://ads.pcp.test/gampad.js",null,null,D("f1"));'), tag);
});

test("an about: frame's load fired inside its creator's close(): the creator resumes after the handler, and the script the handler inserts goes into the frame (www.kohls.com)", () => {
  // tag.js (s) inserts the about:blank frame and goes on (s_1); the frame's window load (comp_2) runs as
  // that part ends, inserts boom.js, which the frame evaluates; tag.js resumes after it (s_2).
  const g = scriptPage(PAGE, 'http://www.pcp.test/tag.js', 'application/javascript', [
    res('frame', 'about:blank', 'text/html', 0, { start: 9, end: 9 }),
    { id: 's_1', kind: 'script_eval', scriptUrl: 'http://www.pcp.test/tag.js', scriptKind: 'sync', start: 9, end: 10 },
    { id: 'comp_2_0', kind: 'event', eventName: 'load', eventTarget: 'Window', frame: 'ad', start: 10, end: 11 },
    res('boom', 'http://ads.pcp.test/boom.js', 'application/javascript', 300, { frame: 'ad', start: 11, end: 20 }),
    { id: 'bev', kind: 'script_eval', scriptUrl: 'http://ads.pcp.test/boom.js', scriptKind: 'sync', frame: 'ad', start: 20, end: 21 },
    { id: 'comp_2_1', kind: 'event', eventName: 'load', eventTarget: 'Window', frame: 'ad', start: 11, end: 12 },
    { id: 's_2', kind: 'script_eval', scriptUrl: 'http://www.pcp.test/tag.js', scriptKind: 'sync', start: 12, end: 13 },
    res('after', 'http://www.pcp.test/after.gif', 'image/gif', 40, { start: 13, end: 15 }),
  ], [['s', 'frame', 2], ['s', 's_1', 'split'], ['frame', 'comp_2_0', 25], ['s_1', 'comp_2_0', 25], ['comp_2_0', 'boom', 2], ['boom', 'bev', 10],
    ['comp_2_0', 'comp_2_1', 'split'], ['comp_2_1', 's_2', 'split'], ['s_2', 'after', 2]]);
  g.frames.push({ id: 'ad', url: 'about:blank', parent: 'main' });
  const site = synthesizeSite(g);
  const tag = site.responses.find((r) => r.url.endsWith('tag.js'))!.body.toString();
  assert.ok(tag.includes('A("frame",null,function(w,d){w.addEventListener("load",function(){B(1);E("script","http://ads.pcp.test/boom.js",null,null,D("frame"));B(1);});});B(1);(function(){B(1);E("img","http://www.pcp.test/after.gif");})();'), tag);
  assert.deepEqual(site.warnings.filter((w) => /s_2|after\.gif/.test(w)), []);
});

test("an about: frame whose own document the graph has (its download chunks in it) is that resource's, not an earlier about:blank one's (www.bild.de's ad)", () => {
  // tag.js makes an empty about:blank iframe (early), later the ad's about:srcdoc one (own), whose document
  // (download chunk in frame ad, as legacy graphs record it) the frame parses.
  const g = scriptPage(PAGE, 'http://www.pcp.test/tag.js', 'application/javascript', [
    res('early', 'about:blank', 'text/html', 0, { start: 9, end: 9 }),
    res('own', 'about:srcdoc', 'text/html', 100, { frame: 'ad', start: 20, end: 21 }),
    { id: 'd_ad', kind: 'download_chunk', frame: 'ad', resource: 'own', index: 0, offset: 0, size: 100, start: 21, end: 21 },
    { id: 'p_ad', kind: 'parse_chunk', docUrl: 'about:srcdoc', frame: 'ad', startLine: 1, startColumn: 1, endLine: 1, endColumn: 40, start: 22, end: 23 },
  ], [['s', 'early', 2], ['s', 'own', 2], ['own', 'd_ad', 'resource-chunk'], ['d_ad', 'p_ad', 3]]);
  g.frames.push({ id: 'ad', url: 'about:srcdoc', parent: 'main' });
  assert.deepEqual([...aboutFrameOwners(indexGraph(g))].map(([f, r]) => [f, r.id]), [['ad', 'own']]);
  // One srcdoc frame: the early resource makes an empty frame, not a second copy of the ad's.
  const tag = synthesizeSite(g).responses.find((r) => r.url.endsWith('tag.js'))!.body.toString();
  assert.ok(tag.includes('A("early",null);'), tag);
  assert.equal(tag.match(/,1\);/g)?.length, 1, tag);
});
