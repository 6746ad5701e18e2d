import { test } from 'node:test';
import assert from 'node:assert/strict';
import { liaIncrease } from './coupled-cc.ts';

const close = (a: number, b: number): void => assert.ok(Math.abs(a - b) < 1e-12, `${a} != ${b}`);

test('LIA with one subflow is NewReno: 1/w per ACK', () => {
  close(liaIncrease([{ cwnd: 8, rtt: 40 }], 0), 1 / 8);
});

test('LIA on two equal subflows: together as aggressive as one TCP (alpha = 1/2)', () => {
  // w = 10 each, equal RTT: alpha = 20 x (10/r^2) / (20/r)^2 = 0.5; per ACK 0.5/20 = 1/40 (< 1/10). 20 ACKs per
  // RTT grow the pair by 0.5 segment in all: half of what one TCP would (RFC 6356 goal 1 at equilibrium).
  close(liaIncrease([{ cwnd: 10, rtt: 40 }, { cwnd: 10, rtt: 40 }], 0), 1 / 40);
});

test('LIA with mismatched RTTs (the thesis\' 5x case) and the 1/w cap', () => {
  // w1 = 10 at 40 ms, w2 = 10 at 200 ms: best = 10/1600; sum = 10/40 + 10/200 = 0.3;
  // alpha = 20 x 0.00625 / 0.09 = 1.3889; per ACK alpha / 20 = 0.069444 (< 1/10).
  close(liaIncrease([{ cwnd: 10, rtt: 40 }, { cwnd: 10, rtt: 200 }], 0), (20 * (10 / 1600)) / 0.09 / 20);
  // A subflow cut to 1 segment beside a large one (§6.3.3.1): alpha/w_total, far below its own 1/w = 1.
  const inc = liaIncrease([{ cwnd: 1, rtt: 40 }, { cwnd: 40, rtt: 40 }], 0);
  close(inc, (41 * (40 / 1600)) / (41 / 40) ** 2 / 41);
  assert.ok(inc < 0.03);
});
