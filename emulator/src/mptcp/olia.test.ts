import { test } from 'node:test';
import assert from 'node:assert/strict';
import { InterLossDistance, oliaAlpha, oliaIncrease } from './olia.ts';

const close = (a: number, b: number): void => assert.ok(Math.abs(a - b) < 1e-12, `${a} != ${b}`);

test('OLIA with one subflow is NewReno: 1/w per ACK', () => {
  // (w / r^2) / (w / r)^2 = 1/w; the one path is in M, B \ M is empty: alpha = 0.
  close(oliaIncrease([{ cwnd: 8, rtt: 40, interLoss: 5000 }], 0), 1 / 8);
});

test('OLIA on two equal subflows is LIA there: 1/40 each at w = 10', () => {
  // Both windows are the largest (M = both), so B \ M is empty and alpha = 0:
  // (10 / 1600) / (20 / 40)^2 = 0.00625 / 0.25 = 1/40, as LIA's alpha / w_total = 0.5 / 20.
  const flows = [{ cwnd: 10, rtt: 40, interLoss: 1000 }, { cwnd: 10, rtt: 40, interLoss: 3000 }];
  close(oliaIncrease(flows, 0), 1 / 40);
  close(oliaIncrease(flows, 1), 1 / 40);
});

test('OLIA moves window to a best path that does not have the largest window', () => {
  // w1 = 20, w2 = 10, both 40 ms; l2 = 4000 > l1 = 1000: path 2 is the only best path (B), path 1 the only
  // max-window path (M). n = 2: alpha_2 = 1 / (2 x 1) = 0.5, alpha_1 = -1 / (2 x 1) = -0.5.
  // sum w/rtt = 30 / 40 = 0.75, squared 0.5625. Path 2: (10 / 1600) / 0.5625 + 0.5 / 10 = 0.0111.. + 0.05;
  // path 1: (20 / 1600) / 0.5625 - 0.5 / 20 = 0.0222.. - 0.025 < 0: the large window shrinks.
  const flows = [{ cwnd: 20, rtt: 40, interLoss: 1000 }, { cwnd: 10, rtt: 40, interLoss: 4000 }];
  close(oliaAlpha(flows, 1), 0.5);
  close(oliaAlpha(flows, 0), -0.5);
  close(oliaIncrease(flows, 1), 0.00625 / 0.5625 + 0.05);
  close(oliaIncrease(flows, 0), 0.0125 / 0.5625 - 0.025);
  assert.ok(oliaIncrease(flows, 0) < 0);
});

test('OLIA: when the best path already has the largest window, alpha is 0 everywhere', () => {
  // l1 / 40^2 = 2.5 > l2 / 40^2: path 1 is in B and in M; B \ M is empty. Path 2: (10 / 1600) / 0.5625.
  const flows = [{ cwnd: 20, rtt: 40, interLoss: 4000 }, { cwnd: 10, rtt: 40, interLoss: 1000 }];
  close(oliaAlpha(flows, 0), 0);
  close(oliaAlpha(flows, 1), 0);
  close(oliaIncrease(flows, 1), 0.00625 / 0.5625);
});

test('OLIA ranks paths by l / rtt^2: a longer inter-loss distance on a 5x RTT path is not the best', () => {
  // l1 / rtt1^2 = 1000 / 1600 = 0.625 beats l2 / rtt2^2 = 20000 / 40000 = 0.5: B = {1} = M, alpha = 0.
  // Path 2 (w 10 at 200 ms): sum = 20 / 40 + 10 / 200 = 0.55; (10 / 40000) / 0.3025.
  const flows = [{ cwnd: 20, rtt: 40, interLoss: 1000 }, { cwnd: 10, rtt: 200, interLoss: 20000 }];
  close(oliaAlpha(flows, 1), 0);
  close(oliaIncrease(flows, 1), 0.00025 / 0.3025);
});

test('the inter-loss distance: the larger of the last interval and the bytes since the last loss', () => {
  const d = new InterLossDistance();
  close(d.distance(500), 500); // no loss yet: all bytes sent
  d.lossEvent(1000);
  close(d.distance(1300), 1000); // last interval 1000 > 300 since
  close(d.distance(2300), 1300);
  d.lossEvent(2300);
  d.lossEvent(2300); // a repeated timeout with nothing new sent is not a new interval
  close(d.distance(2300), 1300);
  close(d.distance(2400), 1300);
});
