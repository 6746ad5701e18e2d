import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Rng } from '../../src/index.ts';
import { baseRttMs, FREQUENCY_PROFILES, QUALITY_PROFILES, quantileDraw, quantileMean, RTT_MS, SCRIPT_RUN, scriptWalk, SLICE_MS, TBF_BUFFER_BYTES, testbedSchedule } from './testbed.ts';

const Q = [0, 10, 20, 40, 60, 80, 100] as const;

test('draws interpolate linearly between the quantiles; the mean is the area under them', () => {
  assert.equal(quantileDraw(Q, 0), 0);
  assert.equal(quantileDraw(Q, 0.1), 10);
  assert.equal(quantileDraw(Q, 0.175), 15); // halfway from p10 (10) to p25 (20)
  assert.equal(quantileDraw(Q, 0.5), 40);
  assert.equal(quantileDraw(Q, 1), 100);
  // 0.1 x 5 + 0.15 x 15 + 0.25 x 30 + 0.25 x 50 + 0.15 x 70 + 0.1 x 90
  assert.ok(Math.abs(quantileMean(Q) - (0.5 + 2.25 + 7.5 + 12.5 + 10.5 + 9)) < 1e-9);
});

test("a testbed schedule: Goel's slices, seeded, loss only in the slices the gaps pick", () => {
  for (const p of [...FREQUENCY_PROFILES, ...QUALITY_PROFILES]) {
    const s = testbedSchedule(p, 3);
    assert.equal(s.sliceMs, SLICE_MS);
    assert.equal(s.burstBytes, TBF_BUFFER_BYTES);
    assert.deepEqual(testbedSchedule(p, 3), s, 'the same seed gives the same schedule');
    assert.notDeepEqual(testbedSchedule(p, 4).rateBps, s.rateBps);
    const n = s.loss.length;
    for (let k = 0; k < n; k++) {
      assert.ok(s.rateBps[k]! >= p.rateKbps[0] * 1000 && s.rateBps[k]! <= p.rateKbps[6] * 1000);
      assert.ok(s.delayMs[k]! >= 0 && s.delayMs[k]! <= (p.rttMs[6] - baseRttMs(p)) / 2);
      if (s.loss[k]! > 0) assert.ok(s.loss[k]! >= p.lossPct[0] / 100 && s.loss[k]! <= p.lossPct[6] / 100);
    }
    // Loss slices are one gap apart: their median spacing is the profile's median gap, within sampling error
    // (a few hundred gaps: a quarter of the interquartile range) and the rounding to whole slices.
    const at = [...s.loss.keys()].filter((k) => s.loss[k]! > 0);
    const gaps = at.slice(1).map((k, i) => k - at[i]!).sort((a, b) => a - b);
    const medianGapMs = gaps[gaps.length >> 1]! * SLICE_MS;
    const tolerance = 250 * (p.gapS[4] - p.gapS[2]) + SLICE_MS;
    assert.ok(Math.abs(medianGapMs - p.gapS[3] * 1000) <= tolerance, `${p.name}: median gap ${medianGapMs} ms`);
    // Scaling the loss scales every loss slice's probability and nothing else.
    const half = testbedSchedule(p, 3, { lossScale: 0.5 });
    for (let k = 0; k < n; k++) assert.ok(Math.abs(half.loss[k]! - s.loss[k]! / 2) < 1e-12);
    assert.deepEqual(half.rateBps, s.rateBps);
    assert.equal(testbedSchedule(p, 3, { refill: false }).burstBytes, 0);
    assert.equal(s.reorder, true, "netem's re-ordering, as the bridge did");
    assert.equal(testbedSchedule(p, 3, { reorder: false }).reorder, false);
    assert.equal(s.watchdogWake, true, "tbf's watchdog, not the refill, wakes the queue (3.13's tbf_change)");
    assert.equal(testbedSchedule(p, 3, { watchdogWake: false }).watchdogWake, false);
    assert.equal(s.netemPair, false, "the closed form by default; 3.13's netem/tbf pair on request");
    assert.equal(testbedSchedule(p, 3, { netemPair: true }).netemPair, true);
    assert.equal(s.queueBytes, 128 * 1024, "tbf's `limit 128k`");
  }
});

