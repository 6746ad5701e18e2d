import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { EventNode, Graph } from '@pcp/graph-builder';
import { indexGraph } from './graph-index.ts';
import { readyStateOf } from './ready-states.ts';
import { graphOf, res } from './testing.ts';

const page = 'http://states.pcp.test/';
const rs = (id: string, start: number, frame = 'main') => ({ id, kind: 'event' as const, eventName: 'readystatechange', eventTarget: 'Document', frame, start, end: start + 1 });
/** A graph with the main frame's DOMContentLoaded and load markers at `dcl` and `load` ms. */
function withMilestones(g: Graph, dcl: number, load: number): Graph {
  for (const n of g.nodes) if (n.id === 'dcl' || n.id === 'load') Object.assign(n, { start: n.id === 'dcl' ? dcl : load, end: n.id === 'dcl' ? dcl : load });
  return g;
}
const stateOf = (g: Graph, id: string) => {
  const ix = indexGraph(g);
  return readyStateOf(ix, ix.byId.get(id) as EventNode);
};

test("two readystatechanges of a document (www.2ch.net: 3,029 and 3,763 ms): the first is interactive's, the second complete's", () => {
  const g = withMilestones(graphOf(page, [res('doc', page, 'text/html', 100), rs('a', 3029), rs('b', 3763)], []), 3030, 3765);
  assert.equal(stateOf(g, 'a'), 'interactive');
  assert.equal(stateOf(g, 'b'), 'complete');
});

test("one readystatechange: the milestone it is nearer to (www.bild.de's ad frame: at its load, 6,213 ms, DOMContentLoaded at 2,389)", () => {
  assert.equal(stateOf(withMilestones(graphOf(page, [res('doc', page, 'text/html', 100), rs('a', 6213)], []), 2389, 6213), 'a'), 'complete');
  assert.equal(stateOf(withMilestones(graphOf(page, [res('doc', page, 'text/html', 100), rs('a', 6680)], []), 6684, 6736), 'a'), 'interactive');
  // The frame's own DOMContentLoaded event counts as its milestone too (frames have no markers).
  const frames = [{ id: 'main', url: page, parent: null }, { id: 'f', url: 'http://ad.pcp.test/', parent: 'main' }];
  const g = graphOf(page, [res('doc', page, 'text/html', 100), rs('a', 50, 'f'),
    { id: 'd', kind: 'event', eventName: 'DOMContentLoaded', eventTarget: 'Document', frame: 'f', start: 51, end: 52 },
    { id: 'w', kind: 'event', eventName: 'load', eventTarget: 'Window', frame: 'f', start: 400, end: 401 }], [], frames);
  assert.equal(stateOf(g, 'a'), 'interactive');
});

test('the graph does not tell: no milestone in its frame, or more than two; not a document readystatechange', () => {
  const frames = [{ id: 'main', url: page, parent: null }, { id: 'f', url: 'http://ad.pcp.test/', parent: 'main' }];
  assert.equal(stateOf(graphOf(page, [res('doc', page, 'text/html', 100), rs('a', 50, 'f')], [], frames), 'a'), undefined);
  const three = withMilestones(graphOf(page, [res('doc', page, 'text/html', 100), rs('a', 10), rs('b', 20), rs('c', 30)], []), 15, 35);
  assert.equal(stateOf(three, 'b'), undefined);
  const xhr = graphOf(page, [res('doc', page, 'text/html', 100), { id: 'x', kind: 'event', eventName: 'readystatechange', eventTarget: 'XMLHttpRequest', start: 5, end: 6 }], []);
  assert.equal(stateOf(xhr, 'x'), undefined);
});
