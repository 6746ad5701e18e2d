import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compareRoundTrip } from './compare.ts';
import { graphOf, res } from './testing.ts';

const PAGE = 'http://www.pcp.test/';

function page(opts: { withImage: boolean; imageParent: 'p0' | 's'; idSuffix?: string }) {
  const x = opts.idSuffix ?? '';
  const nodes = [
    res(`doc${x}`, PAGE, 'text/html', 100, { end: 10 }),
    { id: `p0${x}`, kind: 'parse_chunk' as const, docUrl: PAGE, startLine: 1, startColumn: 1, endLine: 2, endColumn: 1, start: 10, end: 12 },
    res(`js${x}`, 'http://www.pcp.test/a.js', 'application/javascript', 10, { start: 12, end: 40 }),
    { id: `s${x}`, kind: 'script_eval' as const, scriptUrl: 'http://www.pcp.test/a.js', scriptKind: 'sync' as const, start: 40, end: 60 },
    ...(opts.withImage ? [res(`img${x}`, 'http://img.pcp.test/i.png', 'image/png', 10, { start: 61, end: 90 })] : []),
  ];
  const edges: [string, string, number | string][] = [[`doc${x}`, `p0${x}`, 'resource-chunk'], [`p0${x}`, `js${x}`, 1], [`js${x}`, `s${x}`, 10], [`s${x}`, 'load', 25]];
  if (opts.withImage) edges.push([`${opts.imageParent}${x}`, `img${x}`, opts.imageParent === 's' ? 2 : 1], [`img${x}`, 'load', 25]);
  return graphOf(PAGE, nodes, edges);
}

test('a graph against itself, under other node ids, agrees everywhere', () => {
  const f = compareRoundTrip(page({ withImage: true, imageParent: 's' }), page({ withImage: true, imageParent: 's', idSuffix: '_b' }));
  assert.equal(f.resourceJaccard, 1);
  assert.equal(f.parentAgreement, 1);
  assert.equal(f.edgePrecision, 1);
  assert.equal(f.edgeRecall, 1);
  assert.equal(f.criticalPathJaccard, 1);
  assert.deepEqual(f.byRule['2'], { found: 1, source: 1 });
});

test('a missing resource and a different parent are counted and named', () => {
  const missing = compareRoundTrip(page({ withImage: true, imageParent: 's' }), page({ withImage: false, imageParent: 's' }));
  assert.equal(missing.resourceJaccard, 2 / 3);
  assert.deepEqual(missing.missingResources, ['http://img.pcp.test/i.png']);
  assert.ok(missing.edgeRecall < 1);
  assert.equal(missing.edgePrecision, 1);
  const moved = compareRoundTrip(page({ withImage: true, imageParent: 's' }), page({ withImage: true, imageParent: 'p0' }));
  assert.equal(moved.parentAgreement, 1 / 2);
  assert.equal(moved.parentMisses[0]!.url, 'http://img.pcp.test/i.png');
  assert.match(moved.parentMisses[0]!.source[0]!, /^script http:\/\/www\.pcp\.test\/a\.js/);
  assert.match(moved.parentMisses[0]!.built[0]!, /^parse http:\/\/www\.pcp\.test\/ @ resource http:\/\/www\.pcp\.test\/a\.js#0/);
  assert.deepEqual(moved.byRule['2'], { found: 0, source: 1 });
});

test("a call into another script's function (rules 14-16) is scored as part of its caller", () => {
  // Legacy: a.js calls a function of the page's inline code, which requests the image (a.js -> call -> img).
  const legacy = page({ withImage: false, imageParent: 's' });
  legacy.nodes.push(
    { id: 'call', kind: 'script_eval', scriptUrl: PAGE, scriptKind: 'sync', frame: 'main', start: 45, end: 46 },
    { ...(res('img', 'http://img.pcp.test/i.png', 'image/png', 10) as Extract<typeof legacy.nodes[number], { kind: 'resource' }>), frame: 'main', start: 61, end: 90 },
  );
  legacy.edges.push({ from: 's', to: 'call', rule: 14 }, { from: 'call', to: 'img', rule: 2 });
  // Trace: the call is part of a.js's evaluation, which requests the image.
  const f = compareRoundTrip(legacy, page({ withImage: true, imageParent: 's', idSuffix: '_b' }));
  assert.equal(f.parentAgreement, 1);
  assert.equal(f.byRule['14'], undefined);
  assert.deepEqual(f.byRule['2'], { found: 1, source: 1 });
});
