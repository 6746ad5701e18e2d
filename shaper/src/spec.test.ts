import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseLinkSpec, parseLoss } from './spec.ts';
import { ShaperError } from './errors.ts';

test('loss is a percentage or a fraction below 1', () => {
  assert.equal(parseLoss('1%'), 0.01);
  assert.equal(parseLoss('0.5%'), 0.005);
  assert.equal(parseLoss('0.02'), 0.02);
  assert.equal(parseLoss('0'), 0);
  for (const bad of ['100%', '1', 'lots', '-1%', '']) assert.throws(() => parseLoss(bad), ShaperError, bad);
});

test('a link spec from tc units', () => {
  assert.deepEqual(parseLinkSpec({ bandwidth: '1.6mbit', rtt: '150ms', loss: '1%', seed: '7' }), { bandwidthBps: 1.6e6, rttMs: 150, lossRate: 0.01, seed: 7 });
  assert.deepEqual(parseLinkSpec({ bandwidth: '50mbit', rtt: '0.02s' }), { bandwidthBps: 50e6, rttMs: 20 });
  assert.throws(() => parseLinkSpec({ rtt: '40ms' }), /--bandwidth is required/);
  assert.throws(() => parseLinkSpec({ bandwidth: 'fast', rtt: '40ms' }), /not a rate: 'fast'/);
  assert.throws(() => parseLinkSpec({ bandwidth: '1mbit', rtt: '40ms', seed: '-3' }), /--seed/);
});
