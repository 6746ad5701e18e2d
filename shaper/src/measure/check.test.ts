/**
 * The shaper through real namespaces, kernel TCP and the delay line (needs root), checked for what it
 * does, with bounds a loaded machine cannot break: CPU contention can only make packets later and
 * transfers slower, never earlier or faster. So the RTT p50 is at least the target less 2 ms (the delay
 * line never releases early) and within a gross bound above it; goodput is between half and 1.5 times
 * the rate (an unshaped TUN pair carries gigabits; a starved receiver that reads its socket buffer in
 * one gulp can count more than the rate in a short window: 117% was seen at load average ~20); a lossless link loses no UDP probe; with 1%
 * loss the lost probes each way are within the binomial tolerance (4000 probes: 40 expected, 14..66
 * accepted). The ±2 ms / ±10% targets are timing figures: `npm run bench:shaper` and `pcp shaper check`
 * judge them (a run of this test at load average ~18 measured 87% of the rate).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { judge, parseRttping, runCheck, udpRcvbufErrors } from './check.ts';
import type { ProbeResult } from './probe.ts';

const root = process.getuid?.() === 0;

test('rttping output and the verdicts (pure)', () => {
  const ping = parseRttping('rtt 40.512\nrtt 41.000\nlost 2\nrtt 40.700\n');
  assert.deepEqual(ping, { rttMs: [40.512, 41, 40.7], lost: 1 });
  const spec = { bandwidthBps: 10e6, rttMs: 40, lossRate: 0 };
  const probe: ProbeResult = { downGoodputBps: 9.5e6, upGoodputBps: 9.4e6, udp: { clientToServer: { sent: 100, received: 100 }, serverToClient: { sent: 100, received: 100 } } };
  const good = judge(spec, ping, probe);
  assert.equal(good.rtt.p50, 40.7);
  assert.equal(good.ok, true);
  assert.equal(judge(spec, { rttMs: [43, 43], lost: 0 }, probe).rtt.ok, false);
  assert.equal(judge(spec, ping, { ...probe, upGoodputBps: 8.9e6 }).goodput.ok, false);
  assert.equal(judge(spec, ping, { ...probe, udp: { ...probe.udp, serverToClient: { sent: 100, received: 99 } } }).loss.ok, false);
  const lossy = judge({ ...spec, lossRate: 0.01 }, ping, { ...probe, upGoodputBps: 3e6, udp: { clientToServer: { sent: 4000, received: 3960 }, serverToClient: { sent: 4000, received: 3900 } } });
  assert.equal(lossy.goodput.judged, false);
  assert.equal(lossy.goodput.ok, true);
  assert.equal(lossy.loss.clientToServer.ok, true);
  assert.equal(lossy.loss.serverToClient.ok, false); // 100 of 4000 is far above 1%
  // probes that crossed the link but overflowed a busy receiver's socket buffer are not link loss
  const busy = judge(spec, ping, { ...probe, udp: { ...probe.udp, serverToClient: { sent: 100, received: 90 } } }, {}, { clientToServer: 0, serverToClient: 10 });
  assert.equal(busy.loss.serverToClient.lost, 0);
  assert.equal(busy.loss.ok, true);
});

test('UDP receive-buffer overflows from /proc/net/snmp', () => {
  const snmp = 'Ip: Forwarding DefaultTTL\nIp: 1 64\nUdp: InDatagrams NoPorts InErrors OutDatagrams RcvbufErrors SndbufErrors InCsumErrors IgnoredMulti MemErrors\nUdp: 4000 0 37 4000 37 0 0 0 0\nUdpLite: InDatagrams NoPorts\nUdpLite: 0 0\n';
  assert.equal(udpRcvbufErrors(snmp), 37);
  assert.equal(udpRcvbufErrors('Ip: x\nIp: 1\n'), 0);
});

test('10 Mbit/s, 40 ms: RTT, goodput each way and no loss', { skip: !root && 'needs root' }, async () => {
  const r = await runCheck({ bandwidthBps: 10e6, rttMs: 40 }, { seconds: 3, udpCount: 2000 });
  const why = JSON.stringify({ rtt: r.rtt, goodput: r.goodput, loss: r.loss, lateness: r.delayLine?.releaseLatenessMs });
  assertShaped(r, 10e6, 40, why);
  assert.ok(r.rtt.samples >= 50, why);
  assert.ok(r.loss.ok, why);
  assert.equal(r.loss.clientToServer.lost + r.loss.serverToClient.lost, 0, why);
  if (r.backend === 'delay-line') {
    assert.equal(r.delayLine!.clientToServer.droppedLoss + r.delayLine!.serverToClient.droppedLoss, 0);
    assert.ok(r.delayLine!.clientToServer.packetsIn > 2000 && r.delayLine!.serverToClient.packetsIn > 2000, why);
  }
});

test('10 Mbit/s, 40 ms, 1% loss: loss each way within the binomial tolerance, TCP still flows both ways', { skip: !root && 'needs root' }, async () => {
  const r = await runCheck({ bandwidthBps: 10e6, rttMs: 40, lossRate: 0.01, seed: 12 }, { seconds: 2, udpCount: 4000 });
  const why = JSON.stringify({ rtt: r.rtt, goodput: r.goodput, loss: r.loss });
  assert.ok(r.loss.ok, why);
  assert.ok(r.loss.clientToServer.lost > 0 && r.loss.serverToClient.lost > 0, why);
  assert.ok(r.rtt.p50 >= 40 - 2 && r.rtt.p50 < 40 + 200, why); // 98% of echoes come back at the base RTT
  assert.ok(r.goodput.downBps > 1e6 && r.goodput.upBps > 1e6, why);
});

/** Load-proof bounds on a lossless link (see the file comment). */
function assertShaped(r: Awaited<ReturnType<typeof runCheck>>, rateBps: number, rttMs: number, why: string): void {
  assert.ok(r.rtt.p50 >= rttMs - 2, `rtt p50 ${r.rtt.p50} ms is under the ${rttMs} ms target: ${why}`);
  assert.ok(r.rtt.p50 < rttMs + 200, `rtt p50 ${r.rtt.p50} ms: ${why}`);
  for (const bps of [r.goodput.downBps, r.goodput.upBps]) {
    assert.ok(bps <= rateBps * 1.5, `goodput ${bps} far above the ${rateBps} rate: ${why}`);
    assert.ok(bps >= rateBps * 0.5, `goodput ${bps} under half the ${rateBps} rate: ${why}`);
  }
}
