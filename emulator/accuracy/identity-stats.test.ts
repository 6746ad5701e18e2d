import { test } from 'node:test';
import assert from 'node:assert/strict';
import { csvRow, pageIdentity, summarize } from './identity-stats.ts';
import { quantile } from '../src/stats.ts';

test('pageIdentity: medians of the runs, signed relative errors', () => {
  // Recorded loads 300, 280, 320 (median 300) emulated 270, 290, 260 (median 270): -10%.
  const p = pageIdentity('demo', [
    { recordedLoad: 300, recordedDcl: 200, emulatedLoad: 270, emulatedDcl: 220 },
    { recordedLoad: 280, recordedDcl: 180, emulatedLoad: 290, emulatedDcl: 200 },
    { recordedLoad: 320, recordedDcl: 220, emulatedLoad: 260, emulatedDcl: 210 },
  ]);
  assert.deepEqual([p.recordedLoad, p.recordedLoadMin, p.recordedLoadMax, p.emulatedLoad], [300, 280, 320, 270]);
  assert.ok(Math.abs(p.loadError - -0.1) < 1e-12);
  assert.ok(Math.abs(p.dclError - (210 - 200) / 200) < 1e-12);
  assert.equal(csvRow(p), 'demo,3,300.0,280.0,320.0,270.0,-0.1000,200.0,210.0,0.0500');
  assert.throws(() => pageIdentity('empty', []), /no runs/);
});

test('summarize: median and p90 of |error| over pages, and the signed bias', () => {
  const page = (e: number) => pageIdentity(`p${e}`, [{ recordedLoad: 100, recordedDcl: 100, emulatedLoad: 100 * (1 + e), emulatedDcl: 100 * (1 - e) }]);
  const s = summarize([-0.3, -0.1, 0, 0.05, 0.2].map(page));
  assert.equal(s.pages, 5);
  assert.ok(Math.abs(s.loadMedian - 0.1) < 1e-12);
  // |errors| sorted 0, .05, .1, .2, .3: p90 at position 3.6 -> .2 + .6 * .1 = .26.
  assert.ok(Math.abs(s.loadP90 - 0.26) < 1e-12);
  assert.ok(Math.abs(s.dclMedian - 0.1) < 1e-12);
  assert.ok(Math.abs(s.loadBias - 0) < 1e-12);
  assert.equal(quantile([5], 0.9), 5);
});
