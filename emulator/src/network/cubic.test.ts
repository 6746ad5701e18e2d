import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CUBIC_ALPHA, cubicIncrease, cubicReduced, newCubicState } from './cubic.ts';

const close = (actual: number, expected: number, what: string): void =>
  assert.ok(Math.abs(actual - expected) < 1e-6, `${what}: expected ${expected}, got ${actual}`);

test('ALPHA = 3 (1 - 0.7) / (1 + 0.7): the AIMD flow with the same average rate as CUBIC', () => close(CUBIC_ALPHA, 0.9 / 1.7, 'alpha'));

test('the first ACK of an epoch: K from the cut, W_cubic one SRTT ahead, W_est from cwnd', () => {
  // Cut from 10 to 7: K = cbrt(3 / 0.4) = 1.957434 s; t = 0 + 0.04; W_cubic = 10 + 0.4 (0.04 - 1.957434)^3
  // = 7.180182: +0.180182 / 7 = 0.025740 per ACK. W_est = 7 + 0.529412 / 7 = 7.075630 would give 0.010804: CUBIC's.
  const st = newCubicState();
  cubicReduced(st, 10);
  close(cubicIncrease(st, 7, 1000, 40), 0.0257402272627044, 'increase');
  close(st.k, 1.9574338205844317, 'K');
  close(st.wEst, 7 + CUBIC_ALPHA / 7, 'W_est');
});

test('small windows: the TCP-friendly region takes over where W_cubic is still below the window', () => {
  // W_max 3, epoch 0, K = cbrt(1 / 0.4) = 1.357209 s, cwnd 2.5, W_est 2.9, at 200 ms (SRTT 40): W_cubic =
  // 3 + 0.4 (0.24 - 1.357209)^3 = 2.442220 < 2.5 (CUBIC alone: 0.01 / 2.5); W_est = 2.9 + 0.529412 / 2.5 =
  // 3.111765: +(3.111765 - 2.5) / 2.5 = 0.244706.
  const st = { wMax: 3, epochStart: 0, k: Math.cbrt(1 / 0.4), wEst: 2.9 };
  close(cubicIncrease(st, 2.5, 200, 40), 0.2447058823529412, 'increase');
});

test('a window above W_max starts an epoch at it (K = 0)', () => {
  const st = newCubicState();
  cubicReduced(st, 4);
  cubicIncrease(st, 6, 0, 40);
  assert.equal(st.wMax, 6);
  assert.equal(st.k, 0);
});
