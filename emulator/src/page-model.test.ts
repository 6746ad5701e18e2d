import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { GraphNode, ResourceNode } from '@pcp/graph-builder';
import { PageBuilder } from '@pcp/graph-builder/testing';
import { bytesArrivedAt, cacheSlots, compileGraph, hiddenMainThreadWork, K_RESOURCE, K_SCRIPT, responseAfterPace } from './page-model.ts';

const doc = (over: Partial<ResourceNode> = {}): ResourceNode =>
  ({ id: 'doc', kind: 'resource', url: 'https://a.test/', start: 0, end: 340, size: 1000, responseStart: 4, ...over }) as ResourceNode;

test('bytesArrivedAt: the arrival that brought a byte count in (encoded pieces scaled to the decoded size), else the response', () => {
  const trickled = doc({ arrivals: [{ at: 4, bytes: 100 }, { at: 90, bytes: 150 }, { at: 340, bytes: 250 }] }); // 500 encoded of 1000 decoded
  assert.equal(bytesArrivedAt(trickled, 150), 4); // 75 encoded
  assert.equal(bytesArrivedAt(trickled, 200), 4); // 100 encoded: the first piece's last byte
  assert.equal(bytesArrivedAt(trickled, 201), 90);
  assert.equal(bytesArrivedAt(trickled, 1000), 340);
  assert.equal(bytesArrivedAt(doc(), 700), 4, 'one piece: with its response');
});

test("hidden main-thread work before a parse chunk counts from its bytes' arrival, not its download chunk's nominal span", () => {
  // A trickled one-line document: chunk 0 holds bytes [0, 200), which came with the first piece at 4 ms; the
  // builder's convention spreads the chunks over the download (0-68 ms for 200 of 1000 bytes over 340 ms).
  // The main thread was busy 10-30 ms with work no node holds; the parse chunk ran at 30: it waited those 20 ms.
  const nodes: GraphNode[] = [
    doc({ arrivals: [{ at: 4, bytes: 200 }, { at: 340, bytes: 800 }] }),
    { id: 'dc0', kind: 'download_chunk', resource: 'doc', index: 0, offset: 0, size: 200, start: 0, end: 68 } as GraphNode,
    { id: 'pc0', kind: 'parse_chunk', start: 30, end: 31 } as GraphNode,
    { id: 'dc1', kind: 'download_chunk', resource: 'doc', index: 1, offset: 200, size: 800, start: 68, end: 340 } as GraphNode,
    { id: 'pc1', kind: 'parse_chunk', start: 345, end: 346 } as GraphNode,
  ];
  const parents = [[], [0], [1], [0, 1], [2, 3]];
  const tasks: Array<[number, number]> = [[10, 30], [335, 345]];
  const work = hiddenMainThreadWork(tasks, nodes, parents, 0).computations;
  assert.equal(work[2], 20);
  // The chunk that ends the body is ready at the body's end (340), as the simulator completes it: 5 ms of the last task.
  assert.equal(work[4], 5);
});

test("hidden main-thread work: the chunk that ends the body is ready at the body's end, also when timed by its bytes' arrival", () => {
  // The same document with its chunks timed by arrival (graph-builder chunk-times.ts 'received'): chunk 1 spans its
  // bytes' arrival, 300-320 ms, and ends before the body's finish at 340 (the renderer read the last piece late).
  // The main thread was busy 320-345; the last parse chunk ran at 345. It was ready at 340, as the simulator
  // completes the chunk with its body: 5 ms held, not 25.
  const nodes: GraphNode[] = [
    doc({ arrivals: [{ at: 4, bytes: 200 }, { at: 300, bytes: 400 }, { at: 320, bytes: 400 }] }),
    { id: 'dc0', kind: 'download_chunk', resource: 'doc', index: 0, offset: 0, size: 200, start: 4, end: 4 } as GraphNode,
    { id: 'pc0', kind: 'parse_chunk', start: 30, end: 31 } as GraphNode,
    { id: 'dc1', kind: 'download_chunk', resource: 'doc', index: 1, offset: 200, size: 800, start: 300, end: 320 } as GraphNode,
    { id: 'pc1', kind: 'parse_chunk', start: 345, end: 346 } as GraphNode,
  ];
  const work = hiddenMainThreadWork([[320, 345]], nodes, [[], [0], [1], [0, 1], [2, 3]], 0).computations;
  assert.equal(work[4], 5);
});

