import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compareRoundTrip, matchGraphs } from './compare.ts';
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

/**
 * A chunk that declares nothing between two that declare an image each: the 2016 builder's cut at an
 * element an event later targeted (`blur`, hung off the chunk), or, `afterScript`, the chunk where the
 * parser resumed after an inline script. `cut` false: the trace builder's two chunks, no cut between.
 */
function undeclared(cut: boolean, afterScript = false) {
  const imgs = [res('a', 'http://www.pcp.test/a.png', 'image/png', 10, { start: 2 }), res('b', 'http://www.pcp.test/b.png', 'image/png', 10, { start: 6 })];
  const script = afterScript ? [{ id: 's', kind: 'script_eval' as const, scriptUrl: PAGE, scriptKind: 'inline' as const, start: 2, end: 3 }] : [];
  const scriptEdges: [string, string, number][] = afterScript ? [['p0', 's', 12], ['s', cut ? 'px' : 'p1', 4]] : [];
  if (!cut) {
    return graphOf(PAGE, [res('doc', PAGE, 'text/html', 100), chunk('p0', 1, 1), chunk('p1', 3, 5), dl('d0', 0), dl('d1', 1), ...imgs, ...script],
      [['doc', 'd0', 'resource-chunk'], ['d0', 'd1', 9], ['d0', 'p0', 3], ['d1', 'p1', 3], ['p0', 'p1', 3], ['p0', 'a', 1], ['p1', 'b', 1], ...scriptEdges]);
  }
  const blur = afterScript ? [] : [{ id: 'blur', kind: 'event' as const, eventName: 'blur', eventTarget: 'Element', start: 50, end: 51 }];
  return graphOf(PAGE, [res('doc', PAGE, 'text/html', 100), chunk('p0', 1, 1), chunk('px', 2, 4), chunk('p1', 3, 5), dl('d0', 0), dl('dx', 1), dl('d1', 2), ...imgs, ...script, ...blur],
    [['doc', 'd0', 'resource-chunk'], ['d0', 'dx', 9], ['dx', 'd1', 9], ['d0', 'p0', 3], ['dx', 'px', 3], ['d1', 'p1', 3], ['p0', 'px', 3], ['px', 'p1', 3],
      ['p0', 'a', 1], ['p1', 'b', 1], ...scriptEdges, ...(afterScript ? [] : [['px', 'blur', 25] as [string, string, number]])]);
}

test('a chunk declaring nothing that one side cut is one chunk with the declaring chunk after it, on either side', () => {
  for (const [source, built] of [[undeclared(true), undeclared(false)], [undeclared(false), undeclared(true)]] as const) {
    const f = compareRoundTrip(source, built);
    // Rule 3: d0 -> p0, p0 -> p1, d1 -> p1; rule 9: d0 -> d1; the cut chunk's own edges fall away as edges of a node to itself.
    assert.deepEqual(f.byRule['3'], { found: 3, source: 3 });
    assert.deepEqual(f.byRule['9'], { found: 1, source: 1 });
    // Only the blur the other side has no counterpart of is missed: from the chunk its element was parsed in (now b.png's).
    const misses = [...f.edgeMisses.missing, ...f.edgeMisses.extra];
    assert.equal(misses.length, 1);
    assert.equal(misses[0]!.rule, '25');
    assert.equal(misses[0]!.from, `parse ${PAGE} @ resource http://www.pcp.test/b.png#0`);
    assert.match(misses[0]!.to, /^event element\.blur /);
  }
});

test('a chunk declaring nothing after a script: the script blocks the declaring chunk after it, as in the other builder', () => {
  for (const [source, built] of [[undeclared(true, true), undeclared(false, true)], [undeclared(false, true), undeclared(true, true)]] as const) {
    const f = compareRoundTrip(source, built);
    assert.deepEqual(f.edgeMisses, { missing: [], extra: [] });
    assert.deepEqual(f.byRule['4'], { found: 1, source: 1 });
  }
});

test('a chunk declaring nothing is kept apart when both sides cut there, or when no declaring chunk follows it', () => {
  const both = matchGraphs(undeclared(true), undeclared(true));
  assert.ok([...both.sk.values()].includes(`parse ${PAGE} @ resource http://www.pcp.test/a.png#0 +1`));
  assert.equal(compareRoundTrip(undeclared(true), undeclared(true)).edgeRecall, 1);
  // The document's last chunk declaring nothing (its end tag's): no chunk after it to be one with.
  const trailing = (cut: boolean) => graphOf(PAGE, [res('doc', PAGE, 'text/html', 100), chunk('p0', 1, 1), ...(cut ? [chunk('px', 2, 4), dl('dx', 1)] : []), dl('d0', 0),
    res('a', 'http://www.pcp.test/a.png', 'image/png', 10, { start: 2 })],
  [['doc', 'd0', 'resource-chunk'], ['d0', 'p0', 3], ['p0', 'a', 1], ...(cut ? [['d0', 'dx', 9], ['dx', 'px', 3], ['p0', 'px', 3]] as [string, string, number][] : [])]);
  const f = compareRoundTrip(trailing(true), trailing(false));
  const lone = `parse ${PAGE} @ resource http://www.pcp.test/a.png#0 +1`;
  assert.deepEqual(f.edgeMisses.missing.map((e) => `${e.from} -> ${e.to}`).sort(), [
    `download of parse ${PAGE} @ resource http://www.pcp.test/a.png#0 -> download of ${lone}`, `download of ${lone} -> ${lone}`, `parse ${PAGE} @ resource http://www.pcp.test/a.png#0 -> ${lone}`,
  ].sort());
});
