import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ResourceNode } from '@pcp/graph-builder';
import { replayPriority } from './replay-priority.ts';
import { PRIORITY } from './queueing.ts';
import { indexGraph } from './graph-index.ts';
import { graphOf, res } from './testing.ts';

const PAGE = 'http://www.pcp.test/';
const U = (p: string) => `http://www.pcp.test/${p}`;

/**
 * A page whose parser requests a style sheet, a blocking script, an image, a late blocking script and
 * an async script; the sheet requests a font, the first script inserts a script and an image and sends
 * an XHR.
 */
test("each request's priority as Blink gives it on the synthesized page", () => {
  const ev = (id: string, url: string, start: number, kind: 'sync' | 'async' = 'sync') => ({ id, kind: 'script_eval' as const, scriptUrl: url, scriptKind: kind, start, end: start + 5 });
  const g = graphOf(PAGE, [
    res('doc', PAGE, 'text/html', 3000, { start: 0, end: 10 }),
    { id: 'p0', kind: 'parse_chunk', docUrl: PAGE, startLine: 1, startColumn: 16, endLine: 2, endColumn: 1, start: 11, end: 12 },
    { id: 'p1', kind: 'parse_chunk', docUrl: PAGE, startLine: 2, startColumn: 1, endLine: 3, endColumn: 1, start: 60, end: 61 },
    res('css', U('a.css'), 'text/css', 100, { start: 12, end: 30 }),
    { id: 'cssEval', kind: 'css_eval', styleUrl: U('a.css'), start: 31, end: 32 },
    res('font', U('f.woff'), 'font/woff', 100, { start: 33, end: 50 }),
    res('js', U('a.js'), 'application/javascript', 100, { start: 12, end: 40 }), ev('jsEval', U('a.js'), 41),
    res('img', U('a.png'), 'image/png', 100, { start: 13, end: 90 }),
    res('late', U('late.js'), 'application/javascript', 100, { start: 61, end: 95 }), ev('lateEval', U('late.js'), 96),
    res('async', U('async.js'), 'application/javascript', 100, { start: 61, end: 99 }), ev('asyncEval', U('async.js'), 120, 'async'),
    res('inserted', U('inserted.js'), 'application/javascript', 100, { start: 45, end: 70 }), ev('insertedEval', U('inserted.js'), 71, 'async'),
    res('byScript', U('b.png'), 'image/png', 100, { start: 45, end: 70 }),
    res('xhr', U('data'), 'application/json', 100, { start: 46, end: 130, requestType: 'XHR' }),
  ], [['doc', 'p0', 'resource-chunk'], ['p0', 'p1', 3], ['p0', 'css', 1], ['p0', 'js', 1], ['p0', 'img', 1], ['p1', 'late', 1], ['p1', 'async', 1],
    ['css', 'cssEval', 18], ['cssEval', 'font', 2], ['js', 'jsEval', 10], ['jsEval', 'p1', 4], ['late', 'lateEval', 10], ['async', 'asyncEval', 10],
    ['jsEval', 'inserted', 2], ['inserted', 'insertedEval', 10], ['jsEval', 'byScript', 2], ['jsEval', 'xhr', 2]]);
  const ix = indexGraph(g);
  const of = (id: string) => replayPriority(ix, ix.byId.get(id) as ResourceNode);
  assert.deepEqual(Object.fromEntries(['css', 'font', 'js', 'img', 'late', 'async', 'inserted', 'byScript', 'xhr'].map((id) => [id, of(id)])), {
    css: PRIORITY.VeryHigh,
    font: PRIORITY.VeryHigh,
    js: PRIORITY.High,
    img: PRIORITY.High, // raised at the next layout
    late: PRIORITY.High, // fetchpriority="high": not Medium after the first image
    async: PRIORITY.Low,
    inserted: PRIORITY.Low, // a script-inserted script is async
    byScript: PRIORITY.High,
    xhr: PRIORITY.High,
  });
});
