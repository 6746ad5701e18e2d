import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PageBuilder } from '@pcp/graph-builder/testing';
import { firstAhead, formatTimeline, identityTimeline } from './identity-timeline.ts';
import type { SimResult } from '../src/simulator.ts';

test('identityTimeline: recorded and emulated times of each node on one clock; firstAhead names where the emulation first runs ahead', () => {
  const g = new PageBuilder()
    .resource('doc', 'http://a.com/dir/index.html?x=1', 1000, { serverDelay: 1, mimeType: 'text/html' })
    .chunk('c0', 'doc', 0, 0).chunk('c1', 'doc', 0, 1000).parse('p0', 2)
    .edge('doc', 'c1').edge('c1', 'p0').edge('p0', 'load').build();
  const set = (id: string, start: number, end: number) => Object.assign(g.nodes.find((x) => x.id === id)!, { start, end });
  set('doc', 0, 10);
  (g.nodes.find((x) => x.id === 'doc') as { responseStart?: number }).responseStart = 4;
  set('c1', 0, 10);
  set('p0', 12, 14);
  set('load', 15, 15);
  g.navigation = { navigationStartOffset: 30, documentRequest: -28 };
  // The emulation's clock starts at the document's request: 30 - 28 = 2 ms after navigation start.
  const result = { navigationStartOffset: 2, nodes: [
    { id: 'doc', start: 0, end: 37 }, { id: 'c1', start: 37, end: 37 }, { id: 'p0', start: 38, end: 40 }, { id: 'load', start: 43, end: 43 },
  ] } as unknown as SimResult;
  const rows = identityTimeline(g, result);
  assert.deepEqual(rows.map((r) => r.id), ['dcl', 'doc', 'c1', 'p0', 'load'], 'the empty chunk c0 left out; recorded start order');
  assert.equal(rows[0]!.emulatedEnd, undefined, 'dcl: not emulated here');
  assert.deepEqual(rows[1], { id: 'doc', kind: 'resource', label: 'index.html', recordedStart: 30, recordedEnd: 40, recordedFirstByte: 34, emulatedStart: 2, emulatedEnd: 39 });
  // doc is 1 ms early, p0 2 ms (44 vs 42), load 0.
  assert.equal(firstAhead(rows, 0.5)?.id, 'doc');
  assert.equal(firstAhead(rows, 1.5)?.id, 'p0');
  assert.equal(firstAhead(rows, 5), undefined);
  assert.match(formatTimeline(rows, 1.5), /first ahead by more than 1.5 ms: p0 \(parse_chunk\), 2.0 ms early/);
  assert.throws(() => identityTimeline({ ...g, navigation: undefined }, result), /no navigation/);
});
