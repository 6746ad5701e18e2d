import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readJsonFile } from './io.ts';
import { exportLegacy, importLegacy, lineOfRow, rowOfLine, type LegacyActivity, type LegacyGraph } from './legacy.ts';
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
