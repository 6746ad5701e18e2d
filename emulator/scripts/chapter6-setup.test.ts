import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CUMULATIVE_STEPS, chapter6Config, MODIFIED, singleChanges, type Chapter6Setup } from './chapter6-setup.ts';

const setup: Chapter6Setup = { icwnd: 4, minQueue: 4, lossDetection: 'nack', delayedAcks: false };

test('chapter 6 modes: the second path of each figure and table, the worst path first, TLP + PSH on single-path TCP', () => {
  assert.deepEqual(chapter6Config(setup, 'rtt', 50e6, 100, 1).path2, { bandwidthBps: 50e6, rttMs: 500 });
  assert.deepEqual(chapter6Config(setup, 'bw', 50e6, 100, 1).path2, { bandwidthBps: 10e6, rttMs: 100 });
  const worst = chapter6Config(setup, 'worstRtt', 50e6, 100, 2);
  assert.equal(worst.rttMs, 500);
  assert.deepEqual(worst.path2, { bandwidthBps: 50e6, rttMs: 100 });
  assert.equal(worst.seed, 2);
  const sp = chapter6Config(setup, 'spTlp', 1e6, 8, 1);
  assert.equal(sp.path2, undefined);
  assert.equal(sp.tlp && sp.psh, true);
  const mod = chapter6Config(setup, 'modBw', 1e6, 8, 1);
  assert.equal(mod.protocol, 'quic-lite');
  assert.equal(mod.mptcpScheduler, 'stream');
  assert.equal(mod.mptcpCc, 'uncoupled');
  assert.equal(mod.preloader, undefined);
  assert.equal(chapter6Config({ ...setup, preloader: false }, 'sp', 1e6, 8, 1).preloader, false);
});

test("§6.4's changes one at a time: baseline first, each step adds one change, the last is the modified MPTCP", () => {
  assert.deepEqual(CUMULATIVE_STEPS[0]![1], {});
  assert.equal(CUMULATIVE_STEPS[1]![1].preemption, false); // quic-lite's own default would add preemption too
  assert.deepEqual(CUMULATIVE_STEPS.at(-1)![1], MODIFIED);
  for (const [name, over] of singleChanges().filter(([n]) => n.startsWith('modified -'))) {
    const changed = Object.keys(MODIFIED).filter((k) => MODIFIED[k as keyof typeof MODIFIED] !== over[k as keyof typeof over]);
    assert.equal(changed.length, 1, name);
  }
});
