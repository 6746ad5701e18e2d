import { test } from 'node:test';
import assert from 'node:assert/strict';
import { closestPoint, sharesAt, type CalibrationPoint } from './calibrate.ts';
import { FREQUENCY_PROFILES } from './testbed.ts';

const point = (scale: number, mean: number): CalibrationPoint => ({ scale, shares: { clusterSlices: 1, meanClusterShare: mean, medianClusterShare: mean, meanClusterShareOfSent: mean, lifetimeShare: 0 } });

test('the calibration keeps the scale whose mean share is closest to the paper, the smaller on a tie', () => {
  const pts = [point(0, 0.8), point(0.5, 0.6), point(1, 0.35), point(2, 0.25)];
  assert.equal(closestPoint(pts, 0.3).scale, 1);
  assert.equal(closestPoint(pts, 0.1).scale, 2);
  assert.equal(closestPoint(pts, 0.9).scale, 0);
  assert.equal(closestPoint([point(0.5, 0.2), point(1, 0.4)], 0.3).scale, 0.5);
});

test("the emulator counts Goel's retransmission slices on the calibration workload", () => {
  const good = FREQUENCY_PROFILES.find((p) => p.name === 'Good')!;
  const lossy = sharesAt(good, 2, 2);
  assert.ok(lossy.clusterSlices > 0);
  assert.ok(lossy.meanClusterShare > 0 && lossy.meanClusterShare <= 1);
  assert.ok(lossy.lifetimeShare > 0 && lossy.lifetimeShare < 1);
  assert.deepEqual(sharesAt(good, 2, 2), lossy, 'seeded: the same shares again');
});
