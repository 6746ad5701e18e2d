/**
 * The shaper against its targets through real namespaces, kernel TCP and the delay line (needs root):
 * 10 Mbit/s, 40 ms — RTT p50 within ±2 ms (60 ICMP echoes), goodput within 10% of the rate each way
 * (3 s bulk TCP transfers after a 0.5 s warm-up), UDP loss 0 each way; with 1% loss, the lost UDP
 * probes each way within the binomial tolerance (4000 probes: 40 expected, 14..66 accepted).
 * These held with 2 busy loops beside them on a machine already at load ~90 (see shaper/README.md).
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
  assert.ok(r.rtt.ok, `rtt p50 ${r.rtt.p50} ms: ${why}`);
  assert.ok(r.rtt.samples >= 50, why);
  assert.ok(r.goodput.ok, `goodput down ${r.goodput.downBps} up ${r.goodput.upBps}: ${why}`);
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
  assert.ok(r.rtt.ok, why); // 98% of echoes come back at the base RTT
  assert.ok(r.goodput.downBps > 1e6 && r.goodput.upBps > 1e6, why);
});
