import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CALIBRATION_TOLERANCE, closestPoint, sharesAt, type CalibrationPoint } from './calibrate.ts';
import { FREQUENCY_PROFILES } from './testbed.ts';

const point = (scale: number, mean: number): CalibrationPoint => ({ scale, shares: { clusterSlices: 1, meanClusterShare: mean, medianClusterShare: mean, meanClusterShareOfSent: mean, lifetimeShare: 0 } });

test('the calibration keeps the scale whose mean share is closest to the paper; on a tie the one nearest x1', () => {
  const pts = [point(0, 0.8), point(0.5, 0.6), point(1, 0.35), point(2, 0.25)];
  assert.equal(closestPoint(pts, 0.3, 0).scale, 1, '0.05 from the target either side: x1 of x1 and x2');
  assert.equal(closestPoint(pts, 0.1, 0).scale, 2);
  assert.equal(closestPoint(pts, 0.9, 0).scale, 0);
  assert.equal(closestPoint([point(0.5, 0.2), point(1, 0.4)], 0.3, 0).scale, 1);
  assert.equal(closestPoint([point(0.5, 0.45), point(2, 0.45)], 0.3, 0).scale, 0.5, 'as far from x1 both ways: the smaller');
});

test('shares within the tolerance of the closest are not told apart: the scale nearest x1 of them', () => {
  assert.equal(CALIBRATION_TOLERANCE, 0.03);
  // Frequency Median at 5 seeds (session 17): x0.25 48.6%, x0.5 48.3%, x1 50.0% against the paper's 38.0%.
  const median = [point(0, 0.508), point(0.1, 0.499), point(0.25, 0.486), point(0.5, 0.483), point(1, 0.5), point(2, 0.55)];
  assert.equal(closestPoint(median, 0.38, 0).scale, 0.5, 'without a tolerance 0.3 points decide');
  assert.equal(closestPoint(median, 0.38).scale, 1, 'x1 misses by 1.7 points more than x0.5: within 3');
  // A point more than 3 points farther is told apart: x1 is 3.5 points farther than x0.5 here.
  assert.equal(closestPoint([point(0.5, 0.40), point(1, 0.435)], 0.38).scale, 0.5);
  // Scale 0 (no loss slices) is never preferred to a scale within the tolerance.
  assert.equal(closestPoint([point(0, 0.40), point(0.1, 0.42)], 0.3).scale, 0.1);
});

test("the emulator counts Goel's retransmission slices on the calibration workload", () => {
  const good = FREQUENCY_PROFILES.find((p) => p.name === 'Good')!;
  const lossy = sharesAt(good, 2, 2);
  assert.ok(lossy.clusterSlices > 0);
  assert.ok(lossy.meanClusterShare > 0 && lossy.meanClusterShare <= 1);
  assert.ok(lossy.lifetimeShare > 0 && lossy.lifetimeShare < 1);
  assert.deepEqual(sharesAt(good, 2, 2), lossy, 'seeded: the same shares again');
});
