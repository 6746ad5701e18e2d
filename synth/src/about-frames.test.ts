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
  assert.ok(js.includes('A(null,function(w,d){w.addEventListener("load",function(){B(2);E("img","http://www.pcp.test/b.gif");});});'), js);
});
