import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readJsonFile } from './io.ts';
import { enclosingOf, exportLegacy, importLegacy, lineOfRow, rowOfLine, type LegacyActivity, type LegacyGraph } from './legacy.ts';
import type { Graph } from './types.ts';
import { readLegacyLogFile } from '../adapters/legacy-log/file.ts';
import { buildFromLegacyLog } from '../build.ts';
import { validateGraph } from './validate.ts';
import { legacySites } from '../legacy-corpus.ts';

/** Deep equality where legacy times (seconds) may differ by float rounding after ms conversion. */
function assertSameActivity(got: LegacyActivity, want: LegacyActivity, site: string): void {
  assert.deepEqual(Object.keys(got).sort(), Object.keys(want).sort(), `${site} ${want.id}: keys`);
  for (const [k, v] of Object.entries(want)) {
    const g = got[k];
    if (typeof v === 'number' && typeof g === 'number' && /Time$/.test(k)) {
      assert.ok(Math.abs(g - v) < 1e-9, `${site} ${want.id}.${k}: ${g} != ${v}`);
    } else {
      assert.deepEqual(g, v, `${site} ${want.id}.${k}`);
    }
  }
}

test('all 64 reference graphs import as valid v1 graphs and export back unchanged', () => {
  const sites = legacySites();
  assert.equal(sites.length, 64);
  for (const site of sites) {
    const original = readJsonFile(site.graph) as LegacyGraph;
    const graph = importLegacy(original);
    const v = validateGraph(graph);
    assert.ok(v.ok, `${site.slug}: ${v.errors.join('; ')}`);
    assert.equal(graph.nodes.length, original.activities.length);
    assert.equal(graph.edges.length, original.activities.reduce((s, a) => s + a.children.length, 0));

    // Through JSON, as a file would be.
    const back = exportLegacy(JSON.parse(JSON.stringify(graph)));
    assert.equal(back.name, original.name);
    assert.equal(back.root_activity, original.root_activity);
    assert.equal(back.loadEvent, original.loadEvent);
    assert.equal(back.DOMContentLoadedEvent, original.DOMContentLoadedEvent);
    assert.deepEqual(back.frames, original.frames, `${site.slug}: frames`);
    assert.equal(back.activities.length, original.activities.length);
    original.activities.forEach((a, i) => assertSameActivity(back.activities[i]!, a, site.slug));
  }
});

test('import maps kinds, units and priority schemes', () => {
  const lg: LegacyGraph = {
    name: 'http://a.test/',
    root_activity: 'download_0',
    loadEvent: 'comp_1',
    DOMContentLoadedEvent: 'comp_0',
    frames: [{ id: 0, subframes: [], url: 'http://a.test/' }],
    activities: [
      { id: 'download_0', type: 'resource', children: ['dchunk_0_0'], cached: false, httpMethod: 'GET', url: 'http://a.test/', mimeType: 'text/html', size: 100, sentTime: 0, receiveTime: 0.25, priority: { cp: 1, 'mime-type': 1 }, iscrit: { cp: true, 'mime-type': true } },
      { id: 'dchunk_0_0', type: 'download_chunk', children: ['pchunk_0_0'], offset: 0, resource: 'download_0', size: 100 },
      { id: 'pchunk_0_0', type: 'parse_chunk', children: ['comp_0'], docUrl: 'http://a.test/', frame: 0, startRow: 1, startColumn: 1, endRow: 3, endColumn: 7, startTag: 'html', endTag: 'body', isFragment: false, startTime: 0.3, endTime: 0.301 },
      { id: 'comp_0', type: 'eval', children: ['comp_1'], evalType: 'fireEvent', name: 'DOMContentLoaded', targetType: 'Document', docUrl: 'http://a.test/', frame: 0, mode: 'dom', blocking: 1, enclosing: 'None', subtree: 'None', startTime: 0.301, endTime: 0.302 },
      { id: 'comp_1', type: 'eval', children: [], evalType: 'fireEvent', name: 'load', targetType: 'Window', docUrl: 'http://a.test/', frame: 0, mode: 'load', blocking: 1, enclosing: 'None', subtree: 'None', startTime: 0.302, endTime: 0.302 },
    ],
  };
  const g = importLegacy(lg);
  const r = g.nodes[0]!;
  assert.equal(r.kind, 'resource');
  assert.equal(r.end, 250); // 0.25 s -> 250 ms
  if (r.kind === 'resource') {
    assert.deepEqual({ cp: r.priority.criticalPath, mime: r.priority.mimeType }, { cp: 1, mime: 1 });
    assert.equal(r.onCriticalPath, true);
  }
  const chunk = g.nodes[1]!;
  assert.equal(chunk.kind, 'download_chunk');
  assert.deepEqual([chunk.start, chunk.end], [0, 250]); // whole resource: the chunk spans its transfer
  assert.deepEqual(
    g.edges.map((e) => e.rule),
    ['resource-chunk', 3, 25, 25], // resource->chunk, chunk->parse (rule 3), parse->event and event->event (Appendix A)
  );
  assert.equal(g.markers.load, 'comp_1');
  assert.equal(g.nodes[3]!.kind, 'event');
});

