import { test } from 'node:test';
import assert from 'node:assert/strict';
import { indexGraph } from './graph-index.ts';
import { perIndex } from './per-index.ts';
import { graphOf, res } from './testing.ts';

test('perIndex: built once per index, again for another index of the same graph', () => {
  const g = graphOf('http://once.pcp.test/', [res('doc', 'http://once.pcp.test/', 'text/html', 100)], []);
  let builds = 0;
  const count = perIndex((ix) => (builds++, ix.graph.nodes.length));
  const a = indexGraph(g);
  assert.equal(count(a), count(a));
  assert.equal(builds, 1);
  count(indexGraph(g));
  assert.equal(builds, 2);
  const undef = perIndex(() => (builds++, undefined));
  undef(a);
  undef(a);
  assert.equal(builds, 3, 'an undefined result is kept too');
});
