import { test } from 'node:test';
import assert from 'node:assert/strict';
import { aboutFrameOwners, isAboutUrl } from './about-frames.ts';
import { indexGraph } from './graph-index.ts';
import { synthesizeSite } from './site.ts';
import { res, scriptPage } from './testing.ts';

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

test('a script a computation of the parent frame requests and the about: frame evaluates goes into that frame\'s document', () => {
  const g = scriptPage(PAGE, 'http://www.pcp.test/tag.js', 'application/javascript', [
    res('frame', 'about:blank', 'text/html', 0, { start: 9, end: 9 }),
    res('ad', 'http://ads.pcp.test/ad.js', 'application/javascript', 300, { start: 10, end: 20 }),
    { id: 'ev', kind: 'script_eval', scriptUrl: 'http://ads.pcp.test/ad.js', scriptKind: 'sync', frame: 'ad', start: 20, end: 22 },
    res('pixel', 'http://ads.pcp.test/p.gif', 'image/gif', 40, { frame: 'ad', start: 22, end: 30 }),
  ], [['s', 'frame', 2], ['frame', 'ev', 10], ['s', 'ad', 2], ['ad', 'ev', 10], ['ev', 'pixel', 2]]);
  g.frames.push({ id: 'ad', url: 'about:blank', parent: 'main' });
  const site = synthesizeSite(g);
  const tag = site.responses.find((r) => r.url.endsWith('tag.js'))!.body.toString();
  assert.ok(tag.includes('A("frame",null);') && tag.includes('E("script","http://ads.pcp.test/ad.js",null,null,D("frame"));'), tag);
  // The frame's script runs its about:blank program.
  const ad = site.responses.find((r) => r.url.endsWith('ad.js'))!.body.toString();
  assert.ok(ad.includes('"about:blank|1":function(){B(2);E("img","http://ads.pcp.test/p.gif");}'), ad);
});
