import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { legacySites } from '@pcp/graph-builder';
import { bodyStartsOfLegacyGraph, bodyStartsOfLog } from './body-start.ts';
import { synthesizeSite } from './site.ts';
import { graphOf, res } from './testing.ts';

const PAGE = 'http://www.pcp.test/';

const token = (o: Record<string, unknown>): string =>
  JSON.stringify({ ObjectHash: { code: '0x1', comp: '(nil)', doc: PAGE, frame: '1', row: 9, column: 20, tagName: 'body', startTime: 1, endTime: 1, urls: [], pos: 300, isStartTag: 1, isFragment: 0, ...o } });

test('the body start tag of each document the network parser read: 0-based rows become 1-based lines', () => {
  const log = [
    '{"page": "http://www.pcp.test/"}',
    token({ tagName: 'head', row: 1 }),
    token({ comp: '0x7f00', row: 3 }), // written by a script
    token({ isFragment: 1, row: 4 }), // innerHTML
    token({ isStartTag: 0, row: 5 }), // an end tag
    token({}),
    token({ row: 40 }), // a second body start tag: the first one counts
    token({ doc: 'http://ads.pcp.test/frame.html#x', row: 0, column: 93 }),
    'not json "ObjectHash" "body"',
  ].join('\n');
  assert.deepEqual([...bodyStartsOfLog(log)], [
    [PAGE, { line: 10, column: 20 }],
    ['http://ads.pcp.test/frame.html', { line: 1, column: 93 }],
  ]);
  assert.equal(bodyStartsOfLog('').size, 0);
});

/** A head script (chunk ending on line 3) and a body script (line 12); the source's body tag ended at line 9, column 20. */
function twoScripts() {
  return graphOf(PAGE, [
    res('doc', PAGE, 'text/html', 3000),
    { id: 'p0', kind: 'parse_chunk', docUrl: PAGE, startLine: 1, startColumn: 16, endLine: 3, endColumn: 5 },
    res('head', 'http://www.pcp.test/head.js', 'application/javascript', 500),
    { id: 'p1', kind: 'parse_chunk', docUrl: PAGE, startLine: 3, startColumn: 5, endLine: 12, endColumn: 3 },
    res('body', 'http://www.pcp.test/body.js', 'application/javascript', 500),
  ], [['doc', 'p0', 'resource-chunk'], ['p0', 'head', 1], ['p0', 'p1', 3], ['p1', 'body', 1]]);
}

const pageHtml = (site: ReturnType<typeof synthesizeSite>): string => site.responses.find((r) => r.url === PAGE)!.body.toString('utf8');

test('the synthesized document has its <body> tag where the source had it, between the head and the body requests', () => {
  const html = pageHtml(synthesizeSite(twoScripts(), { bodyStarts: new Map([[PAGE, { line: 9, column: 20 }]]) }));
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

test('a graph of the legacy corpus: body starts from its raw log; any other file: none', (t) => {
  const site = (() => {
    try {
      return legacySites().find((s) => s.slug === 'www.kickstarter.com');
    } catch {
      return undefined;
    }
  })();
  if (!site || !existsSync(site.raw)) return t.skip('legacy corpus not on this machine');
  // Its log: {"tagName": "body", "row": 175, "column": 233, "isStartTag": 1} in https://www.kickstarter.com/.
  assert.deepEqual(bodyStartsOfLegacyGraph(site.graph)?.get('https://www.kickstarter.com/'), { line: 176, column: 233 });
  assert.equal(bodyStartsOfLegacyGraph('/nonexistent/graph.json'), undefined);
});
