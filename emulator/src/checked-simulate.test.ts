import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PageBuilder } from '@pcp/graph-builder/testing';
import { checkedSimulate, invariantTally } from './checked-simulate.ts';
import { simulate } from './simulator.ts';

test('checkedSimulate returns the recorded simulation and counts it, clean', () => {
  const g = new PageBuilder().resource('r', 'http://a.com/x', 20_000, { serverDelay: 5 }).edge('r', 'load').build();
  const before = { ...invariantTally() };
  for (const protocol of ['h1', 'quic-lite'] as const) {
    const config = { bandwidthBps: 5e6, rttMs: 40, protocol, lossRate: 0.05, seed: 2 };
    const r = checkedSimulate(g, config);
    assert.deepEqual(r, simulate(g, config, { recordStreams: true }));
    assert.equal(r.streams!.length, 1);
  }
  assert.deepEqual(invariantTally(), { simulations: before.simulations + 2, violating: before.violating });
});