test('hidden main-thread work with the event markers among the work held up: a marker dispatched first takes the stretch before it', () => {
  // A script ran 0-10; the main thread was busy 10-40 with work no node holds; DOMContentLoaded fired at 25 and a
  // timer child of the script ran at 40. Computations only: the timer waited all 30 ms. With markers: the
  // marker (ready at the script's end) takes 10-25, the timer the rest.
  const nodes: GraphNode[] = [
    { id: 's', kind: 'script_eval', start: 0, end: 10 } as GraphNode,
    { id: 'dcl', kind: 'marker', markerName: 'domContentLoaded', start: 25, end: 25 } as GraphNode,
    { id: 't', kind: 'timer', timerDelay: 0, start: 40, end: 41 } as GraphNode,
  ];
  const work = hiddenMainThreadWork([[0, 40]], nodes, [[], [0], [0]], 0);
  assert.deepEqual([...work.computations], [0, 0, 30]);
  assert.deepEqual([...work.markers], [0, 15, 15]);
  const none = hiddenMainThreadWork(undefined, nodes, [[], [0], [0]], 0);
  assert.deepEqual([...none.computations, ...none.markers], [0, 0, 0, 0, 0, 0], 'no recorded tasks: none');
});

test("responseAfterPace: a paced body's response delay runs from its last piece read, not from the network's end", () => {
  const pace = { after: [0, 200], upTo: [1000, 2000] };
  // mailchimp's document: the network had the body 131 ms before the renderer's finish; the renderer read the last
  // piece at 241.0, 0.4 ms before its finish at 241.4 (its main thread had been busy).
  const paced = doc({ end: 241.4, browserDelay: { response: 131 }, arrivals: [{ at: 15, bytes: 1000 }, { at: 241, bytes: 1000 }] });
  assert.ok(Math.abs(responseAfterPace(paced, pace) - 0.4) < 1e-9);
  assert.equal(responseAfterPace(paced, null), 131, 'not paced: the recorded delay');
  assert.equal(responseAfterPace(doc({ end: 250, browserDelay: { response: 2 }, arrivals: [{ at: 15, bytes: 1000 }, { at: 300, bytes: 1000 }] }), pace), 0, 'finish before the last read: none');
  assert.equal(responseAfterPace(doc({}), pace), 0, 'not recorded');
});

test('syncScriptReach: the parse chunk that requested a sync script, or that its evaluation waits for, reaches its tag', () => {
  const g = new PageBuilder()
    .resource('H', 'http://a.com/', 2000, { mimeType: 'text/html' })
    .chunk('c0', 'H', 0, 2000).parse('p0', 1).parse('p1', 1)
    .resource('S1', 'http://a.com/1.js', 100).script('E1', 1, 'sync') // 2016 shape: p0 -> S1 -> E1
    .resource('S2', 'http://a.com/2.js', 100).script('E2', 1, 'sync') // Chrome-trace shape: p0 -> S2 -> E2, p0 -> E2
    .resource('S3', 'http://a.com/3.js', 100).script('E3', 1, 'sync') // inserted by E1: no chunk reaches it
    .script('E4', 1, 'inline') // no download: not the preloader's signal
    .edge('H', 'c0').edge('c0', 'p0').edge('p0', 'p1')
    .edge('p0', 'S1').edge('S1', 'E1').edge('E1', 'p1')
    .edge('p0', 'S2').edge('S2', 'E2').edge('p0', 'E2')
    .edge('E1', 'S3').edge('S3', 'E3').edge('p1', 'E4')
    .build();
  const m = compileGraph(g);
  const at = (id: string): number => m.ids.indexOf(id);
  assert.deepEqual([...m.parseReachesSync[at('p0')]!].sort(), [at('E1'), at('E2')].sort());
  assert.deepEqual([...m.parseReachesSync[at('p1')]!], []);
  assert.deepEqual([at('E1'), at('E2'), at('E3'), at('E4')].map((s) => m.syncReach[s]), [1, 1, 0, 0]);
});

test('cacheSlots: resources with the same session-cache key share a slot, numbered in node order; other nodes have none', () => {
  const kind = Uint8Array.from([K_RESOURCE, K_SCRIPT, K_RESOURCE, K_RESOURCE, K_RESOURCE]);
  const resOf = Int32Array.from([0, -1, 1, 2, 3]);
  const res = [{ cacheKey: 'https://a.test/' }, { cacheKey: 'https://a.test/logo.png' }, { cacheKey: 'https://a.test/' }, { cacheKey: 'post\u0000https://a.test/' }];
  const { cacheSlot, cacheSlots: n } = cacheSlots(5, kind, resOf, res);
  assert.deepEqual([...cacheSlot], [0, -1, 1, 0, 2]);
  assert.equal(n, 3);
});
