import { test } from 'node:test';
import assert from 'node:assert/strict';
import { downloadsOf, isLoadKey, sameDependencies } from './same-dependency.ts';

const DOC = 'http://www.pcp.test/';
const A = 'http://www.pcp.test/a.js';
const B = 'http://cdn.pcp.test/b.js';
const e = (from: string, to: string, rule: string) => ({ from, to, rule });
const keys = (edges: { from: string; to: string; rule: string }[]): string[] => edges.map((x) => `${x.rule}: ${x.from} -> ${x.to}`).sort();

test("a script's evaluation is matched to its own download by a rule 10 edge of one URL, not to another script's", () => {
  const d = downloadsOf([e(`resource ${A}#0`, `script ${A} in ${DOC}#0`, '10'), e(`resource ${A}#0`, `script ${B} in ${DOC}#0`, '10'), e(`resource ${B} from ${DOC}#1`, `script ${B} in ${DOC}#1`, '11')]);
  assert.deepEqual([...d], [[`script ${A} in ${DOC}#0`, `resource ${A}#0`], [`script ${B} in ${DOC}#1`, `resource ${B} from ${DOC}#1`]]);
  assert.ok(isLoadKey(`marker load ${DOC}`) && isLoadKey(`event window.load in ${DOC}frame.html#0`));
  assert.ok(!isLoadKey(`marker domContentLoaded ${DOC}`) && !isLoadKey(`event element.load of resource ${A}#0#0`));
});

test('the load waiting for a script: drawn on its download (2016) and on its evaluation (trace) is one edge', () => {
  const legacy = [e(`parse ${DOC} @ 0`, `resource ${A}#0`, '1'), e(`resource ${A}#0`, `script ${A} in ${DOC}#0`, '10'), e(`resource ${A}#0`, `marker load ${DOC}`, '25')];
  const trace = [e(`parse ${DOC} @ 0`, `resource ${A}#0`, '1'), e(`resource ${A}#0`, `script ${A} in ${DOC}#0`, '10'), e(`script ${A} in ${DOC}#0`, `marker load ${DOC}`, 'event:window.load')];
  assert.deepEqual(keys(sameDependencies(legacy)), keys(legacy));
  assert.deepEqual(keys(sameDependencies(trace)), keys(legacy).map((k) => k.replace(/^25:/, 'event:window.load:')).sort());
  // Both drawn in one graph: one dependency, the edge drawn on the download keeps its rule.
  const both = [...trace, e(`resource ${A}#0`, `marker load ${DOC}`, '25')];
  assert.deepEqual(keys(sameDependencies(both)), keys(legacy));
});

test('a request and the evaluation of what it requested, from one parent: one dependency; from another parent: two', () => {
  const trace = [
    e(`script ${DOC} in ${DOC}#0`, `resource ${B}#0`, '2'),
    e(`resource ${B}#0`, `script ${B} in ${DOC}#0`, '10'),
    e(`script ${DOC} in ${DOC}#0`, `script ${B} in ${DOC}#0`, '14'),
  ];
  assert.deepEqual(keys(sameDependencies(trace)), keys(trace.slice(0, 2)));
  // A timer that did not request B but precedes its run (another parent): a dependency of its own, kept.
  const other = [...trace.slice(0, 2), e(`timer 10 in ${DOC}#0`, `script ${B} in ${DOC}#0`, '16')];
  assert.deepEqual(keys(sameDependencies(other)), keys(other));
  // An inline script (no download): its parse chunk stays its parent.
  const inline = [e(`parse ${DOC} @ 0`, `script ${DOC} in ${DOC}#0`, '12')];
  assert.deepEqual(keys(sameDependencies(inline)), keys(inline));
});

test('a dependency only one graph has stays a miss under its new name', () => {
  // The trace draws the load after an async script's run; the 2016 graph has neither its run nor its download before the load.
  const trace = [e(`resource ${B}#0`, `script ${B} in ${DOC}#0`, '10'), e(`script ${B} in ${DOC}#0`, `marker load ${DOC}`, 'event:window.load')];
  assert.deepEqual(keys(sameDependencies(trace)), [`10: resource ${B}#0 -> script ${B} in ${DOC}#0`, `event:window.load: resource ${B}#0 -> marker load ${DOC}`]);
});
