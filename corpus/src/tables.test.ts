import { test } from 'node:test';
import assert from 'node:assert/strict';
import { criticalPath, SCHEMA_VERSION, type Graph, type GraphNode, type ResourceNode } from '@pcp/graph-builder';
import { pageTables } from './tables.ts';

function resource(id: string, start: number, end: number, url: string, mimeType: string, size: number, more: Partial<ResourceNode> = {}): ResourceNode {
  return { id, kind: 'resource', frame: 'f0', start, end, url, mimeType, size, method: 'GET', status: 200, cached: false, priority: { mimeType: 1, criticalPath: 1 }, onCriticalPath: false, ...more };
}

// doc (0-100) -> parse (100-110) -> script.js (110-300) -> eval (300-340) -> load marker (340)
//                                -> img (110-200, another origin, off the path)
const nodes: GraphNode[] = [
  resource('doc', 0, 100, 'https://a.test/', 'text/html', 5000, { serverDelay: 20 }),
  { id: 'p0', kind: 'parse_chunk', frame: 'f0', start: 100, end: 110, docUrl: 'https://a.test/', startLine: 1, startColumn: 1, endLine: 3, endColumn: 1 },
  resource('js', 110, 300, 'https://a.test/s.js', 'application/javascript', 20000),
  resource('img', 110, 200, 'https://cdn.test/i.png', 'image/png', 70000, { serverDelay: 5, serverDelayEstimated: true }),
  { id: 's0', kind: 'script_eval', frame: 'f0', start: 300, end: 340, scriptUrl: 'https://a.test/s.js', scriptKind: 'sync' },
  { id: 'dcl', kind: 'marker', frame: 'f0', start: 340, end: 340, markerName: 'domContentLoaded' },
  { id: 'load', kind: 'marker', frame: 'f0', start: 345, end: 345, markerName: 'load' },
];
const graph: Graph = {
  schemaVersion: SCHEMA_VERSION,
  page: { url: 'https://a.test/' },
  frames: [{ id: 'f0', url: 'https://a.test/', parent: null }],
  nodes,
  edges: [
    { from: 'doc', to: 'p0', rule: 'resource-chunk' },
    { from: 'p0', to: 'js', rule: 1 },
    { from: 'p0', to: 'img', rule: 1 },
    { from: 'js', to: 's0', rule: 10 },
    { from: 's0', to: 'dcl', rule: 'completion:dcl' },
    { from: 'dcl', to: 'load', rule: 'completion:load' },
    { from: 'img', to: 'load', rule: 'completion:load' },
  ],
  markers: { domContentLoaded: 'dcl', load: 'load' },
  root: 'doc',
  provenance: { source: 'synthetic', tool: 'test', toolVersion: '0' },
};

test('pageTables: page facts, critical-path composition by kind, network vs computation', () => {
  const t = pageTables('a-1', graph);
  const p = t.page;
  assert.equal(criticalPath(graph).nodes.join(' '), 'doc p0 js s0 dcl load');
  assert.deepEqual([p.nodes, p.edges, p.resources, p.frames, p.origins, p.bytes], [7, 7, 3, 1, 2, 95000]);
  assert.deepEqual([p.load_ms, p.dcl_ms, p.cp_length_ms, p.cp_nodes], [345, 340, 340, 6]);
  assert.deepEqual([p.cp_resource_ms, p.cp_parse_chunk_ms, p.cp_script_eval_ms, p.cp_marker_ms, p.cp_event_ms], [290, 10, 40, 0, 0]);
  assert.deepEqual([p.cp_network_ms, p.cp_computation_ms], [290, 50]);
  assert.equal(p.cp_network_ms + p.cp_computation_ms, p.cp_length_ms);
  assert.deepEqual([p.cp_resources, p.cp_resource_share], [2, 2 / 3]);
});

test('pageTables: one row per node, edge and resource, keyed by the page id', () => {
  const t = pageTables('a-1', graph);
  assert.equal(t.nodes.length, 7);
  assert.deepEqual(t.nodes.filter((n) => n.on_critical_path).map((n) => n.node_id), ['doc', 'p0', 'js', 's0', 'dcl', 'load']);
  assert.deepEqual(t.nodes.find((n) => n.node_id === 's0'), {
    page_id: 'a-1', node_id: 's0', kind: 'script_eval', frame: 'f0', start_ms: 300, end_ms: 340, duration_ms: 40, phase: null, disabled: false, on_critical_path: true, label: 'https://a.test/s.js',
  });
  assert.deepEqual(t.edges[1], { page_id: 'a-1', from_node: 'p0', to_node: 'js', rule: '1' });
  const img = t.resources.find((r) => r.node_id === 'img')!;
  assert.deepEqual([img.origin, img.mime_class, img.server_delay_ms, img.server_delay_estimated, img.on_critical_path], ['https://cdn.test', 'image', 5, true, false]);
  const js = t.resources.find((r) => r.node_id === 'js')!;
  assert.deepEqual([js.mime_class, js.server_delay_ms, js.server_delay_estimated, js.on_critical_path], ['javascript', null, null, true]);
  assert.ok(t.nodes.every((n) => n.page_id === 'a-1') && t.resources.every((r) => r.page_id === 'a-1'));
});
