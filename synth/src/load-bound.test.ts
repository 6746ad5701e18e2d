import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ResourceNode } from '@pcp/graph-builder';
import { indexGraph } from './graph-index.ts';
import { endedByFrameLoad } from './load-bound.ts';
import { servedSpan } from './ran-early.ts';
import { synthesizeSite } from './site.ts';
import { graphOf, res } from './testing.ts';

const PAGE = 'http://www.pcp.test/';
const FONT = 'http://cdn.pcp.test/motiva-sans-light-italic.ttf';
const XHR = 'http://www.pcp.test/apps/allcontenthome';
const TAG = 'http://cdn.pcp.test/tag.js';
const SCA = 'http://cdn.pcp.test/sca.js';

/**
 * steamcommunity.com's shape: the parser requests a download at 5,176 ms recorded ending at `fontEnd`; a
 * script run at 5,300 ms requests an XHR (5,349-5,997, its readystatechange at 5,998) and inserts sca.js
 * (5,310-9,000, run at 9,001); the window load fires at 5,767 ms.
 */
function page(fontEnd: number) {
  return graphOf(PAGE, [
    res('doc', PAGE, 'text/html', 3000, { start: 0, end: 50 }),
    { id: 'p0', kind: 'parse_chunk', docUrl: PAGE, startLine: 1, startColumn: 16, endLine: 2, endColumn: 1, start: 5170, end: 5176 },
    res('font', FONT, 'image/png', 123892, { start: 5176, end: fontEnd }),
    res('tag', TAG, 'text/javascript', 500, { start: 5176, end: 5290 }),
    { id: 's', kind: 'script_eval', scriptUrl: TAG, scriptKind: 'sync', start: 5300, end: 5310 },
    res('xhr', XHR, 'application/json', 106291, { start: 5349, end: 5997 }),
    { id: 'rsc', kind: 'event', eventName: 'readystatechange', eventTarget: 'XMLHttpRequest', start: 5998, end: 5999 },
    res('sca', SCA, 'text/javascript', 500, { start: 5310, end: 9000 }),
    { id: 's2', kind: 'script_eval', scriptUrl: SCA, scriptKind: 'sync', start: 9001, end: 9002 },
    { id: 'winload', kind: 'event', eventName: 'load', eventTarget: 'Window', start: 5767, end: 5768 },
  ], [['doc', 'p0', 'resource-chunk'], ['p0', 'font', 1], ['p0', 'tag', 1], ['tag', 's', 10], ['s', 'xhr', 2], ['xhr', 'rsc', 25],
    ['s', 'sca', 2], ['sca', 's2', 10], ['font', 'winload', 25]]);
}
const node = (g: ReturnType<typeof page>, id: string): ResourceNode => g.nodes.find((n) => n.id === id) as ResourceNode;

test('a download its frame load fired during ends at the load: 5,176-5,882 ms with the load at 5,767 serves 591 ms', () => {
  const g = page(5882);
  assert.equal(endedByFrameLoad(indexGraph(g), node(g, 'font')).end, 5767);
  assert.equal(servedSpan(indexGraph(g), node(g, 'font')).end, 5767);
  const font = synthesizeSite(g).responses.find((r) => r.url === FONT)!;
  assert.equal(font.chunks!.at(-1)![0], 591);
});

test('one ending before the load, or within 20 ms after it, keeps its span', () => {
  for (const end of [5700, 5780]) {
    const g = page(end);
    assert.equal(endedByFrameLoad(indexGraph(g), node(g, 'font')), node(g, 'font'));
    assert.equal(synthesizeSite(g).responses.find((r) => r.url === FONT)!.chunks!.at(-1)![0], end - 5176);
  }
});

test('a video keeps its span: its element holds the load only until its metadata', () => {
  const g = page(5882);
  const video = { ...node(g, 'font'), url: 'http://cdn.pcp.test/homepage.mp4', mimeType: 'video/mp4' };
  assert.equal(endedByFrameLoad(indexGraph(g), video), video);
});

test('an XHR and a script a computation inserts (its own about:blank frame) keep theirs: no load waits for them', () => {
  const g = page(5882);
  const ix = indexGraph(g);
  assert.equal(endedByFrameLoad(ix, node(g, 'xhr')).end, 5997);
  assert.equal(endedByFrameLoad(ix, node(g, 'sca')).end, 9000);
  const site = synthesizeSite(g);
  assert.equal(site.responses.find((r) => r.url === SCA)!.chunks!.at(-1)![0], 3690);
  assert.equal(site.responses.find((r) => r.url === XHR)!.chunks!.at(-1)![0], 648);
});
