import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkedSimulate } from '../../src/index.ts';
import { buildPage, PAGE_FAMILIES } from './pages.ts';
import { LINUX_3_13_HOSTS, testbedProfile } from './profiles.ts';
import { FREQUENCY_PROFILES, SLICE_MS } from './testbed.ts';
import { variantConfig } from './variants.ts';

test("3.13's netem/tbf pair under frequency Good: a probe's duplicate and the original both dropped in the bridge are repaired", () => {
  // Seed 6, 365 x 1 KB over h1, loss x1: a tail-loss probe sent a duplicate of a segment whose original still
  // waited in netem's line; tbf dropped both at their hand-overs. Before the sender counted its copies on the way,
  // it ignored the original's drop (a newer copy was out) and the duplicate's (a probe's), and re-armed its RTO
  // forever. The checked run also holds every invariant (each byte once).
  const tb = FREQUENCY_PROFILES.find((p) => p.name === 'Good')!;
  const page = PAGE_FAMILIES.find((p) => p.name === 'small-365')!;
  const profile = testbedProfile(tb, { lossScale: 1, netemPair: true });
  const r = checkedSimulate(buildPage(page), variantConfig('h1', profile, 6, { ...LINUX_3_13_HOSTS, retransmissionSliceMs: SLICE_MS }));
  assert.ok(r.loadTime > 0 && r.loadTime < 60_000, `load ${r.loadTime}`);
  assert.ok(r.drops > 0, 'the bridge dropped packets');
});