test('parse-chunk rows: legacy 0-based rows <-> v1 1-based lines, exact both ways', () => {
  for (const row of [0, 1, 7, 4321]) assert.equal(rowOfLine(lineOfRow(row)), row);
  for (const line of [1, 2, 8, 4322]) assert.equal(lineOfRow(rowOfLine(line)), line);
  const chunk: LegacyActivity = { id: 'pchunk_0_0', type: 'parse_chunk', children: [], docUrl: 'http://a.test/', frame: 0, startRow: 0, startColumn: 65, endRow: 3, endColumn: 7, startTag: 'html', endTag: 'body', isFragment: false, startTime: 0.3, endTime: 0.301 };
  const lg: LegacyGraph = { name: 'http://a.test/', root_activity: 'pchunk_0_0', loadEvent: 'pchunk_0_0', DOMContentLoadedEvent: 'pchunk_0_0', frames: [{ id: 0, subframes: [], url: 'http://a.test/' }], activities: [chunk] };
  const g = importLegacy(lg);
  const pc = g.nodes[0]!;
  assert.ok(pc.kind === 'parse_chunk');
  assert.deepEqual([pc.startLine, pc.startColumn, pc.endLine, pc.endColumn], [1, 65, 4, 7]);
  assert.equal(pc.extra, undefined, 'rows convert without a residue');
  const back = exportLegacy(g).activities[0]!;
  assert.deepEqual([back.startRow, back.endRow], [0, 3]);
  // A row v1 cannot hold (negative) keeps the source value through the residue.
  const odd = importLegacy({ ...lg, activities: [{ ...chunk, startRow: -2 }] });
  assert.equal(odd.nodes[0]!.kind === 'parse_chunk' && odd.nodes[0]!.startLine, 1);
  assert.equal(exportLegacy(odd).activities[0]!.startRow, -2);
});

test("with its raw log, each document's first parse chunk carries where its <body> start tag was, as a v1 line", () => {
  const chunk = (id: string, docUrl: string, startRow: number): LegacyActivity => ({ id, type: 'parse_chunk', children: [], docUrl, frame: 0, startRow, startColumn: 1, endRow: startRow + 2, endColumn: 7, startTag: 'html', endTag: 'p', isFragment: false, startTime: 0.3, endTime: 0.301 });
  const lg: LegacyGraph = { name: 'http://a.test/', root_activity: 'p0', loadEvent: 'p0', DOMContentLoadedEvent: 'p0', frames: [{ id: 0, subframes: [], url: 'http://a.test/' }],
    activities: [chunk('p0', 'http://a.test/', 0), chunk('p1', 'http://a.test/', 3), chunk('f0', 'http://b.test/f.html', 0)] };
  const raw = { fetches: new Map(), elements: new Map(), preloads: new Map(), bodyParsedAt: new Map(), bodyStarts: new Map([['http://a.test/', { row: 4, column: 12 }], ['http://c.test/', { row: 1, column: 1 }]]) };
  const at = (g: Graph): Array<[string, unknown]> => g.nodes.map((n) => [n.id, n.extra?.bodyStart]);
  assert.deepEqual(at(importLegacy(lg, { raw })), [['p0', { line: 5, column: 12 }], ['p1', undefined], ['f0', undefined]]);
  assert.deepEqual(at(importLegacy(lg)), [['p0', undefined], ['p1', undefined], ['f0', undefined]], 'no raw log: none');
});

