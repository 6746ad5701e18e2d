import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Graph, GraphNode, ResourceNode } from '../format/types.ts';
import { validateGraph } from '../format/validate.ts';
import { mergeServerDelays, parseServerDelays, type ServerDelayRecord } from './server-delays.ts';

function resource(id: string, url: string, start: number): ResourceNode {
  return {
    id, kind: 'resource', frame: 'f0', start, end: start + 10, url, mimeType: 'text/css', size: 100,
    method: 'GET', status: 200, cached: false, priority: { mimeType: 1, criticalPath: 1 }, onCriticalPath: false,
  };
}

/** Three resources: a.css twice (requested at 5 and 50), b.js once, plus a marker that must stay untouched. */
function graph(): Graph {
  const nodes: GraphNode[] = [
    resource('r3', 'http://x.test/a.css', 50),
    resource('r1', 'http://x.test/a.css', 5),
    resource('r2', 'https://y.test/b.js#frag', 20),
    { id: 'm1', kind: 'marker', frame: 'f0', start: 60, end: 60, markerName: 'load' },
    { id: 'm0', kind: 'marker', frame: 'f0', start: 30, end: 30, markerName: 'domContentLoaded' },
  ];
  return {
    schemaVersion: 1, page: { url: 'http://x.test/' }, frames: [{ id: 'f0', url: 'http://x.test/', parent: null }],
    nodes, edges: [{ from: 'r1', to: 'r2', rule: 1 }], markers: { domContentLoaded: 'm0', load: 'm1' },
    provenance: { source: 'synthetic', tool: 'test', toolVersion: '0' },
  } as Graph;
}

function rec(url: string, delayMs: number | null, estimated = false): ServerDelayRecord {
  return { method: 'GET', host: '', url, size: 1, delayMs, mimeType: 'text/css', extType: 'css', tls: false, cached: false, estimated };
}

test('delays go to resources by url, the i-th record of a url to its i-th request', () => {
  const g = graph();
  const before = JSON.stringify(g);
  // Records of a.css in order: 12 ms (measured) then 34 ms (estimated). By start, r1 (5) is the first
  // a.css request and r3 (50) the second; b.js (fragment dropped) gets 7 ms; c.png has no node.
  const res = mergeServerDelays(g, [rec('http://x.test/a.css', 12), rec('https://y.test/b.js', 7),
    rec('http://x.test/a.css', 34, true), rec('http://x.test/c.png', 3), rec('http://x.test/none', null)]);
  const byId = new Map(res.graph.nodes.map((n) => [n.id, n]));
  const r = (id: string) => byId.get(id) as ResourceNode;
  assert.deepEqual([r('r1').serverDelay, r('r1').serverDelayEstimated], [12, false]);
  assert.deepEqual([r('r3').serverDelay, r('r3').serverDelayEstimated], [34, true]);
  assert.deepEqual([r('r2').serverDelay, r('r2').serverDelayEstimated], [7, false]);
  assert.equal(res.matched, 3);
  assert.deepEqual(res.unmatched.map((u) => u.url).sort(), ['http://x.test/c.png', 'http://x.test/none']);
  assert.equal(JSON.stringify(g), before, 'input graph unchanged');
  assert.deepEqual(res.graph.nodes.map((n) => n.id), g.nodes.map((n) => n.id), 'node order kept');
  assert.deepEqual(validateGraph(g), { ok: true, errors: [] });
  assert.deepEqual(validateGraph(res.graph), { ok: true, errors: [] }, 'merged graph is valid v1');
});

test('more records than requests of a url leave the extra ones unmatched', () => {
  const res = mergeServerDelays(graph(), [rec('https://y.test/b.js', 1), rec('https://y.test/b.js', 2)]);
  assert.equal(res.matched, 1);
  assert.deepEqual(res.unmatched.map((u) => u.delayMs), [2]);
});

test('parseServerDelays reads the pcp delays JSON and names a bad record', () => {
  const recs = parseServerDelays({ schema: 'pcp-server-delays/1', records: [rec('http://x.test/a.css', 5)] });
  assert.equal(recs[0]?.delayMs, 5);
  assert.equal(parseServerDelays([rec('u', null)])[0]?.delayMs, null);
  assert.throws(() => parseServerDelays({ records: [{ delayMs: 3 }] }), /record 0/);
  assert.throws(() => parseServerDelays({ nope: 1 }), /not a server delays file/);
});

test("a delay longer than the node's recorded exchange is clamped to it and marked estimated", () => {
  const g = graph();
  // r2 (b.js) sent at 20, on the socket 2 ms later, its headers at the renderer at 37: at most 15 ms.
  Object.assign(g.nodes[2]!, { responseStart: 37, browserDelay: { request: 2 } });
  // r1 (a.css): on the socket at 5 + 1 + 4 (connection set-up), headers at 30: at most 20 ms.
  Object.assign(g.nodes[1]!, { responseStart: 30, browserDelay: { request: 1, connect: 4 } });
  const res = mergeServerDelays(g, [rec('https://y.test/b.js', 229.5, true), rec('http://x.test/a.css', 12)]);
  const byId = new Map(res.graph.nodes.map((n) => [n.id, n as ResourceNode]));
  assert.equal(byId.get('r2')!.serverDelay, 15);
  assert.equal(byId.get('r2')!.serverDelayEstimated, true);
  assert.equal(byId.get('r1')!.serverDelay, 12, 'inside its window: kept');
  assert.equal(byId.get('r1')!.serverDelayEstimated, false);
  assert.equal(res.clamped, 1);
  // A document's start is its commit, after its response: not bounded.
  const d = graph();
  Object.assign(d.nodes[2]!, { responseStart: 0.04, requestType: 'Document', documentOfFrame: 'f0', browserDelay: { request: 2 } });
  assert.equal(mergeServerDelays(d, [rec('https://y.test/b.js', 1.5)]).clamped, 0);
  // Without the recorded times (legacy graphs) nothing bounds a delay.
  assert.equal(mergeServerDelays(graph(), [rec('https://y.test/b.js', 229.5, true)]).clamped, 0);
});
