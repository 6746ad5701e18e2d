import { test } from 'node:test';
import assert from 'node:assert/strict';
import { netemArgs, oneWayDelayUs, tbfArgs, tbfParams } from './tc-params.ts';

test('tbf: burst of 2 packets or 1 ms, queue of one BDP or 32 packets', () => {
  assert.deepEqual(tbfParams(10e6, 40), { rateBps: 10e6, burstBytes: 3000, limitBytes: 50_000 }); // BDP 50 kB
  assert.deepEqual(tbfParams(1.6e6, 150), { rateBps: 1.6e6, burstBytes: 3000, limitBytes: 48_000 }); // BDP 30 kB < 32 packets
  assert.deepEqual(tbfParams(100e6, 20), { rateBps: 100e6, burstBytes: 12_500, limitBytes: 250_000 });
  assert.deepEqual(tbfArgs('pcp0', tbfParams(10e6, 40)), ['qdisc', 'add', 'dev', 'pcp0', 'root', 'handle', '1:', 'tbf', 'rate', '10000000bit', 'burst', '3000', 'limit', '50000']);
});

test('half the RTT each way; netem sits under the tbf with room for everything in flight', () => {
  assert.equal(oneWayDelayUs(40), 20_000);
  assert.equal(oneWayDelayUs(0.1), 50);
  const a = netemArgs('pcp0', tbfParams(10e6, 40), 20, 0.01);
  assert.deepEqual(a.slice(0, 10), ['qdisc', 'add', 'dev', 'pcp0', 'parent', '1:1', 'handle', '10:', 'netem', 'delay']);
  assert.equal(a[10], '20000us');
  assert.deepEqual(a.slice(-2), ['loss', '1%']);
  assert.ok(Number(a[12]) >= 1000 + (25_000 + 50_000) / 64);
  assert.ok(!netemArgs('pcp0', tbfParams(10e6, 40), 20, 0).includes('loss'));
});