test('a corpus graph loaded with its raw log has its body start (www.kickstarter.com)', async () => {
  const { loadGraph } = await import('./io.ts');
  const site = legacySites().find((s) => s.slug === 'www.kickstarter.com')!;
  // Its log: {"tagName": "body", "row": 175, "column": 233, "isStartTag": 1} in https://www.kickstarter.com/.
  const first = loadGraph(site.graph).nodes.find((n) => n.kind === 'parse_chunk' && n.docUrl === 'https://www.kickstarter.com/')!;
  assert.deepEqual(first.extra?.bodyStart, { line: 176, column: 233 });
});

/** Activities copied from a reference graph (children outside the fragment left out). */
function fragment(name: string, activities: LegacyActivity[]): LegacyGraph {
  return { name, root_activity: activities[0]!.id, loadEvent: '', DOMContentLoadedEvent: '', frames: [{ id: 1, subframes: [], url: name }], activities };
}
const rulesOf = (g: LegacyGraph): string[] => importLegacy(g).edges.map((e) => `${e.from} -> ${e.to}: ${e.rule}`);

test("parts of a split event, timer or style sheet are joined by 'split' edges, as script parts are (9gag.com, evernote.com)", () => {
  // 9gag.com: the DOMContentLoaded handler, cut where it requested download_53 and download_49, caused a
  // timer (comp_17) whose callback installed another (comp_22), cut where it requested download_54.
  const ev = { type: 'eval' as const, evalType: 'fireEvent', name: 'DOMContentLoaded', targetType: 'Document', docUrl: 'http://9gag.com/', frame: 1, mode: 'dom', blocking: 1, enclosing: 'comp_16', subtree: 'subtree_comp_16' };
  const timer = { type: 'eval' as const, evalType: 'timer', timeout: 100, docUrl: 'http://9gag.com/', frame: 1, mode: 'load', blocking: 1 };
  const gag = fragment('http://9gag.com/', [
    { ...ev, id: 'comp_16_0', children: ['download_53', 'comp_16_1'], startTime: 1.1996189999990747, endTime: 1.2198149999985617 },
    { ...ev, id: 'comp_16_1', children: ['comp_16_2'], startTime: 1.2198149999985617, endTime: 1.2249099999989994 },
    { ...ev, id: 'comp_16_2', children: ['comp_17'], startTime: 1.2249099999989994, endTime: 1.276185999999143 },
    { id: 'download_53', type: 'resource', children: [], cached: false, httpMethod: 'GET', mimeType: 'text/html', size: 114516, url: 'http://ajax-9gag-lol.9cache.com/read/ajax-featured?pageType=desktop&callback=data', sentTime: 1.2201829999994516, receiveTime: 1.492934999998397, priority: { cp: 39 }, iscrit: { cp: false } },
    { ...timer, id: 'comp_17', children: ['comp_22_0'], enclosing: 'None', subtree: 'None', startTime: 1.3167450000000827, endTime: 1.3169289999987086 },
    { ...timer, id: 'comp_22_0', children: ['comp_22_1'], enclosing: 'comp_22', subtree: 'subtree_comp_22', startTime: 1.417437999998583, endTime: 1.4221600000000763 },
    { ...timer, id: 'comp_22_1', children: [], enclosing: 'comp_22', subtree: 'subtree_comp_22', startTime: 1.4221600000000763, endTime: 1.4230869999992137 },
  ]);
  assert.deepEqual(rulesOf(gag), [
    'comp_16_0 -> download_53: 2',
    'comp_16_0 -> comp_16_1: split',
    'comp_16_1 -> comp_16_2: split',
    'comp_16_2 -> comp_17: 20', // an event installs a timer: a new computation
    'comp_17 -> comp_22_0: 21', // a timer installs a timer: comp_22 is a computation of its own
    'comp_22_0 -> comp_22_1: split',
  ]);
  // evernote.com: homepage.css's style recalculation, cut where it requested download_12.
  const css = { type: 'eval' as const, evalType: 'recalcStyle', url: 'https://evernote.com/media/css/homepage.css?v2404', docUrl: 'https://evernote.com/', frame: 1, mode: 'dom', blocking: 4, enclosing: 'comp_4', subtree: 'subtree_comp_4' };
  const evernote = fragment('https://evernote.com/', [
    { ...css, id: 'comp_4_0', children: ['comp_4_1'], startTime: 1.319605999997293, endTime: 1.377846999999747 },
    { ...css, id: 'comp_4_1', children: [], startTime: 1.377846999999747, endTime: 1.379754999998113 },
  ]);
  assert.deepEqual(rulesOf(evernote), ['comp_4_0 -> comp_4_1: split']);
});

