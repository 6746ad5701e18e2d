import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { GraphNode } from './types.ts';
import { addWrittenScripts, writtenScripts, type WrittenScriptRecords } from './legacy-written-scripts.ts';

// www.ndtv.com's raw log (seconds): pubads (computation 0x…f00, frame 375) made the about:blank frame 385
// (`Resource` 4322, sent 16557.074972; `Frame.id` 4322, its load at 16558.113248) and wrote
// `<script src=gampad/ads>` into it (the tag at 16557.080889, element 0x…f50, whose fetch 4323 went out at
// 16557.081009). The graph's clock starts at 16550.069822 (gampad's node starts at 7,011.187 ms).
const T0 = 16550.069822;
const ms = (s: number): number => (s - T0) * 1000;
const GAMPAD = 'https://securepubads.g.doubleclick.net/gampad/ads?gdfp_req=1';

function ndtv(): WrittenScriptRecords {
  return {
    tags: [
      { code: '0xf50', comp: '0xf00', frame: '385', tagName: 'script', isStartTag: 1, startTime: 16557.080889, urls: [GAMPAD] },
      // The inline script written with it names no URL; an end tag is not a start.
      { code: '0xf40', comp: '0xf00', frame: '385', tagName: 'script', isStartTag: 1, startTime: 16557.08088, urls: [] },
      { code: '0xf50', comp: '0xf00', frame: '385', tagName: 'script', isStartTag: 0, startTime: 16557.0809, urls: [GAMPAD] },
    ],
    frames: new Map([['385', { id: 4322, loadTime: 16558.113248 }], ['375', { id: 1, loadTime: 16559.2 }]]),
    computationFrames: new Map([['0xf00', '375'], ['0xa00', '385']]),
    resources: [
      { id: 1, url: 'http://www.ndtv.com/', sentTime: T0, from: '(nil)' },
      { id: 4322, url: 'about:blank', sentTime: 16557.074972, from: '0xe40' },
      { id: 4323, url: GAMPAD, sentTime: 16557.081009, from: '0xf50' },
    ],
  };
}

test("a <script src> another frame's computation wrote into an about: frame that was still loading (ndtv's gampad/ads)", () => {
  const [w, ...rest] = writtenScripts(ndtv(), ms);
  assert.equal(rest.length, 0);
  assert.equal(w!.url, GAMPAD);
  assert.equal(w!.at.toFixed(3), '7011.067');
  assert.equal(w!.sent!.toFixed(3), '7011.187');
  assert.deepEqual({ url: w!.document.url, sent: w!.document.sent.toFixed(3) }, { url: 'about:blank', sent: '7005.150' });
});

test('not written so: the frame\'s own computation, the parser (nil), a frame loaded before the tag, a frame of an http document', () => {
  const own = ndtv();
  own.tags[0]!.comp = '0xa00';
  assert.deepEqual(writtenScripts(own, ms), []);
  const parsed = ndtv();
  parsed.tags[0]!.comp = '(nil)';
  assert.deepEqual(writtenScripts(parsed, ms), []);
  // www.gsmarena.com's: written 30 s after its frame had loaded; nothing waited for it.
  const late = ndtv();
  late.frames.set('385', { id: 4322, loadTime: 16557.0 });
  assert.deepEqual(writtenScripts(late, ms), []);
  const http = ndtv();
  http.resources[1]!.url = 'http://ads.test/frame.html';
  assert.deepEqual(writtenScripts(http, ms), []);
});

test('the script resource gets extra.writtenInto naming the about: resource node, matched by URL and start', () => {
  const node = (id: string, url: string, start: number): GraphNode => ({ id, kind: 'resource', url, start, end: start + 1, mimeType: 'text/html', size: 0, method: 'GET', status: 200, cached: false } as GraphNode);
  // Two about:blank frames 0.5 ms apart (taboola's, GPT's): the one sent at 7,005.150 is GPT's.
  const nodes = [node('download_117', 'about:blank', 7004.6), node('download_136', 'about:blank', 7005.2), node('download_139', GAMPAD, 7011.187)];
  addWrittenScripts(nodes, writtenScripts(ndtv(), ms));
  assert.deepEqual(nodes[2]!.extra, { writtenInto: { document: 'download_136', at: 7011.067 } });
  assert.equal(nodes[0]!.extra, undefined);
  // No node of the fetch: nothing recorded.
  const none = [node('download_136', 'about:blank', 7005.2), node('other', GAMPAD, 7100)];
  addWrittenScripts(none, writtenScripts(ndtv(), ms));
  assert.equal(none[1]!.extra, undefined);
});
