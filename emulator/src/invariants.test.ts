/**
 * The invariants catch what they claim to: each response stream's bytes once (in order unless QUIC-lite), and
 * phases summing to spans on every transport. Real simulations are checked clean, then broken by hand (a
 * duplicated, missing or reordered byte range, a stretched phase) and the break must be reported.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PageBuilder } from '@pcp/graph-builder/testing';
import type { EmulatorConfig } from './config.ts';
import { checkInvariants, streamViolation } from './invariants.ts';
import { simulate, type SimResult } from './simulator.ts';

const MSS = 1448;
const A = 30 * MSS + 100;
const B = 12 * MSS;
const graph = new PageBuilder()
  .resource('a', 'http://a.com/a', A, { serverDelay: 0 })
  .resource('b', 'http://a.com/b', B, { serverDelay: 0 })
  .edge('a', 'load')
  .edge('b', 'load')
  .build();
const h2: EmulatorConfig = { bandwidthBps: 10e6, rttMs: 40, protocol: 'h2' };
const quic: EmulatorConfig = { ...h2, protocol: 'quic-lite' };
const mptcp: EmulatorConfig = { ...h2, path2: { bandwidthBps: 10e6, rttMs: 40 } };

/** A clean, recorded result (checked clean) and a deep copy to break. */
function recorded(config: EmulatorConfig): { r: SimResult; copy: SimResult } {
  const r = simulate(graph, config, { recordStreams: true });
  assert.deepEqual(checkInvariants(graph, config, r), [], 'the real simulation is clean');
  return { r, copy: structuredClone(r) };
}
const stream = (r: SimResult, id: string): number[] => r.streams!.find((s) => s.id === id)!.ranges;
const caught = (config: EmulatorConfig, r: SimResult, pattern: RegExp): void => {
  const bad = checkInvariants(graph, config, r);
  assert.ok(bad.some((v) => pattern.test(v)), `expected a violation matching ${pattern}, got ${JSON.stringify(bad)}`);
};

test('streamViolation: contiguous ranges pass; a repeat, a gap, a reorder and an overrun are named', () => {
  assert.equal(streamViolation([0, 10, 10, 10, 20, 5], 25, true), null);
  assert.equal(streamViolation([], 0, true), null);
  assert.equal(streamViolation([0, 10, 5, 10, 15, 10], 25, true), 'bytes 5..10 delivered twice');
  assert.equal(streamViolation([0, 10, 10, 10], 25, true), 'bytes 20..25 never delivered');
  assert.equal(streamViolation([0, 10, 20, 5, 10, 10], 25, true), 'bytes 20..25 delivered before 10..20 (out of order)');
  assert.equal(streamViolation([0, 10, 20, 5, 10, 10], 25, false), null, 'QUIC-lite may deliver a stream out of order');
  assert.equal(streamViolation([0, 10, 20, 5], 25, false), 'bytes 10..20 never delivered');
  assert.equal(streamViolation([0, 10, 10, 20], 25, true), "bytes 10..30 delivered past the response's 25");
});

test('a clean stream is one range; over a lossy link QUIC-lite delivers out of order and still passes', () => {
  for (const config of [h2, quic, mptcp]) {
    const { r } = recorded(config);
    assert.deepEqual(r.streams, [{ id: 'a', ranges: [0, A] }, { id: 'b', ranges: [0, B] }].filter((s) => r.streams!.some((t) => t.id === s.id)));
    assert.equal(r.streams!.length, 2);
  }
  const lossyH2 = recorded({ ...h2, lossRate: 0.1, seed: 4 }).r;
  assert.ok(lossyH2.retransmissions > 0, `the seed must lose something: ${lossyH2.retransmissions} retransmissions`);
  const lossyQuic = recorded({ ...quic, lossRate: 0.1, seed: 4 }).r;
  assert.ok(lossyQuic.streams!.some((s) => s.ranges.length > 2), 'a hole made QUIC-lite deliver a stream in pieces');
});

test('h2: a duplicated stream byte range is caught, so is a missing one, so is a reordered one', () => {
  const { r, copy } = recorded(h2);
  stream(copy, 'a').push(MSS, MSS); // the second segment's bytes again
  caught(h2, copy, /^stream a: bytes 1448\.\.2896 delivered twice$/);

  const missing = structuredClone(r);
  stream(missing, 'b').splice(0, 2, 0, B - MSS); // the last segment never arrives
  caught(h2, missing, /^stream b: bytes 15928\.\.17376 never delivered$/);

  const reordered = structuredClone(r);
  stream(reordered, 'a').splice(0, 2, MSS, A - MSS, 0, MSS);
  caught(h2, reordered, /^stream a: bytes 1448\.\.43540 delivered before 0\.\.1448 \(out of order\)$/);
});

test('a byte range moved to another stream is caught on both streams (the totals still agree)', () => {
  const { copy } = recorded(h2);
  stream(copy, 'a').splice(0, 2, 0, A - MSS);
  stream(copy, 'b').push(A - MSS, MSS);
  assert.equal(copy.bytesDelivered, A + B, 'the totals-only check could not see this');
  caught(h2, copy, /^stream a: bytes 42092\.\.43540 never delivered$/);
  caught(h2, copy, /^stream b: bytes 42092\.\.43540 delivered past the response's 17376$/);
});

test('MPTCP: a segment delivered again (a copy on the other subflow) is caught', () => {
  const { r, copy } = recorded(mptcp);
  assert.ok(r.multipath!.bytesPath2 > 0, 'the response is striped over both subflows');
  stream(copy, 'a').push(0, MSS);
  caught(mptcp, copy, /^stream a: bytes 0\.\.1448 delivered twice$/);
});

test('QUIC-lite: a stream delivered out of order passes, a duplicated range does not', () => {
  const { copy } = recorded(quic);
  const a = stream(copy, 'a');
  a.splice(0, 2, MSS, A - MSS, 0, MSS);
  assert.deepEqual(checkInvariants(graph, quic, copy), []);
  a.push(MSS, 10);
  caught(quic, copy, /^stream a: bytes 1448\.\.1458 delivered twice$/);
});

test('bytes for a response that was not downloaded, and a downloaded response with no bytes, are caught', () => {
  const { r, copy } = recorded(h2);
  copy.streams = copy.streams!.filter((s) => s.id !== 'b');
  caught(h2, copy, /^stream b: none of its 17376 bytes delivered$/);
  const extra = structuredClone(r);
  extra.streams!.push({ id: 'load', ranges: [0, 10] });
  caught(h2, extra, /^stream load: 10 bytes delivered, but the response never completed \(no resource timing\)$/);
});

test('phases summing to spans covers TCP, QUIC-lite, MPTCP and MP-QUIC results', () => {
  const mpQuic: EmulatorConfig = { ...quic, mptcpScheduler: 'stream', path2: { bandwidthBps: 2e6, rttMs: 8, loss: 0.01 } };
  for (const config of [h2, quic, mptcp, mpQuic]) {
    const { r, copy } = recorded(config);
    assert.deepEqual(r.resources.map((t) => t.id).sort(), ['a', 'b'], `${config.protocol}: a timing per response`);
    copy.resources[0]!.transfer += 1;
    caught(config, copy, /phases sum to .*, span is/);
    const negative = structuredClone(r);
    negative.resources[1]!.serverBuffer = -1;
    negative.resources[1]!.transfer += 1;
    caught(config, negative, /negative or missing serverBuffer/);
  }
});
