import { test } from 'node:test';
import assert from 'node:assert/strict';
import { transitiveReduction } from './reduction.ts';

const e = (from: string, to: string) => ({ from, to });
const keys = (es: { from: string; to: string }[]): string[] => es.map((x) => `${x.from}>${x.to}`).sort();

test('an edge a path implies is dropped, the path kept', () => {
  // parse -> resource -> script, and parse -> script (the trace builder's rule 12 beside rule 1 and 10)
  assert.deepEqual(keys(transitiveReduction([e('parse', 'js'), e('js', 'eval'), e('parse', 'eval')])), ['js>eval', 'parse>js']);
});

test('longer paths imply too; unrelated edges stay', () => {
  const es = [e('a', 'b'), e('b', 'c'), e('c', 'd'), e('a', 'd'), e('x', 'd'), e('a', 'c')];
  assert.deepEqual(keys(transitiveReduction(es)), ['a>b', 'b>c', 'c>d', 'x>d']);
});

test('edges inside a cycle are kept; an edge the cycle implies from outside is dropped', () => {
  const es = [e('a', 'b'), e('b', 'a'), e('s', 'a'), e('a', 'z'), e('b', 'z'), e('s', 'z')];
  assert.deepEqual(keys(transitiveReduction(es)), ['a>b', 'a>z', 'b>a', 'b>z', 's>a']);
});

test('a chain of 2,000 nodes with every shortcut keeps the chain alone', () => {
  const es = [];
  for (let i = 0; i < 2000; i++) es.push(e(`n${i}`, `n${i + 1}`));
  for (let i = 0; i < 2000; i += 7) es.push(e(`n${i}`, `n${i + 3}`));
  assert.equal(transitiveReduction(es).length, 2000);
});
