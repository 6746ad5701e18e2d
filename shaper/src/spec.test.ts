import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseLinkSpec, parseLoss } from './spec.ts';
import { ShaperError } from './errors.ts';

test('loss reads as the emulator reads it (its tests cover the forms), with shaper errors', () => {
  assert.equal(parseLoss('1%'), 0.01);
  assert.throws(() => parseLoss('100%'), (e: Error) => e instanceof ShaperError && /not a loss rate: '100%'/.test(e.message));
});

test('a link spec from tc units', () => {
  assert.deepEqual(parseLinkSpec({ bandwidth: '1.6mbit', rtt: '150ms', loss: '1%', seed: '7' }), { bandwidthBps: 1.6e6, rttMs: 150, lossRate: 0.01, seed: 7 });
  assert.deepEqual(parseLinkSpec({ bandwidth: '50mbit', rtt: '0.02s' }), { bandwidthBps: 50e6, rttMs: 20 });
  assert.throws(() => parseLinkSpec({ rtt: '40ms' }), /--bandwidth is required/);
  assert.throws(() => parseLinkSpec({ bandwidth: 'fast', rtt: '40ms' }), /not a rate: 'fast'/);
  assert.throws(() => parseLinkSpec({ bandwidth: '1mbit', rtt: '40ms', seed: '-3' }), /--seed/);
});