test("a part resumed after a nested computation follows it by a 'split' edge, as the raw-log builder draws it (en.nametests.com)", () => {
  // An inline script (comp_13) ran another (comp_14) inside it and resumed: the original builder draws
  // comp_13_0 -> comp_14 -> comp_13_1, with no edge from one part to the next; comp_13_1 starts as comp_14
  // ends, the same task going on.
  const js = { type: 'eval' as const, evalType: 'execScript', url: '', docUrl: 'http://en.nametests.com/', frame: 1, mode: 'dom', blocking: 1, subtree: 'subtree_comp_13' };
  const g = fragment('http://en.nametests.com/', [
    { ...js, id: 'comp_13_0', children: ['comp_14'], enclosing: 'comp_13', startTime: 0.10772300000098767, endTime: 0.10816999999951804 },
    { ...js, id: 'comp_14', children: ['comp_13_1'], enclosing: 'None', startTime: 0.10816999999951804, endTime: 0.10824099999990722 },
    { ...js, id: 'comp_13_1', children: [], enclosing: 'comp_13', startTime: 0.10824099999990722, endTime: 0.1083359999993263 },
  ]);
  assert.deepEqual(rulesOf(g), ['comp_13_0 -> comp_14: 14', 'comp_14 -> comp_13_1: split']);
  // A later part that follows its previous part keeps 'split' from it, and a computation that ended
  // earlier is not a resume.
  const h = fragment('http://en.nametests.com/', [
    { ...js, id: 'comp_13_0', children: ['comp_13_1'], enclosing: 'comp_13', startTime: 0.1, endTime: 0.2 },
    { ...js, id: 'comp_14', children: ['comp_13_1'], enclosing: 'None', startTime: 0.05, endTime: 0.06 },
    { ...js, id: 'comp_13_1', children: [], enclosing: 'comp_13', startTime: 0.2, endTime: 0.3 },
  ]);
  assert.deepEqual(rulesOf(h), ['comp_13_0 -> comp_13_1: split', 'comp_14 -> comp_13_1: 14']);
});

test('a built graph keeps its resumed parts through export and import (en.nametests.com)', () => {
  const site = legacySites().find((s) => s.slug === 'en.nametests.com')!;
  const { graph } = buildFromLegacyLog(readLegacyLogFile(site.raw).text);
  const resumes = (g: Graph): string[] => {
    const byId = new Map(g.nodes.map((n) => [n.id, n]));
    return g.edges.filter((e) => e.rule === 'split' && enclosingOf(e.from) !== enclosingOf(e.to) && byId.get(e.to)!.kind !== 'marker').map((e) => `${e.from} -> ${e.to}`).sort();
  };
  const built = resumes(graph);
  assert.ok(built.length > 0, 'no resumed part on en.nametests.com');
  assert.deepEqual(resumes(importLegacy(exportLegacy(graph))), built);
});

