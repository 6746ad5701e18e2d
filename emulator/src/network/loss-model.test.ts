import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigError } from '../config.ts';
import { Rng } from '../rng.ts';
import { gilbertFromClusters, gilbertMeanLoss, makeLossModel, measureLoss, parseLoss, parseLossModel } from './loss-model.ts';

test('parseLoss: percentages and fractions below 1; one-line errors', () => {
  assert.equal(parseLoss('1%'), 0.01);
  assert.equal(parseLoss('0.5%'), 0.005);
  assert.equal(parseLoss('0.02'), 0.02);
  assert.equal(parseLoss('0'), 0);
  for (const bad of ['100%', '1', 'lots', '-1%', '']) assert.throws(() => parseLoss(bad), ConfigError, bad);
});

test('parseLossModel: gilbert, bernoulli and list specs; clear errors', () => {
  assert.deepEqual(parseLossModel('gilbert:1%,30%,0,50%'), { kind: 'gilbert', pGB: 0.01, pBG: 0.3, lossG: 0, lossB: 0.5 });
  assert.deepEqual(parseLossModel('bernoulli:0.01'), { kind: 'bernoulli', p: 0.01 });
  assert.deepEqual(parseLossModel('list:1,5'), { kind: 'list', packets: [1, 5] });
  assert.throws(() => parseLossModel('gilbert:0.1,0.2'), /four numbers/);
  assert.throws(() => parseLossModel('gilbert:0.1,0.2,0,2'), /not a probability/);
  assert.throws(() => parseLossModel('gilbert:1,0,0,1'), /every packet would be lost/);
  assert.throws(() => parseLossModel('markov:1'), /not a loss model/);
  assert.throws(() => parseLossModel('list:0'), /not a packet number/);
});

test('Bernoulli: the measured rate matches p within 4 standard deviations; seeded', () => {
  const n = 200_000;
  const p = 0.01;
  const lost = measureLoss(makeLossModel({ kind: 'bernoulli', p }, new Rng(3, 4))!, n).rate * n;
  const sd = Math.sqrt(n * p * (1 - p));
  assert.ok(Math.abs(lost - n * p) < 4 * sd, `${lost} lost of ${n}`);
  const again = makeLossModel({ kind: 'bernoulli', p }, new Rng(3, 4))!;
  const a = Array.from({ length: 1000 }, () => again.lost());
  const b = makeLossModel({ kind: 'bernoulli', p }, new Rng(3, 4))!;
  assert.deepEqual(Array.from({ length: 1000 }, () => b.lost()), a, 'same seed and stream, same losses');
});

test('Gilbert-Elliott: long-run rate = stationary mix; losses come in bursts (mean Bad run 1/P_BG)', () => {
  const g = { pGB: 0.01, pBG: 0.2, lossG: 0, lossB: 1 - 1e-12 };
  // pi_B = 0.01 / 0.21; with LOSS_B ~ 1 the loss rate is pi_B = 4.76%, and a loss run lasts 1/P_BG = 5 packets.
  assert.ok(Math.abs(gilbertMeanLoss(g) - 0.01 / 0.21) < 1e-9);
  const { rate, meanRun } = measureLoss(makeLossModel({ kind: 'gilbert', ...g }, new Rng(5, 4))!, 400_000);
  assert.ok(Math.abs(rate - 0.01 / 0.21) < 0.005, `rate ${rate}`);
  assert.ok(meanRun > 4.5 && meanRun < 5.5, `mean loss run ${meanRun} packets (Bernoulli at the same rate: ~1.05)`);
});

test('list: loses exactly the listed packets, counting from 1', () => {
  const m = makeLossModel({ kind: 'list', packets: [2, 4] }, new Rng(1, 1))!;
  assert.deepEqual([1, 2, 3, 4, 5].map(() => m.lost()), [false, true, false, true, false]);
  assert.equal(makeLossModel({ kind: 'bernoulli', p: 0 }, new Rng(1, 1)), undefined, 'p = 0: no model at all');
});

test('gilbertFromClusters: time-described clusters become per-packet transitions', () => {
  // 6 Mbit/s of 1500-byte packets = 0.5 per ms: a 70 ms cluster is 35 packets, a 1 s gap 500.
  const g = gilbertFromClusters({ packetsPerMs: 0.5, badMs: 70, gapMs: 1000, lossBad: 0.2 });
  assert.deepEqual(g, { pGB: 1 / 500, pBG: 1 / 35, lossG: 0, lossB: 0.2 });
  // Share of packets in Bad: 35 / 535; loss rate 0.2 x that.
  assert.ok(Math.abs(gilbertMeanLoss(g) - (0.2 * 35) / 535) < 1e-12);
});
