import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Graph } from '@pcp/graph-builder';
import { heldReads } from './held-reads.ts';

const resource = (url: string, read: number | undefined, cached = false) =>
  ({ kind: 'resource', id: url, url, cached, start: 0, end: 1, ...(read === undefined ? {} : { browserDelay: { read } }) }) as unknown as Graph['nodes'][number];

test('heldReads: the recording\'s reads of --min ms or more beside the replay\'s, first uncached read per URL', () => {
  const recorded = { nodes: [resource('a.css', 228), resource('b.js', 3), resource('c.html', 788), resource('a.css', 5), resource('d.js', 100)] };
  const replayed = { nodes: [resource('c.html', 1, true), resource('c.html', 790), resource('a.css', 230)] };
  assert.deepEqual(heldReads(recorded, replayed), [
    { url: 'a.css', recorded: 228, replayed: 230 },
    { url: 'c.html', recorded: 788, replayed: 790 },
    { url: 'd.js', recorded: 100, replayed: undefined },
  ]);
  assert.deepEqual(heldReads(recorded, replayed, 500).map((r) => r.url), ['c.html']);
});