test("over the 64 reference graphs, 'split' names exactly the edges between parts the original builder marked with one `enclosing`, and the 211 into a part resumed after a nested computation", () => {
  const splitByKind = new Map<string, number>();
  let resumed = 0;
  for (const site of legacySites()) {
    const original = readJsonFile(site.graph) as LegacyGraph;
    const enclosing = new Map(original.activities.map((a) => [a.id, typeof a.enclosing === 'string' && a.enclosing !== 'None' ? a.enclosing : undefined]));
    const graph = importLegacy(original);
    const kind = new Map(graph.nodes.map((n) => [n.id, n.kind]));
    const byId = new Map(graph.nodes.map((n) => [n.id, n]));
    const edges = new Set(graph.edges.map((e) => `${e.from} -> ${e.to}`));
    for (const e of graph.edges) {
      const from = enclosing.get(e.from);
      const samePart = from !== undefined && from === enclosing.get(e.to);
      // A resumed part: a later part whose previous part is not its parent; its one parent ended as it started.
      const to = byId.get(e.to)!;
      const previous = 'part' in to && to.part ? `${enclosingOf(e.to)}_${to.part - 1}` : undefined;
      const resume = !samePart && previous !== undefined && !edges.has(`${previous} -> ${e.to}`);
      if (resume) {
        resumed++;
        assert.ok(Math.abs(to.start - byId.get(e.from)!.end) < 0.002, `${site.slug}: ${e.from} -> ${e.to} does not meet`);
      }
      assert.equal(e.rule === 'split', samePart || resume, `${site.slug}: ${e.from} -> ${e.to} (rule ${e.rule})`);
      if (samePart) splitByKind.set(kind.get(e.to)!, (splitByKind.get(kind.get(e.to)!) ?? 0) + 1);
    }
  }
  for (const k of ['script_eval', 'event', 'timer', 'css_eval']) assert.ok((splitByKind.get(k) ?? 0) > 0, `no ${k} parts in the corpus`);
  assert.equal(resumed, 211);
});

test('with its raw log, a reference graph gets request types from the requesting elements and chunk times from the arrivals, and still exports unchanged (www.siteadvisor.com, www.bild.de)', async () => {
  const { loadGraph } = await import('./io.ts');
  for (const slug of ['www.siteadvisor.com', 'www.bild.de']) {
    const site = legacySites().find((s) => s.slug === slug)!;
    const original = readJsonFile(site.graph) as LegacyGraph;
    const graph = loadGraph(site.graph); // finds ../raw/<slug>.log.gz
    assert.ok(validateGraph(graph).ok, slug);
    const resources = new Map(graph.nodes.filter((n) => n.kind === 'resource').map((n) => [n.id, n]));
    const chunks = graph.nodes.filter((n) => n.kind === 'download_chunk');
    assert.ok(chunks.length > 0 && chunks.every((d) => d.extra?.chunkTimes === 'received'), `${slug}: every document's chunks timed by their arrival`);
    for (const d of chunks) {
      const r = resources.get(d.resource)!;
      assert.ok(d.start >= r.start && d.end <= r.end + 1 && d.start <= d.end, `${slug} ${d.id}: within its document's download`);
    }
    const typed = [...resources.values()].filter((r) => r.requestType !== undefined);
    assert.ok(typed.length > 0 && typed.every((r) => typeof r.extra?.requestElement === 'string'), `${slug}: typed resources name their element`);
    const back = exportLegacy(JSON.parse(JSON.stringify(graph)));
    original.activities.forEach((a, i) => assertSameActivity(back.activities[i]!, a, slug));
  }
  // siteadvisor.com's document arrived after 5.1 s of DNS (5,421-5,663 ms in its log), not from its request.
  const sa = loadGraph(legacySites().find((s) => s.slug === 'www.siteadvisor.com')!.graph);
  const main = sa.nodes.find((n) => n.kind === 'resource' && n.url === 'http://www.siteadvisor.com/')!;
  const first = sa.nodes.filter((n) => n.kind === 'download_chunk' && n.resource === main.id).sort((a, b) => a.start - b.start)[0]!;
  assert.ok(first.start > 5000, `first chunk at ${first.start} ms`);
  // bild.de: an ad server's beacon (text/plain) an <img> asked for is an image request.
  const bild = loadGraph(legacySites().find((s) => s.slug === 'www.bild.de')!.graph);
  const beacons = bild.nodes.filter((n) => n.kind === 'resource' && n.mimeType === 'text/plain' && n.requestType === 'Image');
  assert.ok(beacons.length > 0);
});
