import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ResourceNode } from '@pcp/graph-builder';
import { aboutFrameOwners } from './about-frames.ts';
import { indexGraph } from './graph-index.ts';
import { roundTrip } from './roundtrip.ts';
import { synthesizeSite } from './site.ts';
import { res, scriptPage } from './testing.ts';
import { writtenFrames, writtenIntoOf, writtenScriptJs } from './written-scripts.ts';

const CHROMIUM = existsSync('/usr/bin/chromium');
const PAGE = 'http://www.pcp.test/';
const PUBADS = 'http://www.pcp.test/pubads.js';
const GAMPAD = 'http://ads.pcp.test/gampad/ads?a=1&b="2"';

/**
 * www.ndtv.com's shape: pubads.js (run at 8 ms) makes two about:blank iframes (taboola's `f117` at 9 ms, GPT's
 * `f136` at 9.5) and, at 10 ms, writes `<script src=gampad/ads>` into f136's document (`extra.writtenInto`);
 * the frame `slot` evaluates it when its `spanMs` download ends and then requests a creative.
 */
function ndtv(spanMs: number, written = true) {
  const g = scriptPage(PAGE, PUBADS, 'application/javascript', [
    res('f117', 'about:blank', 'text/html', 0, { start: 9, end: 9 }),
    res('f136', 'about:blank', 'text/html', 0, { start: 9.5, end: 9.5 }),
    res('gampad', GAMPAD, 'application/javascript', 400, { start: 10, end: 10 + spanMs, ...(written ? { extra: { writtenInto: { document: 'f136', at: 10 } } } : {}) }),
    { id: 'ev', kind: 'script_eval', scriptUrl: GAMPAD, scriptKind: 'sync', frame: 'slot', start: 10 + spanMs, end: 12 + spanMs },
    res('creative', 'http://ads.pcp.test/c.gif', 'image/gif', 40, { frame: 'slot', start: 12 + spanMs, end: 20 + spanMs }),
  ], [['s', 'f117', 2], ['s', 'f136', 2], ['s', 'gampad', 2], ['gampad', 'ev', 10], ['ev', 'creative', 2]]);
  g.frames.push({ id: 'empty', url: 'about:blank', parent: 'main' }, { id: 'slot', url: 'about:blank', parent: 'main' });
  return g;
}
const js = (g: ReturnType<typeof ndtv>, url: string): string => synthesizeSite(g).responses.find((r) => r.url.startsWith(url.replace(/\?.*/, '')))!.body.toString();

test('the recorded about: frame owns the frame that evaluates a script written into it, not the first about: frame (ndtv)', () => {
  const ix = indexGraph(ndtv(100));
  assert.equal(writtenIntoOf(ix, ix.byId.get('gampad') as ResourceNode)?.id, 'f136');
  assert.deepEqual([...aboutFrameOwners(ix)].map(([f, r]) => [f, r.id]), [['slot', 'f136']]);
  assert.deepEqual([...writtenFrames(ix, () => false)], ['f136']);
  assert.deepEqual([...writtenFrames(ix, () => true)], [], 'a frame with HTML of its own is not opened again');
  // Without the record the heuristic gives the first about: resource (about-frames.ts).
  assert.deepEqual([...aboutFrameOwners(indexGraph(ndtv(100, false)))].map(([f, r]) => [f, r.id]), [['slot', 'f117']]);
});

test("the writer opens the frame's document, writes the script's tag and closes it where it requested the script (ndtv)", () => {
  const tag = js(ndtv(100), PUBADS);
  // Both frames made bare, then the write, in the order pubads.js ran them.
  assert.ok(tag.includes('A("f117",null);A("f136",null);O(D("f136"),"http://ads.pcp.test/gampad/ads?a=1&b=%222%22");'), tag);
  // The helper writes a parser-inserted tag (the URL escaped for HTML), between open and close; E is its fallback.
  assert.match(tag, /var O=function\(d,u,f,g,w\)\{if\(!d\)return E\("script",u,f,g\);d\.open\(\);/);
  assert.ok(tag.includes('d.write("<scr"+"ipt src=\\""+u.replace(/&/g,"&amp;").replace(/"/g,"&quot;")+"\\"></scr"+"ipt>")') && tag.includes('d.close()'), tag);
  assert.ok(tag.includes('var E=') && tag.includes('var W=') && tag.includes('var D='), tag);
  // The frame's program runs under its about:blank document.
  assert.ok(js(ndtv(100), GAMPAD).includes('"about:blank|1":function(){B(2);E("img","http://ads.pcp.test/c.gif");}'));
  // Without the record: appended into the first about: frame, as before.
  assert.ok(js(ndtv(100, false), PUBADS).includes('E("script","http://ads.pcp.test/gampad/ads?a=1&b=%222%22",null,null,D("f117"));'));
});

test("the handlers of the frame that no script of its own installs go in with the writer, between open and write, not when the frame is made", () => {
  // A window load of `slot` before gampad runs there (its first script would install it otherwise).
  const g = ndtv(100);
  g.nodes.push({ id: 'wl', kind: 'event', eventName: 'load', eventTarget: 'Window', frame: 'slot', start: 11, end: 13 } as never);
  g.edges.push({ from: 'f136', to: 'wl', rule: 25 });
  const tag = js(g, PUBADS);
  assert.ok(tag.includes('A("f136",null);'), tag);
  assert.ok(tag.includes('O(D("f136"),"http://ads.pcp.test/gampad/ads?a=1&b=%222%22",null,null,function(w,d){w.addEventListener("load",function(){B(2);});});'), tag);
  assert.equal(writtenScriptJs('f', '"u"', ['h']), 'O(D("f"),"u",h);');
});

test('in Chromium the page load waits for a script written into a blank frame, and not for one appended there', { skip: !CHROMIUM && 'no Chromium', timeout: 300_000 }, async () => {
  const SPAN_MS = 3000;
  const work = mkdtempSync(join(tmpdir(), 'pcp-written-'));
  try {
    const loads: Record<string, { load: number; end: number }> = {};
    for (const written of [true, false]) {
      const file = join(work, `g-${written}.json`);
      writeFileSync(file, JSON.stringify(ndtv(SPAN_MS, written)));
      const rt = await roundTrip(file, join(work, `rt-${written}`));
      const gampad = rt.built.nodes.find((n): n is ResourceNode => n.kind === 'resource' && n.url.startsWith('http://ads.pcp.test/gampad/'));
      const load = rt.built.nodes.find((n) => n.id === rt.built.markers?.load);
      assert.ok(gampad && load, 'gampad and the load event are in the rebuilt graph');
      assert.ok(rt.built.nodes.some((n) => n.kind === 'script_eval' && n.scriptUrl?.startsWith('http://ads.pcp.test/gampad/')), 'gampad ran');
      loads[String(written)] = { load: load.start, end: gampad.end };
    }
    const w = loads.true!;
    const a = loads.false!;
    assert.ok(w.load >= w.end, `written: load at ${w.load} ms before gampad's end ${w.end} ms`);
    assert.ok(a.load < a.end, `appended: load at ${a.load} ms waited for gampad (ends ${a.end} ms)`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
});
