import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readLegacyLogFile } from '../src/adapters/legacy-log/file.ts';
import { buildFromLegacyLog } from '../src/build.ts';
import { exportLegacy, importLegacy, type LegacyActivity, type LegacyGraph } from '../src/format/legacy.ts';
import { duration } from '../src/analysis/dag.ts';
import { compareLegacy, contentKeys, criticalPathDivergence, parentDisagreements, pathDurationGaps, v1MatchView } from './legacy-match.ts';

const FIXTURE = new URL('../test/fixtures/friv.log.gz', import.meta.url).pathname;
const { graph } = buildFromLegacyLog(readLegacyLogFile(FIXTURE).text);
const exported = exportLegacy(graph);
const path = graph.criticalPath!.nodes;
const rules = new Map(graph.edges.map((e) => [`${e.from} -> ${e.to}`, String(e.rule)]));
const copy = (g: LegacyGraph): LegacyGraph => structuredClone(g);

test('legacy-match: a graph agrees with itself, exported or as a v1 view, and with its own import', () => {
  const self = compareLegacy(exported, copy(exported));
  assert.equal(self.parentsEqual, self.parentsTotal);
  assert.equal(self.edgesCommon, self.edgesRef);
  assert.equal(self.resourcesMatched, self.resourcesRef);
  const v1 = compareLegacy(v1MatchView(graph), v1MatchView(importLegacy(exported)));
  assert.equal(v1.parentsEqual, v1.parentsTotal);
  assert.equal(v1.edgesCommon, v1.edgesRef);
  assert.deepEqual(criticalPathDivergence(exported, path, copy(exported), path), { cause: 'same' });
  assert.equal(parentDisagreements(exported, copy(exported), rules).size, 0);
});

