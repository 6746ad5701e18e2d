import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compareRoundTrip } from './compare.ts';
import { graphOf, res } from './testing.ts';

const PAGE = 'http://www.pcp.test/';
const chunk = (id: string, line: number, start: number) => ({ id, kind: 'parse_chunk' as const, docUrl: PAGE, startLine: line, startColumn: 1, endLine: line, endColumn: 9, start, end: start });
const dl = (id: string, index: number) => ({ id, kind: 'download_chunk' as const, resource: 'doc', index, offset: index * 10, size: 10 });

/** One chunk declaring a sheet and its import (the source), or a chunk each (`cut`: the rebuilt page's two tags). */
function page(cut: boolean) {
  const sheets = [res('a', 'http://www.pcp.test/a.css', 'text/css', 10, { start: 2 }), res('b', 'http://www.pcp.test/b.css', 'text/css', 10, { start: 3 }), res('i', 'http://www.pcp.test/i.png', 'image/png', 10, { start: 5 })];
  if (!cut) {
    return graphOf(PAGE, [res('doc', PAGE, 'text/html', 100), chunk('p0', 1, 1), chunk('p1', 5, 4), dl('d0', 0), dl('d1', 1), ...sheets],
      [['doc', 'd0', 'resource-chunk'], ['d0', 'd1', 9], ['d0', 'p0', 3], ['d1', 'p1', 3], ['p0', 'p1', 3], ['p0', 'a', 1], ['p0', 'b', 1], ['p1', 'i', 1]]);
  }
  return graphOf(PAGE, [res('doc', PAGE, 'text/html', 100), chunk('p0', 1, 1), chunk('pb', 2, 2), chunk('p1', 5, 4), dl('d0', 0), dl('db', 1), dl('d1', 2), ...sheets],
    [['doc', 'd0', 'resource-chunk'], ['d0', 'db', 9], ['db', 'd1', 9], ['d0', 'p0', 3], ['db', 'pb', 3], ['d1', 'p1', 3], ['p0', 'pb', 3], ['pb', 'p1', 3], ['p0', 'a', 1], ['pb', 'b', 1], ['p1', 'i', 1]]);
}

test('a chunk the other side declares in the chunk before it is one chunk with that one, on either side', () => {
  for (const [source, built] of [[page(false), page(true)], [page(true), page(false)]] as const) {
    const f = compareRoundTrip(source, built);
    assert.equal(f.edgePrecision, 1);
    assert.equal(f.edgeRecall, 1);
    assert.equal(f.parentAgreement, 1);
  }
});

test('a chunk whose resources the other side declares elsewhere is not merged', () => {
  // The rebuilt page declares b.css with the image, not with a.css: its own chunk stays apart, its edges missed.
  const built = page(true);
  built.edges = built.edges.filter((e) => !(e.from === 'pb' && e.to === 'b'));
  built.edges.push({ from: 'p1', to: 'b', rule: 1 });
  const f = compareRoundTrip(page(false), built);
  assert.ok(f.edgeRecall < 1);
  assert.ok(f.parentAgreement < 1);
});

test('a chunk the other side declares in the chunk after it (the tags in the other order) is one chunk with that one, on either side', () => {
  // The rebuilt page writes b.css's tag before a.css's: a chunk declaring b.css, then one declaring a.css.
  const reordered = () => {
    const g = page(true);
    g.edges = g.edges.filter((e) => e.from !== 'p0' && e.from !== 'pb' || e.rule === 3);
    g.edges.push({ from: 'p0', to: 'b', rule: 1 }, { from: 'pb', to: 'a', rule: 1 });
    for (const n of g.nodes) if (n.id === 'a' || n.id === 'b') n.start = n.id === 'a' ? 3 : 2;
    return g;
  };
  for (const [source, built] of [[page(false), reordered()], [reordered(), page(false)]] as const) {
    const f = compareRoundTrip(source, built);
    assert.deepEqual(f.edgeMisses, { missing: [], extra: [] });
    assert.equal(f.parentAgreement, 1);
  }
});
