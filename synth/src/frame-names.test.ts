import { test } from 'node:test';
import assert from 'node:assert/strict';
import { contentKeys, indexGraph, requestedByManyDocs } from './graph-index.ts';
import { firstActivityByFrame, frameNames } from './frame-names.ts';
import { graphOf, res } from './testing.ts';

const PAGE = 'http://www.pcp.test/';
const AD = 'http://ads.pcp.test/frame.html';

/** The page with two frames of one URL, each parsing a chunk and running an inline script; `order` says which frame starts first. */
function twoAdFrames(order: ['a' | 'b', 'a' | 'b'], extra: Parameters<typeof graphOf>[1] = [], extraEdges: Parameters<typeof graphOf>[2] = []): ReturnType<typeof graphOf> {
  const t = (f: 'a' | 'b'): number => (order[0] === f ? 10 : 20);
  const frame = (f: 'a' | 'b') => [
    res(`doc_${f}`, AD, 'text/html', 100, { frame: f, start: t(f) }),
    { id: `p_${f}`, kind: 'parse_chunk' as const, frame: f, docUrl: AD, startLine: 1, startColumn: 1, endLine: 1, endColumn: 9, start: t(f) + 1 },
    { id: `s_${f}`, kind: 'script_eval' as const, frame: f, scriptUrl: AD, scriptKind: 'sync' as const, start: t(f) + 2, end: t(f) + 3 },
  ];
  return graphOf(PAGE, [res('doc', PAGE, 'text/html', 100), ...frame('a'), ...frame('b'), res(`img_a`, 'http://ads.pcp.test/a.png', 'image/png', 9, { frame: 'a', start: 40 }), ...extra],
    [['p_a', 's_a', 12], ['p_b', 's_b', 12], ['s_a', 'img_a', 2], ...extraEdges],
    [{ id: 'main', url: PAGE, parent: null }, { id: 'a', url: `${AD}#x`, parent: 'main' }, { id: 'b', url: `${AD}#y`, parent: 'main' }]);
}

test('frames of one URL are named apart by their order of first activity, the first with the plain URL', () => {
  const names = frameNames(indexGraph(twoAdFrames(['a', 'b'])));
  assert.equal(names.get('main'), PAGE);
  assert.equal(names.get('a'), AD);
  assert.equal(names.get('b'), `${AD} [1]`);
  assert.equal(frameNames(indexGraph(twoAdFrames(['b', 'a']))).get('a'), `${AD} [1]`);
});

test("each frame's first activity is its earliest node's start; frames without nodes have none", () => {
  const g = twoAdFrames(['b', 'a']);
  g.frames.push({ id: 'empty', url: 'about:blank', parent: 'main' });
  const first = firstActivityByFrame(indexGraph(g));
  assert.deepEqual([first.get('main'), first.get('a'), first.get('b'), first.has('empty')], [0, 20, 10, false]);
});

test("each frame's chunks and scripts are keyed within its own document, not interleaved with the other's", () => {
  const k = contentKeys(indexGraph(twoAdFrames(['a', 'b'])), true);
  // One frame's chunk is keyed by its own script, not by position in a list both frames' chunks share.
  assert.equal(k.get('p_a'), `parse ${AD} @ script ${AD} in ${AD}#0`);
  assert.equal(k.get('p_b'), `parse ${AD} [1] @ script ${AD} in ${AD} [1]#0`);
  assert.equal(k.get('s_b'), `script ${AD} in ${AD} [1]#0`);
});

test("frames of the page's own URL keep it (a legacy graph may hold the page's work in such a frame)", () => {
  const g = graphOf(PAGE, [res('doc', PAGE, 'text/html', 100), { id: 's', kind: 'script_eval', frame: 'own', scriptUrl: PAGE, scriptKind: 'sync', start: 1, end: 2 }], [],
    [{ id: 'main', url: PAGE, parent: null }, { id: 'own', url: PAGE, parent: 'main' }]);
  const names = frameNames(indexGraph(g));
  assert.equal(names.get('own'), PAGE);
  assert.equal(names.get('main'), PAGE);
});

test("a URL each frame of one document URL requests is keyed by its frame, not by the order of the frames' requests", () => {
  const LIB = 'http://ads.pcp.test/abg.js';
  // Frame b requests its copy first (at 30, a's at 50): by order alone b's would be the URL's #0.
  const ix = indexGraph(twoAdFrames(['a', 'b'], [res('lib_b', LIB, 'application/javascript', 9, { frame: 'b', start: 30 }), res('lib_a', LIB, 'application/javascript', 9, { frame: 'a', start: 50 })],
    [['s_a', 'lib_a', 2], ['s_b', 'lib_b', 2]]));
  assert.deepEqual([...requestedByManyDocs(ix)], [LIB]);
  const k = contentKeys(ix, true);
  assert.equal(k.get('lib_a'), `resource ${LIB} from ${AD}#0`);
  assert.equal(k.get('lib_b'), `resource ${LIB} from ${AD} [1]#0`);
  // The frames' own documents stay keyed by URL and order (the builders put them in different frames).
  assert.equal(k.get('doc_a'), `resource ${AD}#0`);
});
