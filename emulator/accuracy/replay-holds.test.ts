import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Graph } from '@pcp/graph-builder';
import { droppedHolds, servedHold } from './replay-holds.ts';

const resource = (url: string, read: number | undefined, requestType = 'Script') =>
  ({ kind: 'resource', id: url, url, requestType, start: 0, end: 1, ...(read === undefined ? {} : { browserDelay: { read } }) }) as unknown as Graph['nodes'][number];
const body = (n: number): Buffer => Buffer.alloc(n);

test('the hold the replay serves is its pacing\'s last write; an unpaced body has none', () => {
  assert.equal(servedHold({ chunks: [[764.9, 190], [780.9, 1156]], body: body(1346) }), 780.9);
  assert.equal(servedHold({ chunks: undefined, body: body(100) }), 0);
  assert.equal(servedHold({ chunks: [[0.1, 286558], [0.1, 93214], [0.2, 0]], body: body(379772) }), 0.1, 'chunks under 1 ms apart merge into one write');
});

test("a recorded read the archive's chunks do not hold is reported, with why; one they hold, or the browser's own read, is not", () => {
  // Synthesized craigslist as kept by session 7: the script's chunks timed from a late responseReceived, a style
  // sheet in one piece (no _chunks), a frame document whose 765 ms hold its chunks do carry, and a response
  // whose 3 ms read is the network service's own.
  const graph = { nodes: [
    resource('https://w.test/general-concat.js', 578.9),
    resource('https://w.test/homepage.css', 228.1, 'Stylesheet'),
    resource('https://u.test/localstorage.html', 787.2, 'Document'),
    resource('https://w.test/small.js', 3),
    resource('https://w.test/no-read.js', undefined),
    resource('https://w.test/not-archived.js', 400),
  ] };
  const entries = [
    { url: 'https://w.test/general-concat.js', chunks: [[0.1, 286558], [0.1, 93214], [0.2, 0]] as [number, number][], body: body(379772) },
    { url: 'https://w.test/homepage.css', body: body(15536) },
    { url: 'https://u.test/localstorage.html', chunks: [[764.9, 190], [780.9, 1156]] as [number, number][], body: body(1346) },
    { url: 'https://w.test/small.js', body: body(10) },
    { url: 'https://w.test/no-read.js', body: body(10) },
  ];
  const rows = droppedHolds(graph, entries);
  assert.deepEqual(rows.map((r) => [r.url, r.why, Math.round(r.lost * 10) / 10]), [
    ['https://w.test/general-concat.js', 'late response', 578.8],
    ['https://w.test/homepage.css', 'one piece', 228.1],
  ]);
  assert.equal(droppedHolds(graph, entries, 5).length, 3, '--min 5: the frame document\'s 6 ms beyond its chunks counts too');
});
