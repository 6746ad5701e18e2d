/**
 * Hand-derived MPTCP timelines. Path 1 is the chapter's base: 10 Mbit/s, 40 ms (a packet serialises in
 * 1.2 ms; one-way 10 ms to and from the bottleneck, 20 ms back); a 200 ms path has 50 / 50 / 100 ms.
 * Connections start on path 1; the second subflow can carry data 2 RTT_1 + RTT_2 + its one-way delay to the
 * server after the first SYN (Figure 6.14; join.ts): 140 ms with a 40 ms second path, 380 ms with a 200 ms one.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PageBuilder } from '@pcp/graph-builder/testing';
import { simulateChecked, timingOf } from '../testing/check.ts';
import type { EmulatorConfig } from '../config.ts';
import { traceFromTimes } from '../network/link-trace.ts';

const MSS = 1448;
const base: EmulatorConfig = { bandwidthBps: 10e6, rttMs: 40, protocol: 'h2', icwnd: 10, queue: 'droptail' };
const equal: EmulatorConfig = { ...base, path2: { bandwidthBps: 10e6, rttMs: 40 } };
const slow2: EmulatorConfig = { ...base, path2: { bandwidthBps: 10e6, rttMs: 200 } };
const close = (actual: number, expected: number, what: string): void =>
  assert.ok(Math.abs(actual - expected) < 1e-6, `${what}: expected ${expected}, got ${actual}`);

test('a response that fits the first window never reaches the second subflow: MPTCP = TCP', () => {
  // Request at the server at 60, 10 segments depart path 1 at 70 + 1.2k, the last reaches the client at 92;
  // the join is only usable at 140.
  const g = new PageBuilder().resource('r', 'http://a.com/x', 10 * MSS, { serverDelay: 0 }).edge('r', 'load').build();
  const mp = simulateChecked(g, equal);
  const sp = simulateChecked(g, base);
  close(mp.loadTime, 92, 'MPTCP load');
  close(sp.loadTime, 92, 'TCP load');
  assert.equal(mp.multipath!.bytesPath2, 0);
  assert.equal(mp.multipath!.bytesArrived, 10 * MSS);
});

test('worst path first (§6.3.4): the handshake and the small response pay the 200 ms path', () => {
  // Path 1 is 10 Mbit/s / 200 ms: SYN-ACK at 200, request at the server at 300, at the bottleneck at 350,
  // segment k departs at 350 + 1.2k and reaches the client 50 ms later: the 10th at 412. The 40 ms second
  // path joins at 2 x 200 + 1.5 x 40 = 460, too late to carry any of it; TCP on the good path ends at 92.
  const g = new PageBuilder().resource('r', 'http://a.com/x', 10 * MSS, { serverDelay: 0 }).edge('r', 'load').build();
  const worst = simulateChecked(g, { ...base, rttMs: 200, path2: { bandwidthBps: 10e6, rttMs: 40 } });
  close(worst.loadTime, 412, 'worst path first');
  assert.equal(worst.multipath!.bytesPath2, 0);
});

test('equal paths: a large response striped over both subflows takes one round trip less', () => {
  // 60 segments ready at 160 (server delay 100); both subflows are up (140), each sends its 10-segment
  // window: departures 170 + 1.2k on each path, ACKs back at 200 + 1.2k. Each ACK grows its subflow's cwnd
  // by one and sends two segments (20 per path, 40 in all: the rest of the response); on each path the pairs
  // reach the bottleneck at 210 + 1.2k, so the m-th departs at 211.2 + 1.2m: the 20th at 235.2, client 245.2.
  // One path needs a third round (10 + 20 + 30 segments).
  const g = new PageBuilder().resource('r', 'http://a.com/x', 60 * MSS, { serverDelay: 100 }).edge('r', 'load').build();
  const mp = simulateChecked(g, equal);
  close(mp.loadTime, 245.2, 'MPTCP load');
  assert.equal(mp.multipath!.bytesPath2, 30 * MSS);
  const sp = simulateChecked(g, base);
  assert.ok(sp.loadTime > 245.2 + 20, `TCP needs another round trip: ${sp.loadTime}`);
});

test('5x RTT: the min-RTT scheduler sends the tail on the slow path, the Stream Scheduler keeps it on the fast one', () => {
  // 12 segments ready at 460 (server delay 400; the 200 ms path joined at 380). Both: subflow 1 sends its
  // window of 10 (client at 480 + 1.2k, the 10th at 492).
  // min-RTT: subflow 2 still has room, so it takes segments 11-12 at 460: at its bottleneck at 510, departing
  // 511.2 and 512.4, at the client 50 ms later: the response ends at 562.4.
  // Stream: alpha for the last 2 segments is 20 + 2896 / (14480 B / 40 ms) = 28 ms < 200 / 2, so subflow 2 is
  // not viable and they wait for subflow 1's first ACK (501.2): bottleneck 511.2, departing 512.4 and 513.6,
  // client 522.4 and 523.6.
  const g = new PageBuilder().resource('r', 'http://a.com/x', 12 * MSS, { serverDelay: 400 }).edge('r', 'load').build();
  const rtt = simulateChecked(g, slow2);
  close(rtt.loadTime, 562.4, 'min-RTT');
  assert.equal(rtt.multipath!.bytesPath2, 2 * MSS);
  const stream = simulateChecked(g, { ...slow2, mptcpScheduler: 'stream' });
  close(stream.loadTime, 523.6, 'Stream Scheduler');
  assert.equal(stream.multipath!.bytesPath2, 0);
});

test('Stream Scheduler lookahead puts a later resource on the slow path; only out-of-order delivery lets the first finish early', () => {
  // A (12 segments) and B (40) are ready at 460. Subflow 1 sends A's first 10 (alpha for A alone is 64 ms).
  // Subflow 2 cannot send A's last 2 viably (alpha 28 < 100), but A and B together take subflow 1
  // 20 + 40 + 40 + 17376 / (57920 B / 40 ms) = 112 ms >= 100: lookahead sends B's first 10 segments on
  // subflow 2 (leaving link 2 at 511.2 + 1.2(k-1), at the client 50 ms later: the 10th at 572). A's last
  // two follow subflow 1's first ACK (501.2) and reach the client at 522.4 and 523.6 (as above).
  // quic-lite hands them up at once: A ends at 523.6. h2 delivers in DSN order, and B's 10 segments took the
  // DSNs before A's last two: A ends when B's 10th arrives, at 572 (connection-level head-of-line blocking).
  const g = new PageBuilder()
    .resource('a', 'http://a.com/a', 12 * MSS, { serverDelay: 400 })
    .resource('b', 'http://a.com/b', 40 * MSS, { serverDelay: 400 })
    .edge('a', 'load').edge('b', 'load').build();
  const cfg: EmulatorConfig = { ...slow2, mptcpScheduler: 'stream' };
  const quic = simulateChecked(g, { ...cfg, protocol: 'quic-lite', preemption: false });
  close(timingOf(quic, 'a').end, 523.6, 'quic-lite: A');
  const h2 = simulateChecked(g, cfg);
  close(timingOf(h2, 'a').end, 572, 'h2: A waits for B in the receive buffer');
  assert.ok(h2.multipath!.maxReorderBytes >= 2 * MSS, `A's last two segments waited: ${h2.multipath!.maxReorderBytes}`);
  // Without lookahead subflow 2 never finds a viable first resource here and stays idle at 460.
  const noLook = simulateChecked(g, { ...cfg, protocol: 'quic-lite', preemption: false, mptcpLookahead: false });
  assert.ok(noLook.multipath!.bytesPath2 < h2.multipath!.bytesPath2, 'lookahead is what used path 2 at 460');
});

test('connection-level receive buffer: a small buffer holds the sender back', () => {
  const g = new PageBuilder().resource('r', 'http://a.com/x', 200 * MSS, { serverDelay: 100 }).edge('r', 'load').build();
  const free = simulateChecked(g, equal);
  const tight = simulateChecked(g, { ...equal, mptcpRcvBuf: 8 * MSS });
  assert.ok(tight.loadTime > free.loadTime, `8-segment buffer ${tight.loadTime} vs 16 MiB ${free.loadTime}`);
  assert.ok(tight.multipath!.maxReorderBytes <= 8 * MSS);
});

test('every protocol runs over two paths, with loss, coupled and uncoupled, and keeps the invariants', () => {
  const b = new PageBuilder();
  for (let i = 0; i < 12; i++) b.resource(`r${i}`, `http://${i % 3}.com/${i}`, (3 + 11 * i) * MSS, { serverDelay: 5 * i }).edge(`r${i}`, 'load');
  const g = b.build();
  for (const protocol of ['h1.0', 'h1', 'h1-pipelined', 'h2', 'quic-lite'] as const) {
    for (const mptcpCc of ['lia', 'uncoupled'] as const) {
      for (const mptcpScheduler of ['minrtt', 'stream'] as const) {
        const r = simulateChecked(g, { ...base, protocol, mptcpCc, mptcpScheduler, bandwidthBps: 2e6, queue: 'red', path2: { bandwidthBps: 1e6, rttMs: 120, loss: 0.02 }, seed: 3 });
        assert.ok(r.multipath!.losses2 > 0, `${protocol}: the lossy path lost nothing`);
      }
    }
  }
});

test('tail-loss probe on a subflow: a response within the first window, its last two segments lost', () => {
  // As the first test, with the first path losing segments 9 and 10 (downlink #10, #11): the subflow is
  // TCP's timeline (lossy.test.ts): the RTO sends them at 309.6, the client has the response at 372.0; with
  // --tlp the probe leaves at 109.6 + 2 SRTT + 2 = 199.773 (SRTT 44.0863: the handshake's sample 40, then
  // eight samples 40 + 1.2k), the fast retransmit it triggers reaches the client 62.4 ms later.
  const g = new PageBuilder().resource('r', 'http://a.com/x', 10 * MSS, { serverDelay: 0 }).edge('r', 'load').build();
  const lossy: EmulatorConfig = { ...equal, lossModel: { kind: 'list', packets: [10, 11] }, uplinkLossModel: { kind: 'list', packets: [] } };
  close(simulateChecked(g, lossy).loadTime, 372, 'MPTCP, RTO');
  const tlp = simulateChecked(g, { ...lossy, tlp: true });
  close(tlp.loadTime, 109.6 + 2 * 44.08631489276886 + 2 + 62.4, 'MPTCP, TLP');
  assert.equal(tlp.multipath!.bytesPath2, 0);
});

// The join is a handshake on the second path (join.ts): its packets are lost and resent as the first path's.
const sixty = (serverDelay: number) => new PageBuilder().resource('r', 'http://a.com/x', 60 * MSS, { serverDelay }).edge('r', 'load').build();

test('a lost join SYN: resent after 1 s, the second subflow joins 1 s late', () => {
  // Path 2's first uplink packet is the join's SYN (at 80): lost, resent at 1080, SYN/ACK back at 1120, the
  // third ACK at the server at 1140. A response ready at 160 has only path 1: as TCP.
  const lostSyn: EmulatorConfig = { ...base, path2: { bandwidthBps: 10e6, rttMs: 40, uplinkLossModel: 'list:1' } };
  const early = simulateChecked(sixty(100), lostSyn);
  close(early.loadTime, simulateChecked(sixty(100), base).loadTime, 'as TCP');
  assert.equal(early.multipath!.bytesPath2, 0);
  // Ready at 1160 (server delay 1100): both subflows up, the equal-paths timeline 1000 ms later.
  const late = simulateChecked(sixty(1100), lostSyn);
  close(late.loadTime, 1245.2, 'MPTCP load');
  assert.equal(late.multipath!.bytesPath2, 30 * MSS);
});

test("a lost third ACK (MP_JOIN): resent after the client's RTO, the subflow joins 200 ms late", () => {
  // SYN at 80 (path 2's uplink packet 1), SYN/ACK at 120; the third ACK (packet 2) is lost and resent after
  // max(200, 3 x 40) = 200 ms: at the server at 340. Ready at 360 (server delay 300): 245.2 + 200.
  const r = simulateChecked(sixty(300), { ...base, path2: { bandwidthBps: 10e6, rttMs: 40, uplinkLossModel: 'list:2' } });
  close(r.loadTime, 445.2, 'MPTCP load');
  assert.equal(r.multipath!.bytesPath2, 30 * MSS);
});

test('a lost first SYN delays the join by as much', () => {
  // Path 1's SYN is lost: resent at 1000, SYN/ACK at 1040, the request at the server at 1060, ready at 1160.
  // The join waits for the first data's ACK (1080), then 60 ms: up at 1140. As the lost-join case from 1160.
  const r = simulateChecked(sixty(100), { ...equal, uplinkLossModel: 'list:1' });
  close(r.loadTime, 1245.2, 'MPTCP load');
  assert.equal(r.multipath!.bytesPath2, 30 * MSS);
});

test('a trace-driven second path: its packets leave at the trace\'s opportunities', () => {
  // Path 2's downlink is a Mahimahi trace with one opportunity every 5 ms (2.4 Mbit/s; a deep queue). Both
  // subflows send 10 segments at 160; path 2's reach its bottleneck at 170 and leave at 170 + 5k, ACKed at
  // 200 + 5k. Path 1's ACKs come at 201.2 + 1.2k. Each ACK sends two segments: of the 40 left, path 1's ten
  // ACKs (to 212) take 20, path 2's ACKs at 200 ... 240 take 18, and path 1's next ACK (242.4, for a segment
  // sent at 201.2) the last 2, before path 2's at 245. Path 2's 18 reach its bottleneck at 210 + 5k behind
  // its first 10 (the last leaving at 215): they leave at 220 + 5m, the 18th at 305, at the client at 315
  // (path 1's last, sent at 242.4, arrives near 264).
  const every5ms = Array.from({ length: 20 }, (_, i) => 5 * (i + 1));
  const traced = simulateChecked(sixty(100), { ...base, queueBdp: 50, path2: { bandwidthBps: 10e6, rttMs: 40, downlinkTrace: traceFromTimes(every5ms) } });
  close(traced.loadTime, 315, 'MPTCP load');
  assert.equal(traced.multipath!.bytesPath2, 28 * MSS);
});
