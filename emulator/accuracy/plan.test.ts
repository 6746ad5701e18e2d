import { test } from 'node:test';
import assert from 'node:assert/strict';
import { describePlan, plan, type Speed } from './plan.ts';

const speed: Speed = { loadsPerMinute: 30, recordSecondsPerPage: 6, linkSetupSeconds: 4, at: '2026-11-22T20:00Z', loadAverage: '1.0 1.0 1.0' };

test('plan: loads left over the measured rate, plus recordings and link setup', () => {
  const o = { pages: 30, conditions: 9, runs: 5, done: 0, toRecord: 30 };
  const p = plan(o, speed);
  assert.equal(p.loads, 1350);
  // 1350 / 30 = 45 min; 30 x 6 s = 3 min; 9 x 4 s = 0.6 min.
  assert.ok(Math.abs(p.minutes! - 48.6) < 1e-9);
  assert.ok(Math.abs(plan({ ...o, done: 1350, toRecord: 0 }, speed).minutes! - 0.6) < 1e-9);
  assert.equal(plan(o, undefined).minutes, undefined);
  assert.match(describePlan(o, p, speed), /30 pages x 9 conditions x 5 runs = 1350 real loads \(0 already done\), 30 pages to record; projected 49 min at 30\.0 loads per minute/);
  assert.match(describePlan(o, plan(o, undefined), undefined), /no measured speed yet/);
});
