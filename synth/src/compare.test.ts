import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compareRoundTrip, edgeClasses, loadOf, type RoundTripFigures } from './compare.ts';
import { graphOf, res } from './testing.ts';

const PAGE = 'http://www.pcp.test/';

/** Every edge of each graph is drawn in the other: none missed, none added, precision and recall 1. */
function assertEdgesAgree(f: RoundTripFigures): void {
  assert.deepEqual(f.edgeMisses, { missing: [], extra: [] });
  assert.equal(f.edgePrecision, 1);
  assert.equal(f.edgeRecall, 1);
}

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

test("load is timed from the main document's request on both sides (a trace graph's clock starts at the commit)", () => {
  const source = page({ withImage: false, imageParent: 's' });
  source.nodes.find((n) => n.id === 'load')!.start = 900;
  const built = page({ withImage: false, imageParent: 's', idSuffix: '_b' });
  built.navigation = { navigationStartOffset: 520, documentRequest: -500, documentResponse: -5, load: 400 };
  const f = compareRoundTrip(source, built);
  assert.equal(f.loadSource, 900);
  assert.equal(f.loadBuilt, 900);
});

test('load is when the load event began on both sides: a trace\'s loadEventStart, not MarkLoad after the handlers', () => {
  // The legacy load marker is the 2016 log's loadTime, the start of the window's load handlers; a trace
  // writes MarkLoad (navigation.load) when they have run, 60 ms of handlers later here.
  const source = page({ withImage: false, imageParent: 's' });
  source.nodes.find((n) => n.id === 'load')!.start = 900;
  const built = page({ withImage: false, imageParent: 's', idSuffix: '_b' });
  built.navigation = { navigationStartOffset: 520, documentRequest: -500, documentResponse: -5, load: 460, loadEventStart: 400 };
  assert.equal(compareRoundTrip(source, built).loadBuilt, 900);
  assert.equal(loadOf(built), 900);
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

test("the critical path's secondary figures: the replay's durations aside, the rebuilt structure keeps the source's path", () => {
  // Both: the image hangs off the chunk beside the script (js 28 ms + its run 20 against the image's 29).
  const source = page({ withImage: true, imageParent: 'p0' });
  const built = page({ withImage: true, imageParent: 'p0', idSuffix: '_b' });
  // The replay served the image in 60 ms: its branch is the rebuilt graph's path.
  Object.assign(built.nodes.find((n) => n.id === 'img_b')!, { end: 121 });
  const f = compareRoundTrip(source, built);
  assert.equal(f.criticalPathJaccard, 1 / 3);
  assert.equal(f.criticalPathSecondary.structural, 1);
  assert.deepEqual(f.criticalPathSecondary.sourcePathEdgesMissing, []);
  // The script's branch in the rebuilt graph: 10 + 2 + 28 + 20 = 60 of 10 + 2 + 60 = 72 (17% short); the
  // image's in the source: 41 of 60. Neither is within 10%: a difference of durations beyond any tolerance printed.
  assert.deepEqual(f.criticalPathSecondary.near, { '2%': 1 / 3, '5%': 1 / 3, '10%': 1 / 3 });
});

test('a memory-cache repeat (no request, nothing in a trace) is left out; download chunks are named by the chunk they feed', () => {
  const img = 'http://www.pcp.test/i.gif';
  const chunk = (id: string, line: number) => ({ id, kind: 'parse_chunk' as const, docUrl: PAGE, startLine: line, startColumn: 1, endLine: line, endColumn: 9 });
  const dchunk = (id: string, index: number) => ({ id, kind: 'download_chunk' as const, resource: 'doc', index, offset: index * 10, size: 10 });
  // Legacy: the image is used twice; its second use (a zero-length memory-cache node) cut a chunk of its own.
  const legacy = graphOf(PAGE, [
    res('doc', PAGE, 'text/html', 40), chunk('p0', 1), chunk('p1', 2), chunk('p2', 3), chunk('p3', 4),
    dchunk('d0', 0), dchunk('d1', 1), dchunk('d2', 2), dchunk('d3', 3),
    res('i1', img, 'image/gif', 10, { start: 1, end: 5 }), res('i2', img, 'image/gif', 10, { start: 6, end: 6, cached: true }),
    res('js', 'http://www.pcp.test/a.js', 'application/javascript', 10, { start: 7 }),
  ], [['doc', 'd0', 'resource-chunk'], ['d0', 'd1', 9], ['d1', 'd2', 9], ['d2', 'd3', 9], ['d0', 'p0', 3], ['d1', 'p1', 3], ['d2', 'p2', 3], ['d3', 'p3', 3],
    ['p0', 'p1', 3], ['p1', 'p2', 3], ['p2', 'p3', 3], ['p0', 'i1', 1], ['p1', 'i2', 1], ['p2', 'js', 1], ['i1', 'load', 25], ['i2', 'load', 25], ['js', 'load', 25]]);
  // Trace: one request for the image, so one chunk fewer, and the later chunks' indices one lower.
  const trace = graphOf(PAGE, [
    res('doc', PAGE, 'text/html', 40), chunk('q0', 1), chunk('q2', 3), chunk('q3', 4), dchunk('e0', 0), dchunk('e2', 1), dchunk('e3', 2),
    res('j1', img, 'image/gif', 10, { start: 1, end: 5 }), res('js2', 'http://www.pcp.test/a.js', 'application/javascript', 10, { start: 7 }),
  ], [['doc', 'e0', 'resource-chunk'], ['e0', 'e2', 9], ['e2', 'e3', 9], ['e0', 'q0', 3], ['e2', 'q2', 3], ['e3', 'q3', 3],
    ['q0', 'q2', 3], ['q2', 'q3', 3], ['q0', 'j1', 1], ['q2', 'js2', 1], ['j1', 'load', 25], ['js2', 'load', 25]]);
  const f = compareRoundTrip(legacy, trace);
  assert.equal(f.edgeRecall, 1, JSON.stringify(f.edgeMisses));
  assert.equal(f.edgePrecision, 1, JSON.stringify(f.edgeMisses));
  // Without the repeat's chunk the trace's chunks differ from the legacy ones: named, by rule and kinds.
  const shifted = compareRoundTrip(legacy, { ...trace, edges: trace.edges.filter((e) => e.to !== 'q2' || e.from !== 'q0') });
  assert.deepEqual([...edgeClasses(shifted.edgeMisses.missing)], [['rule 3: parse -> parse', 1]]);
  assert.deepEqual(shifted.edgeMisses.extra, []);
});

test('a chunk cut only by a memory-cache repeat after an inline script is one chunk with the next: the script resumes the parser there', () => {
  const img = 'http://www.pcp.test/i.gif';
  const chunk = (id: string, line: number) => ({ id, kind: 'parse_chunk' as const, docUrl: PAGE, startLine: line, startColumn: 1, endLine: line, endColumn: 9 });
  const dchunk = (id: string, index: number) => ({ id, kind: 'download_chunk' as const, resource: 'doc', index, offset: index * 10, size: 10 });
  const inline = (id: string) => ({ id, kind: 'script_eval' as const, scriptUrl: PAGE, scriptKind: 'sync' as const, start: 3, end: 4 });
  // Legacy: p1 ends at an inline script; the parser resumes in p2, which a second use of the image cut off before p3.
  const legacy = graphOf(PAGE, [
    res('doc', PAGE, 'text/html', 40), chunk('p0', 1), chunk('p1', 2), chunk('p2', 3), chunk('p3', 4),
    dchunk('d0', 0), dchunk('d1', 1), dchunk('d2', 2), dchunk('d3', 3), inline('s'),
    res('i1', img, 'image/gif', 10, { start: 1, end: 5 }), res('i2', img, 'image/gif', 10, { start: 6, end: 6, cached: true }),
    res('js', 'http://www.pcp.test/a.js', 'application/javascript', 10, { start: 7 }),
  ], [['doc', 'd0', 'resource-chunk'], ['d0', 'd1', 9], ['d1', 'd2', 9], ['d2', 'd3', 9], ['d0', 'p0', 3], ['d1', 'p1', 3], ['d2', 'p2', 3], ['d3', 'p3', 3],
    ['p0', 'p1', 3], ['p1', 's', 12], ['s', 'p2', 4], ['p1', 'p2', 3], ['p2', 'p3', 3], ['p0', 'i1', 1], ['p2', 'i2', 1], ['p3', 'js', 1]]);
  // Trace: no cut at the repeat; the chunk after the script runs to the script tag of a.js.
  const trace = graphOf(PAGE, [
    res('doc', PAGE, 'text/html', 40), chunk('q0', 1), chunk('q1', 2), chunk('q3', 4), dchunk('e0', 0), dchunk('e1', 1), dchunk('e3', 2), inline('t'),
    res('j1', img, 'image/gif', 10, { start: 1, end: 5 }), res('js2', 'http://www.pcp.test/a.js', 'application/javascript', 10, { start: 7 }),
  ], [['doc', 'e0', 'resource-chunk'], ['e0', 'e1', 9], ['e1', 'e3', 9], ['e0', 'q0', 3], ['e1', 'q1', 3], ['e3', 'q3', 3],
    ['q0', 'q1', 3], ['q1', 't', 12], ['t', 'q3', 4], ['q1', 'q3', 3], ['q0', 'j1', 1], ['q3', 'js2', 1]]);
  assertEdgesAgree(compareRoundTrip(legacy, trace));
});

test('a script two frames request, requested by them in the other order, has the same parents and parse chunks', () => {
  const FRAME = 'http://www.pcp.test/f.html';
  const js = 'http://www.pcp.test/a.js';
  const frames = [{ id: 'main', url: PAGE, parent: null }, { id: 'f', url: FRAME, parent: 'main' }];
  const chunk = (id: string, docUrl: string, frame: string) => ({ id, kind: 'parse_chunk' as const, docUrl, frame, startLine: 1, startColumn: 1, endLine: 2, endColumn: 1 });
  // `mainFirst`: the page's request of a.js starts before the frame's, else after.
  const page = (mainFirst: boolean) => graphOf(PAGE, [
    res('doc', PAGE, 'text/html', 100), chunk('p0', PAGE, 'main'), res('fdoc', FRAME, 'text/html', 100, { start: 1 }), chunk('q0', FRAME, 'f'),
    res('j1', js, 'application/javascript', 10, { start: mainFirst ? 2 : 3 }), res('j2', js, 'application/javascript', 10, { frame: 'f', start: mainFirst ? 3 : 2 }),
  ], [['doc', 'p0', 'resource-chunk'], ['p0', 'fdoc', 1], ['fdoc', 'q0', 'resource-chunk'], ['p0', 'j1', 1], ['q0', 'j2', 1]], frames);
  const f = compareRoundTrip(page(true), page(false));
  assert.equal(f.parentAgreement, 1, JSON.stringify(f.parentMisses));
  assert.equal(f.edgeRecall, 1, JSON.stringify(f.edgeMisses));
  assert.equal(f.edgePrecision, 1, JSON.stringify(f.edgeMisses));
});

test("an edge a path implies counts as drawn, not on the transitive reductions; from the chunk that requested the script, it is that request", () => {
  // The rebuilt graph also draws the parse chunk -> the script's evaluation (rule 12), which p0 -> a.js -> s implies.
  const built = page({ withImage: false, imageParent: 's', idSuffix: '_b' });
  built.edges.push({ from: 'p0_b', to: 's_b', rule: 12 });
  const f = compareRoundTrip(page({ withImage: false, imageParent: 's' }), built);
  assert.equal(f.edgeRecall, 1);
  assert.ok(f.edgePrecision < 1); // as drawn: two edges
  assert.deepEqual(f.sameDependency, { precision: 1, recall: 1 }); // p0 requested a.js: one dependency (same-dependency.ts)
  assert.deepEqual(f.reduced, { precision: 1, recall: 1 });
  // From a chunk that did not request it (another path implies it: p0 -> a.js -> s, chunks d0 -> p0): an edge of its own.
  const other = page({ withImage: false, imageParent: 's', idSuffix: '_b' });
  other.edges.push({ from: 'doc_b', to: 's_b', rule: 12 });
  const g = compareRoundTrip(page({ withImage: false, imageParent: 's' }), other);
  assert.ok(g.sameDependency.precision < 1);
  assert.deepEqual(g.reduced, { precision: 1, recall: 1 });
});

test('a missed edge says whether one of its ends is a node the other graph does not have at all', () => {
  const missing = compareRoundTrip(page({ withImage: true, imageParent: 's' }), page({ withImage: false, imageParent: 's' }));
  assert.ok(missing.edgeMisses.missing.length > 0);
  assert.ok(missing.edgeMisses.missing.every((e) => e.endLacking === true && (e.from.includes('i.png') || e.to.includes('i.png'))));
  const moved = compareRoundTrip(page({ withImage: true, imageParent: 's' }), page({ withImage: true, imageParent: 'p0' }));
  assert.ok(moved.edgeMisses.extra.length > 0);
  assert.ok(moved.edgeMisses.extra.every((e) => e.endLacking === undefined));
});

test("a script element's dependencies drawn on its download (2016) and on its evaluation (trace) are one edge each; the headline, as drawn, keeps them apart", () => {
  const js = 'http://www.pcp.test/b.js';
  const nodes = (x: string) => [
    res(`doc${x}`, PAGE, 'text/html', 100, { end: 10 }),
    { id: `p0${x}`, kind: 'parse_chunk' as const, docUrl: PAGE, startLine: 1, startColumn: 1, endLine: 2, endColumn: 1, start: 10, end: 12 },
    { id: `i${x}`, kind: 'script_eval' as const, scriptUrl: PAGE, scriptKind: 'sync' as const, start: 12, end: 14 },
    res(`js${x}`, js, 'application/javascript', 10, { start: 14, end: 40 }),
    { id: `s${x}`, kind: 'script_eval' as const, scriptUrl: js, scriptKind: 'async' as const, start: 40, end: 60 },
  ];
  // 2016: the inline script inserts b.js (rule 2), which runs after its download; the load waits for the download.
  const legacy = graphOf(PAGE, nodes(''), [['doc', 'p0', 'resource-chunk'], ['p0', 'i', 12], ['i', 'js', 2], ['js', 's', 10], ['js', 'load', 25]]);
  // Trace: the same, the evaluation also drawn from its inserter (rule 14) and the load from the evaluation.
  const trace = graphOf(PAGE, nodes('_b'), [['doc_b', 'p0_b', 'resource-chunk'], ['p0_b', 'i_b', 12], ['i_b', 'js_b', 2], ['js_b', 's_b', 10], ['i_b', 's_b', 14], ['s_b', 'load', 'event:window.load']]);
  const f = compareRoundTrip(legacy, trace);
  assert.deepEqual(f.edgeMisses, { missing: [], extra: [] });
  assert.deepEqual(f.sameDependency, { precision: 1, recall: 1 });
  assert.deepEqual(f.byRule['2'], { found: 1, source: 1 });
  assert.deepEqual(f.byRule['25'], { found: 1, source: 1 });
  // As drawn (the headline): 4 of the trace's 6 edges and 4 of the legacy's 5 agree.
  assert.equal(f.edgePrecision, 4 / 6);
  assert.equal(f.edgeRecall, 4 / 5);
});

test("an image element a memory-cache repeat served loads from the request whose bytes it used, on both sides alike", () => {
  const img = 'http://img.pcp.test/i.png';
  const load = (id: string, start: number) => ({ id, kind: 'event' as const, eventName: 'load', eventTarget: 'Element', start, end: start + 1 });
  const base = (x: string) => [
    res(`doc${x}`, PAGE, 'text/html', 100, { end: 10 }),
    { id: `p0${x}`, kind: 'parse_chunk' as const, docUrl: PAGE, startLine: 1, startColumn: 1, endLine: 2, endColumn: 1, start: 10, end: 12 },
    { id: `s${x}`, kind: 'script_eval' as const, scriptUrl: PAGE, scriptKind: 'inline' as const, start: 12, end: 14 },
    res(`img${x}`, img, 'image/png', 10, { start: 14, end: 30 }),
  ];
  // Legacy: the script uses the image twice, the second a zero-length cached node, each use's load from its node.
  const source = graphOf(PAGE, [...base(''), res('rep', img, 'image/png', 0, { start: 31, end: 31, cached: true }), load('l0', 31), load('l1', 32)],
    [['doc', 'p0', 'resource-chunk'], ['p0', 's', 12], ['s', 'img', 2], ['s', 'rep', 2], ['img', 'l0', 25], ['rep', 'l1', 25]]);
  // Trace: one request; both loads from it (the second element waited for the same bytes).
  const built = graphOf(PAGE, [...base('_b'), load('l0_b', 31), load('l1_b', 32)],
    [['doc_b', 'p0_b', 'resource-chunk'], ['p0_b', 's_b', 12], ['s_b', 'img_b', 2], ['img_b', 'l0_b', 'event:img.load'], ['img_b', 'l1_b', 'event:img.load']]);
  assertEdgesAgree(compareRoundTrip(source, built));
});

test("www.bild.de's shape: a URL requested as an image, then as a script the HTTP cache answered; the script's load and what it requests match the legacy graph's two requests", () => {
  const js = 'https://s1.adform.net/Adform.DHTML.js';
  const pic = 'https://s1.adform.net/foto_01.jpg';
  const ev = (id: string, eventName: string, start: number) => ({ id, kind: 'event' as const, eventName, eventTarget: 'Element', start, end: start + 1 });
  const side = (x: string, cached: boolean) => graphOf(PAGE, [
    res(`doc${x}`, PAGE, 'text/html', 100, { end: 10 }),
    { id: `p0${x}`, kind: 'parse_chunk' as const, docUrl: PAGE, startLine: 1, startColumn: 1, endLine: 2, endColumn: 1, start: 10, end: 12 },
    { id: `s${x}`, kind: 'script_eval' as const, scriptUrl: PAGE, scriptKind: 'inline' as const, start: 12, end: 14 },
    res(`img${x}`, js, 'application/x-javascript', 10, { start: 14, end: 80, requestType: 'Image' }),
    res(`scr${x}`, js, 'application/x-javascript', 10, { start: 17, end: 85, requestType: 'Script', cached }),
    ev(`err${x}`, 'error', 81),
    { id: `run${x}`, kind: 'script_eval' as const, scriptUrl: js, scriptKind: 'async' as const, start: 86, end: 90 },
    ev(`load${x}`, 'load', 91),
    res(`pic${x}`, pic, 'image/jpeg', 10, { start: 92, end: 99 }),
  ], [[`doc${x}`, `p0${x}`, 'resource-chunk'], [`p0${x}`, `s${x}`, 12], [`s${x}`, `img${x}`, 2], [`s${x}`, `scr${x}`, 2], [`img${x}`, `err${x}`, 25],
    [`scr${x}`, `run${x}`, 10], [`scr${x}`, `load${x}`, 25], [`load${x}`, `pic${x}`, 2]]);
  // Legacy: two requests; trace: the script's request answered by the HTTP cache after the image's wrote it.
  assertEdgesAgree(compareRoundTrip(side('', false), side('_b', true)));
});
