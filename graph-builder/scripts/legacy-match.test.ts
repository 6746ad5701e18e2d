import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readLegacyLogFile } from '../src/adapters/legacy-log/file.ts';
import { buildFromLegacyLog } from '../src/build.ts';
import { exportLegacy, importLegacy, type LegacyGraph } from '../src/format/legacy.ts';
import { compareLegacy, contentKeys, criticalPathDivergence, parentDisagreements, v1MatchView } from './legacy-match.ts';

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
