import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ResourceNode } from '@pcp/graph-builder';
import { PRIORITY, replayPriorities } from './replay-priority.ts';
import { indexGraph } from './graph-index.ts';
import { graphOf, res } from './testing.ts';

const PAGE = 'http://www.pcp.test/';
const U = (p: string) => `http://www.pcp.test/${p}`;

/**
 * A page whose parser requests, in order, a style sheet and a blocking script (chunk p0), an image
 * (p1), another blocking script and an async one (p2); the first script inserts a script and an
 * image, the second sends an XHR.
 */
function page() {
  const ev = (id: string, url: string, start: number, kind: 'sync' | 'async' = 'sync') => ({ id, kind: 'script_eval' as const, scriptUrl: url, scriptKind: kind, start, end: start + 5 });
  const g = graphOf(PAGE, [
    res('doc', PAGE, 'text/html', 3000, { start: 0, end: 10 }),
    { id: 'p0', kind: 'parse_chunk', docUrl: PAGE, startLine: 1, startColumn: 16, endLine: 2, endColumn: 1, start: 11, end: 12 },
    { id: 'p1', kind: 'parse_chunk', docUrl: PAGE, startLine: 2, startColumn: 1, endLine: 3, endColumn: 1, start: 60, end: 61 },
    { id: 'p2', kind: 'parse_chunk', docUrl: PAGE, startLine: 3, startColumn: 1, endLine: 4, endColumn: 1, start: 62, end: 63 },
    res('css', U('a.css'), 'text/css', 100, { start: 12, end: 30 }),
    { id: 'cssEval', kind: 'css_eval', styleUrl: U('a.css'), start: 31, end: 32 },
    res('early', U('early.js'), 'application/javascript', 100, { start: 12, end: 40 }), ev('earlyEval', U('early.js'), 41),
    res('img', U('a.png'), 'image/png', 100, { start: 61, end: 90 }),
    res('late', U('late.js'), 'application/javascript', 100, { start: 63, end: 95 }), ev('lateEval', U('late.js'), 96),
    res('async', U('async.js'), 'application/javascript', 100, { start: 63, end: 99 }), ev('asyncEval', U('async.js'), 120, 'async'),
    res('inserted', U('inserted.js'), 'application/javascript', 100, { start: 45, end: 70 }), ev('insertedEval', U('inserted.js'), 71, 'async'),
    res('byScript', U('b.png'), 'image/png', 100, { start: 45, end: 70 }),
    res('bg', U('bg.png'), 'image/png', 100, { start: 33, end: 50 }),
    res('xhr', U('data'), 'application/json', 100, { start: 102, end: 130, requestType: 'XHR' }),
  ], [['doc', 'p0', 'resource-chunk'], ['p0', 'p1', 3], ['p1', 'p2', 3], ['p0', 'css', 1], ['p0', 'early', 1], ['p1', 'img', 1], ['p2', 'late', 1], ['p2', 'async', 1],
    ['css', 'cssEval', 18], ['early', 'earlyEval', 10], ['earlyEval', 'p1', 4], ['late', 'lateEval', 10], ['lateEval', 'xhr', 2], ['async', 'asyncEval', 10],
    ['earlyEval', 'inserted', 2], ['inserted', 'insertedEval', 10], ['earlyEval', 'byScript', 2], ['cssEval', 'bg', 2]]);
  const ix = indexGraph(g);
  return replayPriorities(ix, g.nodes.filter((n): n is ResourceNode => n.kind === 'resource' && n.id !== 'doc'));
}

test("each request's priority as Blink gives it on the synthesized page", () => {
  assert.deepEqual(Object.fromEntries(page()), {
    css: PRIORITY.VeryHigh,
    early: PRIORITY.High, // parser-blocking, before any image
    img: PRIORITY.Low, // fetchpriority="low"
    late: PRIORITY.Medium, // parser-blocking, after the frame's first image (bg.png at 33)
    async: PRIORITY.Low,
    inserted: PRIORITY.Low, // a script-inserted script is async
    byScript: PRIORITY.Low,
    bg: PRIORITY.High, // a sheet's background image, visible: raised at the first layout
    xhr: PRIORITY.High,
  });
});
