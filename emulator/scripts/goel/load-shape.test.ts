import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadShape } from './load-shape.ts';

test('loadShape: the busiest connection, its rate while sending, the page rate, the retransmitted share', () => {
  // Small objects: 10 segments in slice 0. Bulk: idle in slice 0, then 20, 0, 40 segments (one retransmitted)
  // in slices 1-3: 60 of 70 segments, 60 / 3 slices = 20 per slice; the page: 70 segments in a 350 ms load of
  // 70 ms slices = 14 per slice; 1 of 70 retransmitted.
  const s = loadShape(
    [
      { sent: [10], retransmitted: [0], received: [1] },
      { sent: [0, 20, 0, 40, 0], retransmitted: [0, 0, 0, 1, 0], received: [1, 10, 0, 20, 1] },
    ],
    350,
    70,
  );
  assert.equal(s.bulkShare, 60 / 70);
  assert.equal(s.bulkRate, 20);
  assert.equal(s.pageRate, 14);
  assert.equal(s.retransmittedShare, 1 / 70);
});

test('loadShape: nothing sent is all zeros, not NaN', () => {
  assert.deepEqual(loadShape([{ sent: [0], retransmitted: [0], received: [0] }], 100, 70), { bulkShare: 0, bulkRate: 0, pageRate: 0, retransmittedShare: 0 });
  assert.deepEqual(loadShape([], 100, 70), { bulkShare: 0, bulkRate: 0, pageRate: 0, retransmittedShare: 0 });
});
