import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Graph } from '@pcp/graph-builder';
import { recordedProtocol } from './recorded-protocol.ts';

const graph = (protocol?: string): Pick<Graph, 'nodes' | 'root'> => ({
  root: 'doc',
  nodes: [{ id: 'doc', kind: 'resource', url: 'https://a.test/', start: 0, end: 1, ...(protocol ? { protocol } : {}) } as Graph['nodes'][number]],
});

test("recordedProtocol: the main document's protocol as the emulator names it; nothing when unknown", () => {
  assert.equal(recordedProtocol(graph('http/1.1')), 'h1');
  assert.equal(recordedProtocol(graph('h2')), 'h2');
  assert.equal(recordedProtocol(graph('h3')), 'quic-lite');
  assert.equal(recordedProtocol(graph('h3-29')), 'quic-lite');
  assert.equal(recordedProtocol(graph('HTTP/1.0')), 'h1.0');
  assert.equal(recordedProtocol(graph('spdy/3')), undefined);
  assert.equal(recordedProtocol(graph()), undefined);
});