test('legacy-match: the first critical-path step one graph lacks is named, and parent differences are classified', () => {
  // The reference (a copy) hangs the critical path's second resource off another parse chunk of the document.
  const ref = copy(exported);
  const keys = contentKeys(ref);
  const res = path.filter((id) => id.startsWith('download_'))[1]!;
  const parent = ref.activities.find((a) => a.children.includes(res))!;
  assert.equal(parent.type, 'parse_chunk');
  const other = ref.activities.find((a) => a.type === 'parse_chunk' && a.id !== parent.id)!;
  parent.children = parent.children.filter((c) => c !== res);
  other.children.push(res);
  // Its critical path now reaches the resource through that chunk: an edge our graph lacks.
  const at = path.indexOf(res);
  const d = criticalPathDivergence(exported, path, ref, [...path.slice(0, at - 1), other.id, ...path.slice(at)]);
  assert.equal(d.cause, 'edge');
  assert.equal(d.missingIn, 'ours');
  assert.match(d.step ?? '', /P\|http:\/\/www\.friv\.com\//);
  assert.ok(keys.get(res)?.startsWith('R|'));
  assert.deepEqual([...parentDisagreements(exported, ref, rules)], [['ref parse | ours parse, another chunk of the document (rule 1)', 1]]);
  const f = compareLegacy(exported, ref);
  assert.equal(f.parentsTotal - f.parentsEqual, 1);
});

/**
 * A DOMContentLoaded handler that asks for a.png at 1.10 s, then hits b.png in the memory cache three
 * times (1.20, 1.30, 1.40 s): cut at each request, parts [1.0, 1.1] [1.1, 1.2] [1.2, 1.3] [1.3, 1.4]
 * [1.4, 1.5]. The reference cuts once more, at 1.15 s (as where it moves a network fetch to a later
 * cache hit), and keeps one more reuse of b.png (at 1.25 s, from the part ending there).
 */
function handler(cuts: number[], reuses: number[]): LegacyGraph {
  const ends = [...cuts, 1.5];
  const parts = ends.map((end, i): LegacyActivity => ({ id: `comp_1_${i}`, type: 'eval', evalType: 'fireEvent', name: 'DOMContentLoaded', targetType: 'Document', docUrl: 'http://t.test/', enclosing: 'comp_1', startTime: i ? ends[i - 1] : 1.0, endTime: end, children: i + 1 < ends.length ? [`comp_1_${i + 1}`] : [] }));
  const partEnding = (t: number) => parts.find((p) => p.endTime === t)!;
  const a = { id: 'download_1', type: 'resource', url: 'http://t.test/a.png', cached: false, sentTime: 1.1, children: [] } as LegacyActivity;
  partEnding(1.1).children.push(a.id);
  const hits = reuses.map((t, i): LegacyActivity => ({ id: `download_${i + 2}`, type: 'resource', url: 'http://t.test/b.png', cached: true, sentTime: t, children: [] }));
  for (const h of hits) partEnding(h.sentTime as number).children.push(h.id);
  return { name: 'http://t.test/', root_activity: 'download_1', loadEvent: '', DOMContentLoadedEvent: '', frames: [], activities: [...parts, a, ...hits] };
}

test('legacy-match: a cut or a reuse more on one side costs only what it divides when parts go by end time and reuses by time', () => {
  const mine = handler([1.1, 1.2, 1.3, 1.4], [1.2, 1.3, 1.4]);
  const ref = handler([1.1, 1.15, 1.2, 1.25, 1.3, 1.4], [1.2, 1.25, 1.3, 1.4]);
  // By index and order (the reference's extra cuts renumber every later part; its extra reuse, every later
  // reuse): of the reference's 5 resources, only a.png (before the first extra cut) has our parent set.
  const byIndex = compareLegacy(mine, ref, { mine: { evalKey: 'order' }, ref: { evalKey: 'order' } });
  assert.equal(byIndex.parentsTotal, 5);
  assert.equal(byIndex.parentsEqual, 1);
  // By end time and access time: a.png and the reuses at 1.3 and 1.4 agree. The reuse at 1.2 hangs off a
  // part that ends at 1.2 on both sides but starts at 1.15 in the reference: same key, same parent. Only
  // the reuse at 1.25, which we do not have, differs.
  const byEnd = compareLegacy(mine, ref, { mine: { evalKey: 'time', partKey: 'end' }, ref: { evalKey: 'time', partKey: 'end' } });
  assert.equal(byEnd.parentsEqual, 4);
  assert.equal(byEnd.resourcesMatched, 4);
  // Each side agrees with itself either way.
  for (const o of [{ evalKey: 'order' }, { evalKey: 'time', partKey: 'end' }] as const) {
    const self = compareLegacy(ref, copy(ref), { mine: o, ref: o });
    assert.equal(self.parentsEqual, self.parentsTotal);
  }
});

test('legacy-match: children issued at one instant may sit on the part or on the zero-length part after it', () => {
  // Cut at 1.2 with two children: ours hangs b.png off the part [1.1, 1.2] and c.png off the zero-length
  // part [1.2, 1.2]; the reference the other way round (its order at one instant is not kept).
  const g = (first: string, second: string): LegacyGraph => ({
    name: 'http://t.test/', root_activity: '', loadEvent: '', DOMContentLoadedEvent: '', frames: [],
    activities: [
      { id: 'c_0', type: 'eval', evalType: 'execScript', url: 'http://t.test/s.js', docUrl: 'http://t.test/', enclosing: 'c', startTime: 1.1, endTime: 1.2, children: ['c_1', first] },
      { id: 'c_1', type: 'eval', evalType: 'execScript', url: 'http://t.test/s.js', docUrl: 'http://t.test/', enclosing: 'c', startTime: 1.2, endTime: 1.2, children: ['c_2', second] },
      { id: 'c_2', type: 'eval', evalType: 'execScript', url: 'http://t.test/s.js', docUrl: 'http://t.test/', enclosing: 'c', startTime: 1.2, endTime: 1.3, children: [] },
      { id: 'r_b', type: 'resource', url: 'http://t.test/b.png', cached: false, sentTime: 1.21, children: [] },
      { id: 'r_c', type: 'resource', url: 'http://t.test/c.png', cached: false, sentTime: 1.22, children: [] },
    ],
  });
  const byIndex = compareLegacy(g('r_b', 'r_c'), g('r_c', 'r_b'));
  assert.equal(byIndex.parentsEqual, 0);
  const o = { evalKey: 'time', partKey: 'end' } as const;
  assert.equal(compareLegacy(g('r_b', 'r_c'), g('r_c', 'r_b'), { mine: o, ref: o }).parentsEqual, 2);
});

test("legacy-match: the reference's durations on its critical path against ours, the largest gap first", () => {
  const ours = new Map(graph.nodes.map((n) => [n.id, duration(n)]));
  const steps = path.map((id) => ({ id, duration: ours.get(id)! }));
  // Against itself: every step compared, none differs.
  assert.deepEqual(pathDurationGaps(exported, (id) => ours.get(id), copy(exported), steps), { compared: steps.length, differ: [] });
  // The reference's analysis gave the document 190 ms more and a later step 0.5 ms more (under the 1 ms
  // tolerance); a step our graph lacks is not compared.
  const doc = steps.findIndex((s) => s.id.startsWith('download_'));
  const later = steps.length - 1;
  const refSteps = steps.map((s, i) => ({ id: s.id, duration: s.duration + (i === doc ? 190 : i === later ? 0.5 : 0) }));
  const gaps = pathDurationGaps(exported, (id) => ours.get(id), copy(exported), [...refSteps, { id: 'download_nowhere', duration: 5 }]);
  assert.equal(gaps.compared, steps.length);
  assert.equal(gaps.differ.length, 1);
  assert.match(gaps.differ[0]!.step, /^R\|http:\/\/www\.friv\.com\//);
  assert.ok(Math.abs(gaps.differ[0]!.ref - gaps.differ[0]!.ours - 190) < 1e-9);
});