test("the two families: quality profiles' own RTTs, frequency profiles' one; quantiles ordered", () => {
  assert.deepEqual(FREQUENCY_PROFILES.map((p) => p.name), ['Good', 'Median', 'Poor']);
  assert.deepEqual(QUALITY_PROFILES.map((p) => p.name), ['Good', 'Fair', 'Passable', 'Poor']);
  for (const p of FREQUENCY_PROFILES) assert.equal(p.rttMs, RTT_MS);
  for (const p of [...FREQUENCY_PROFILES, ...QUALITY_PROFILES]) {
    for (const q of [p.rttMs, p.gapS, p.lossPct, p.rateKbps]) for (let i = 1; i < q.length; i++) assert.ok(q[i]! >= q[i - 1]!, `${p.family} ${p.name}: quantiles ascend`);
  }
  // Table I: from Good to Poor the throughput falls and the RTT and the loss rise (medians).
  for (let i = 1; i < QUALITY_PROFILES.length; i++) {
    const [a, b] = [QUALITY_PROFILES[i - 1]!, QUALITY_PROFILES[i]!];
    assert.ok(b.rateKbps[3] < a.rateKbps[3] && b.rttMs[3] > a.rttMs[3] && b.lossPct[3] >= a.lossPct[3], `${a.name} -> ${b.name}`);
  }
  // A quality profile's slice delay is half its own RTT above its own minimum.
  const poor = QUALITY_PROFILES[3]!;
  const s = testbedSchedule(poor, 1);
  assert.ok(Math.max(...s.delayMs) > (RTT_MS[6] - RTT_MS[0]) / 2, 'Poor quality reaches RTTs the frequency distribution never draws');
});

test("the script's walk: ascending runs of three, each slice still uniform", () => {
  const u = scriptWalk(30_000, new Rng(7, 1));
  for (let k = 0; k < u.length; k++) {
    const j = k % SCRIPT_RUN;
    assert.ok(u[k]! >= j / SCRIPT_RUN && u[k]! < (j + 1) / SCRIPT_RUN, `slice ${k} in its third`);
    if (j > 0) assert.ok(u[k]! > u[k - 1]!, 'a run ascends');
  }
  // Uniform on [0, 1): mean 1/2, a tenth of the slices below 0.1 (within sampling error of 30,000 draws).
  const mean = u.reduce((a, b) => a + b, 0) / u.length;
  assert.ok(Math.abs(mean - 0.5) < 0.01, `mean ${mean}`);
  const low = u.filter((x) => x < 0.1).length / u.length;
  assert.ok(Math.abs(low - 0.1) < 0.01, `share below 0.1: ${low}`);
});

test("a schedule in the script's order: a slice's rate and delay low or high together, delays drop only between runs", () => {
  for (const p of [...FREQUENCY_PROFILES, ...QUALITY_PROFILES]) {
    const s = testbedSchedule(p, 3, { order: 'script' });
    assert.deepEqual(testbedSchedule(p, 3, { order: 'script' }), s, 'seeded');
    let drops = 0;
    for (let k = 1; k < s.delayMs.length; k++) {
      if (k % SCRIPT_RUN !== 0) {
        assert.ok(s.delayMs[k]! >= s.delayMs[k - 1]! && s.rateBps[k]! >= s.rateBps[k - 1]!, `${p.name}: slice ${k} rises within its run`);
      } else if (s.delayMs[k]! < s.delayMs[k - 1]!) drops++;
    }
    // A run's first slice is in the lowest third and the last run's end in the highest: nearly every run starts with a drop.
    assert.ok(drops > 0.9 * Math.floor(s.delayMs.length / SCRIPT_RUN), `${p.name}: ${drops} drops`);
    // The same distribution per slice as drawn apart: mean rate within 5% of the iid schedule's.
    const iid = testbedSchedule(p, 3);
    const m = (a: ArrayLike<number>): number => Array.from(a).reduce((x, y) => x + y, 0) / a.length;
    assert.ok(Math.abs(m(s.rateBps) / m(iid.rateBps) - 1) < 0.05, `${p.name}: mean rate ${m(s.rateBps)} vs ${m(iid.rateBps)}`);
  }
});
