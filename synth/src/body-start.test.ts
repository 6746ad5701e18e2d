import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Graph } from '@pcp/graph-builder';
import { bodyStartsOf } from './body-start.ts';
import { synthesizeSite } from './site.ts';
import { graphOf, res } from './testing.ts';

const PAGE = 'http://www.pcp.test/';

/** A head script (chunk ending on line 3) and a body script (line 12); the source's body tag ended at line 9, column 20 (on p0). */
function twoScripts(bodyStart?: { line: number; column: number }): Graph {
  return graphOf(PAGE, [
    res('doc', PAGE, 'text/html', 3000),
    { id: 'p0', kind: 'parse_chunk', docUrl: PAGE, startLine: 1, startColumn: 16, endLine: 3, endColumn: 5, ...(bodyStart ? { extra: { bodyStart } } : {}) },
    res('head', 'http://www.pcp.test/head.js', 'application/javascript', 500),
    { id: 'p1', kind: 'parse_chunk', docUrl: PAGE, startLine: 3, startColumn: 5, endLine: 12, endColumn: 3 },
    res('body', 'http://www.pcp.test/body.js', 'application/javascript', 500),
  ], [['doc', 'p0', 'resource-chunk'], ['p0', 'head', 1], ['p0', 'p1', 3], ['p1', 'body', 1]]);
}

test("the body starts a graph's parse chunks carry, by document URL (fragment stripped), the first one", () => {
  const g = twoScripts({ line: 9, column: 20 });
  const p1 = g.nodes.find((n) => n.id === 'p1')!;
  p1.extra = { bodyStart: { line: 40, column: 1 } };
  g.nodes.push({ ...p1, id: 'f0', docUrl: 'http://ads.pcp.test/frame.html#x', extra: { bodyStart: { line: 1, column: 93 } } } as typeof p1);
  g.nodes.push({ ...p1, id: 'bad', docUrl: 'http://bad.pcp.test/', extra: { bodyStart: 'line 3' } } as typeof p1);
  assert.deepEqual([...bodyStartsOf(g)], [
    [PAGE, { line: 9, column: 20 }],
    ['http://ads.pcp.test/frame.html', { line: 1, column: 93 }],
  ]);
  assert.equal(bodyStartsOf(twoScripts()).size, 0);
});

const pageHtml = (site: ReturnType<typeof synthesizeSite>): string => site.responses.find((r) => r.url === PAGE)!.body.toString('utf8');

test('the synthesized document has its <body> tag where the source had it, between the head and the body requests', () => {
  const g = twoScripts({ line: 9, column: 20 });
  const html = pageHtml(synthesizeSite(g, { bodyStarts: bodyStartsOf(g) }));
  const at = html.indexOf('<body>');
  assert.ok(at > html.indexOf('head.js') && at < html.indexOf('body.js'), html.slice(0, 400));
  const lines = html.slice(0, at + '<body>'.length).split('\n');
  assert.equal(lines.length, 9);
  assert.equal(lines.at(-1)!.length, 19); // the tag ends before column 20, as the source's did
  // Without the source's body start (a trace graph, no raw log): no <body> tag, as before.
  assert.ok(!pageHtml(synthesizeSite(twoScripts())).includes('<body>'));
  // A body after every chunk's tags: none written (the parser makes the body at the end, as it would have).
  assert.ok(!pageHtml(synthesizeSite(twoScripts(), { bodyStarts: new Map([[PAGE, { line: 90, column: 1 }]]) })).includes('<body>'));
});
