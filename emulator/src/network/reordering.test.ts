/** The reordering decisions (reordering.ts), hand-derived; their timelines on a connection are in tcp.test.ts. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lateSegmentLost, MAX_REORDERING, raisedReordering, reorderingMetric } from './reordering.ts';

test('the reordering a segment saw: the distance to the highest acknowledged, both ends counted', () => {
  assert.equal(reorderingMetric(-1, 0), 0); // nothing acknowledged yet
  assert.equal(reorderingMetric(4, 5), 0); // in order
  assert.equal(reorderingMetric(5, 0), 6); // segment 0 acknowledged after 1-5
  assert.equal(reorderingMetric(7, 6), 2);
});

test('the reordering degree only rises, to at most 127', () => {
  assert.equal(raisedReordering(3, 2), 3);
  assert.equal(raisedReordering(3, 6), 6);
  assert.equal(raisedReordering(6, 4), 6);
  assert.equal(raisedReordering(3, 500), MAX_REORDERING);
});

test('a late segment is lost at the degree counted above it, or with FACK once one that far above is acknowledged', () => {
  assert.equal(lateSegmentLost(2, 2, 3, false), false);
  assert.equal(lateSegmentLost(3, 3, 3, false), true);
  // One acknowledged 5 above it (those between still on their way): FACK only.
  assert.equal(lateSegmentLost(1, 5, 3, false), false);
  assert.equal(lateSegmentLost(1, 5, 3, true), true);
  // After reordering raised the degree to 6, three above no longer make it lost.
  assert.equal(lateSegmentLost(3, 3, 6, false), false);
});
