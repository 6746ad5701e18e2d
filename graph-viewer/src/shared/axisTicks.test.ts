import { test } from 'node:test';
import assert from 'node:assert/strict';
import { tickLabel, timeAxisTicks, xToTime } from './axisTicks.ts';
import { timeToX } from './timeAxisLayout.ts';
import type { TimeAxis } from './layoutTypes.ts';

// 1 px per ms up to 1,000 ms, then 0.1 px per ms.
const axis: TimeAxis = { origin: 0, breakT: 1000, pxPerMs: 1, tailPxPerMs: 0.1 };

test('xToTime inverts timeToX on both sides of the break', () => {
  for (const t of [0, 1, 250, 999, 1000, 1500, 9000]) assert.ok(Math.abs(xToTime(axis, timeToX(axis, t)) - t) < 1e-9, String(t));
});

test('ticks sit at round times, on the axis, about one per 90 screen px', () => {
  // Layout x 0..1,000 on a 900 px screen (k = 0.9): the linear part only.
  const ticks = timeAxisTicks(axis, 0, 1000, 0.9);
  assert.ok(ticks.length >= 5 && ticks.length <= 15, `${ticks.length} ticks`);
  for (const tk of ticks) {
    const t = xToTime(axis, tk.x);
    assert.ok(Math.abs(t - Math.round(t / 50) * 50) < 1e-6, `${t} is a round time`);
    assert.equal(tk.label, tickLabel(t));
  }
  assert.deepEqual([tickLabel(100), tickLabel(1500), tickLabel(0.25)], ['100 ms', '1.5 s', '0.3 ms']);
});

test('the compressed tail is ticked separately, and a sliver of it gets no ticks', () => {
  const both = timeAxisTicks(axis, 0, 1900, 1); // tail: 1,000..1,900 px = 1 s .. 10 s
  assert.ok(both.some((t) => xToTime(axis, t.x) > 1000) && both.some((t) => xToTime(axis, t.x) < 1000));
  const sliver = timeAxisTicks(axis, 0, 1030, 1); // 30 px of tail
  assert.ok(sliver.every((t) => xToTime(axis, t.x) <= 1000));
});
