import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pacePlan } from '@pcp/replay';
import { xhrPace } from './xhr-pace.ts';

test('one piece per LOADING dispatch, spaced as recorded, the last at the transfer end', () => {
  // HEADERS_RECEIVED at 100, LOADING at 150, 170, 200, DONE at 201; transfer 300 ms after the headers
  assert.deepEqual(xhrPace([100, 150, 170, 200, 201], 900, 300), [[0, 0], [250, 300], [270, 300], [300, 300]]);
});

test('pieces closer than the gap are spread to it, keeping the end; never before the headers', () => {
  assert.deepEqual(xhrPace([0, 10, 10.2, 10.4, 11], 10, 100), [[0, 0], [68, 3], [84, 3], [100, 4]], 'the default gap, 16 ms');
  assert.deepEqual(xhrPace([0, 10, 10.2, 10.4, 11], 10, 100, 4), [[0, 0], [92, 3], [96, 3], [100, 4]]);
  assert.deepEqual(xhrPace([0, 10, 10.2, 10.4, 11], 10, 2, 4), [[0, 0], [0, 3], [4, 3], [8, 4]]);
});

test('three dispatches (headers, one LOADING, DONE) or a tiny body: held whole (undefined)', () => {
  assert.equal(xhrPace([1, 2, 3], 100, 50), undefined);
  assert.equal(xhrPace([1, 2, 3, 4, 5, 6], 1, 50), undefined);
  assert.deepEqual(xhrPace([1, 2, 3, 4, 5, 6], 2, 50, 1)!.length, 3, 'two bytes: two pieces');
});

test('the replay sends every piece apart (its pace plan keeps them)', () => {
  const chunks = xhrPace([0, 1, 1.1, 1.2, 1.3, 1.4, 2], 5000, 40, 4)!;
  const steps = pacePlan(chunks, 5000);
  assert.equal(steps.filter((s, i) => s.end > (steps[i - 1]?.end ?? 0)).length, 5);
  assert.equal(steps.at(-1)!.atMs, 40);
});
