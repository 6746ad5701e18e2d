import { test } from 'node:test';
import assert from 'node:assert/strict';
import { synthesizeSite } from './site.ts';
import { indexGraph } from './graph-index.ts';
import { scriptElementLoads } from './script-loads.ts';
import { compareRoundTrip } from './compare.ts';
import { loaderPage as loaderPageOf, type NodeSpec } from './testing.ts';

const PAGE = 'http://loader.pcp.test/';

const loaderPage = (loadStart?: number, extra?: NodeSpec[], extraEdges?: [string, string, number | string][]) => loaderPageOf(PAGE, loadStart, extra, extraEdges);
const pageHtml = (g: ReturnType<typeof loaderPage>): string => synthesizeSite(g).responses.find((r) => r.url === PAGE)!.body.toString();

test('a script element\'s load hung off a parse chunk, begun as the script\'s run ended, is that element\'s onload', () => {
  const g = loaderPage();
  const ix = indexGraph(g);
  assert.equal(scriptElementLoads(ix).get('streams')?.id, 'l_0');
  // The handler requests boot.js: it is the onload of the streams.js element the DOMContentLoaded handler inserts.
  assert.match(pageHtml(g), /E\("script","http:\/\/cdn\.pcp\.test\/streams\.js",function\(\)\{B\(2\);E\("script","http:\/\/cdn\.pcp\.test\/boot\.js"\);\}\);/);
});

test('a load that began later than the script\'s run is not taken for its element\'s', () => {
  const g = loaderPage(40);
  assert.equal(scriptElementLoads(indexGraph(g)).size, 0);
  assert.doesNotMatch(pageHtml(g), /boot\.js/);
});

test('a script whose download already has a load of its own keeps it', () => {
  const g = loaderPage(30.5, [{ id: 'own', kind: 'event', eventName: 'load', eventTarget: 'Element', start: 31, end: 32 }], [['streams', 'own', 25]]);
  assert.equal(scriptElementLoads(indexGraph(g)).size, 0);
  assert.match(pageHtml(g), /E\("script","http:\/\/cdn\.pcp\.test\/streams\.js",function\(\)\{B\(1\);\}\);/);
});

test('an evaluation in another frame does not claim the load', () => {
  const frames = [{ id: 'main', url: PAGE, parent: null }, { id: 'ad', url: 'http://ad.pcp.test/', parent: 'main' }];
  const g = loaderPage();
  const moved = { ...g, frames, nodes: g.nodes.map((n) => (n.id === 'l_0' ? { ...n, frame: 'ad' } : n)) };
  assert.equal(scriptElementLoads(indexGraph(moved)).size, 0);
});

test('the comparison takes the parse chunk -> load edge of such a load for the script -> load edge a trace draws', () => {
  const source = loaderPage();
  const built = { ...source, edges: source.edges.map((e) => (e.from === 'p0' && e.to === 'l_0' ? { from: 'streams', to: 'l_0', rule: 25 } : e)) };
  const f = compareRoundTrip(source, built);
  assert.equal(f.edgeRecall, 1);
  assert.equal(f.edgePrecision, 1);
});
