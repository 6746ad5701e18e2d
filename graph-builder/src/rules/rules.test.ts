import { test } from 'node:test';
import assert from 'node:assert/strict';
import { legacyLogToActivities } from '../adapters/legacy-log/index.ts';
import { applyRules } from './index.ts';
import { findCycle, breakCycles } from './cycles.ts';
import { SNIPPET_EDGES, SNIPPET_LINES } from '../../test/snippet.ts';

test('rules: the hand-made page yields exactly the hand-derived edges', () => {
  const warnings: string[] = [];
  const out = applyRules(legacyLogToActivities(SNIPPET_LINES, warnings), warnings);
  const got = out.edges.map((e) => `${e.from} -> ${e.to} : ${e.rule}`).sort();
  assert.deepEqual(got, [...SNIPPET_EDGES].sort());
  assert.deepEqual(out.markers, { domContentLoaded: 'marker_domContentLoaded', load: 'marker_load' });
});

test('rules: sub-computation parts split at the child request (350 ms) and keep the whole span', () => {
  const out = applyRules(legacyLogToActivities(SNIPPET_LINES, []), []);
  const p0 = out.nodes.find((n) => n.id === 'comp_0_0')!;
  const p1 = out.nodes.find((n) => n.id === 'comp_0_1')!;
  assert.ok(Math.abs(p0.start - 310) < 1e-6 && Math.abs(p0.end - 350) < 1e-6);
  assert.ok(Math.abs(p1.start - 350) < 1e-6 && Math.abs(p1.end - 390) < 1e-6);
  // Parse chunk positions: 1-based lines (row + 1), the first chunk spans <html> .. </script>.
  const pc = out.nodes.find((n) => n.id === 'pchunk_0_0');
  assert.equal(pc?.kind, 'parse_chunk');
  if (pc?.kind === 'parse_chunk') assert.deepEqual([pc.startLine, pc.startColumn, pc.endLine, pc.endColumn, pc.endTag], [1, 1, 2, 30, 'script']);
  // The load marker sits at the reported frame load (100.9 s -> 900 ms).
  assert.ok(Math.abs(out.times.load - 900) < 1e-6);
});

test('cycles: a loop is found, broken at its closing edge and named', () => {
  const edges = [
    { from: 'a', to: 'b', rule: 1 },
    { from: 'b', to: 'c', rule: 2 },
    { from: 'c', to: 'a', rule: 3 },
    { from: 'c', to: 'd', rule: 4 },
  ];
  assert.deepEqual(findCycle(['a', 'b', 'c', 'd'], edges)?.nodes, ['a', 'b', 'c']);
  const warnings: string[] = [];
  const kept = breakCycles(['a', 'b', 'c', 'd'], edges, warnings);
  assert.equal(kept.length, 3);
  assert.equal(findCycle(['a', 'b', 'c', 'd'], kept), undefined);
  assert.match(warnings[0]!, /cycle a -> b -> c -> a: broken by removing edge c -> a \(rule 3\)/);
});
