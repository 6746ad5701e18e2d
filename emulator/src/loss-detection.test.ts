/**
 * Hand-derived timelines for `lossDetection: 'sack'` (network/tcp.ts): a loss is known once three segments
 * above it were acknowledged (RFC 6675's DupThresh, the third duplicate ACK), else at the RFC 6298 timeout,
 * which only an ACK that moves the cumulative point restarts. Same page and arithmetic as lossy.test.ts
 * (10 Mbit/s, 40 ms, droptail, h1, icwnd 10): one 10-segment response leaves the server at 60, reaches the
 * bottleneck at 70, segment k departs 70 + 1.2k and reaches the client at 80 + 1.2k, its ACK the server at
 * 100 + 1.2k; a lost segment takes no service, so those behind it depart 1.2 ms earlier. The sender's RTO
 * starts from the handshake's RTT sample: max(200, 3 x 40) = 200 ms, and stays at 200 ms (SRTT ~41-48).
 * Downlink loss lists count the SYN/ACK as #1, then data segments in sending order (segment k is #k+1).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PageBuilder } from '@pcp/graph-builder/testing';
import { simulateChecked } from './testing/check.ts';
import type { EmulatorConfig } from './config.ts';

const MSS = 1448;
const base: EmulatorConfig = { bandwidthBps: 10e6, rttMs: 40, protocol: 'h1', icwnd: 10, queue: 'droptail' };
const close = (actual: number, expected: number, what: string): void =>
  assert.ok(Math.abs(actual - expected) < 1e-6, `${what}: expected ${expected}, got ${actual}`);
const pageOf = (segments: number) => new PageBuilder().resource('r', 'http://a.com/x', segments * MSS, { serverDelay: 0 }).edge('r', 'load').build();
const page = pageOf(10);
const lose = (down: number[], lossDetection: 'nack' | 'sack' = 'sack'): EmulatorConfig => ({
  ...base,
  lossDetection,
  lossModel: { kind: 'list', packets: down },
  uplinkLossModel: { kind: 'list', packets: [] },
});

test('sack without loss: the same timeline as the NACK scheme', () => {
  close(simulateChecked(page, lose([])).loadTime, 92, 'load');
  close(simulateChecked(page, { ...base, lossDetection: 'sack' }).loadTime, 92, 'load (no loss model)');
});

test('a loss mid-window is retransmitted at the third duplicate ACK', () => {
  // Segment 5 (#6) lost: segments 6, 7, 8 depart 76.0, 77.2, 78.4, reach the client 86.0, 87.2, 88.4; their
  // ACKs (duplicates: the cumulative point stays at 5) reach the server 106.0, 107.2, 108.4. The third makes
  // three segments above 5 acknowledged: 5 leaves at 108.4, reaches the idle bottleneck at 118.4, departs
  // 119.6, reaches the client at 129.6 and completes the response. (The NACK scheme: at the first, 106.0 -> 127.2.)
  const r = simulateChecked(page, lose([6]));
  close(r.loadTime, 129.6, 'load');
  assert.equal(r.retransmissions, 1);
  close(simulateChecked(page, lose([6], 'nack')).loadTime, 127.2, 'load with the NACK scheme');
});

test('a loss with fewer than three segments above it waits for the RTO', () => {
  // Segment 8 (#9) lost: 7's ACK, the last to move the cumulative point, reaches the server at 108.4 and
  // restarts the timer (RTO 200); 9's and 10's ACKs (109.6, 110.8) are duplicates with two segments above 8
  // and leave it running. It fires at 308.4: 8 goes again (cwnd 1), departs the bottleneck at 319.6, reaches
  // the client at 329.6. (The NACK scheme: found at 109.6, client 130.8.)
  const r = simulateChecked(page, lose([9]));
  close(r.loadTime, 329.6, 'load');
  assert.equal(r.retransmissions, 1);
  close(simulateChecked(page, lose([9], 'nack')).loadTime, 130.8, 'load with the NACK scheme');
});

test('a lost tail segment: the RTO from the last ACK, as before', () => {
  // Segment 10 (#11) lost: 9's ACK at 110.8 moves the cumulative point: RTO at 310.8, client 332.0.
  close(simulateChecked(page, lose([11])).loadTime, 332, 'load');
});

test('a lost retransmission times out from when it was sent (the oldest unacknowledged resent restarts the timer)', () => {
  // As "a loss mid-window", and the retransmission of 5 (#12, sent at 108.4) lost too. Everything above 5 is
  // acknowledged already, so no duplicate ACK can reveal it; resending the oldest unacknowledged segment
  // restarted the timer at 108.4 (Linux's tcp_xmit_retransmit_queue): it fires at 308.4, 5 goes a third time
  // (cwnd 1), departs 319.6, reaches the client at 329.6.
  const r = simulateChecked(page, lose([6, 12]));
  close(r.loadTime, 329.6, 'load');
  assert.equal(r.retransmissions, 2);
});

test('a loss in the first flight times out after the handshake RTT sample\'s RTO, not the initial 1 s', () => {
  // Two segments, the first (#2) lost: the second departs 71.2, reaches the client 81.2, its duplicate ACK
  // the server at 101.2 (one segment above: not enough). The timer set at 60 with RTO max(200, 3 x 40) fires
  // at 260: segment 1 departs 271.2 and reaches the client at 281.2. (The NACK scheme: found at 101.2, 122.4.)
  const two = pageOf(2);
  const r = simulateChecked(two, lose([2]));
  close(r.loadTime, 281.2, 'load');
  close(simulateChecked(two, lose([2], 'nack')).loadTime, 122.4, 'load with the NACK scheme');
});

test('QUIC-lite counts by packet number: a lost retransmission is found by three later packets; TCP waits for the RTO', () => {
  // 30 segments over one connection (h2 / quic-lite), segment 5 (#6) lost and its retransmission (#24) too.
  // Slow start: the ACKs of 1-4 (101.2-104.8) and the duplicates of 6, 7 (106.0, 107.2) each send two new
  // segments (11-22, #12-#23); the third duplicate (108.4) starts recovery (cwnd 16 -> 8) and resends 5 (#24,
  // lost). In flight 14 > 8 until the ACKs of 11-16 (142.4-148.4): from 148.4 each ACK sends one more, 23-29
  // (148.4-155.6, at the client 169.6-176.8, their ACKs at the server 189.6-196.8), 30 on 23's ACK at 189.6
  // (client 210.8). 23, 24, 25 were sent after the retransmission: QUIC-lite knows it lost at 25's ACK (192.0)
  // and resends 5: bottleneck 202.0, departs 203.2 (behind 30), client 213.2. TCP counts by sequence number,
  // where everything above 5 is acknowledged already: the timer restarted at 108.4 fires at 308.4 -> 329.6.
  const g = pageOf(30);
  const cfg = (protocol: 'h2' | 'quic-lite'): EmulatorConfig => ({ ...lose([6, 24]), protocol });
  const quic = simulateChecked(g, cfg('quic-lite'));
  close(quic.loadTime, 213.2, 'quic-lite load');
  assert.equal(quic.retransmissions, 2);
  close(simulateChecked(g, cfg('h2')).loadTime, 329.6, 'h2 load');
});

test('the RTO starts from the handshake\'s RTT sample with either loss detection (a lost first flight, not 1 s)', () => {
  // One segment (#2), lost: nothing after it can reveal it, so the timer set when it left at 60 fires after
  // max(200, 3 x 40) = 200 ms, at 260: it departs 271.2 and reaches the client at 281.2. (Before the NACK
  // scheme took the handshake's sample, its first RTO was the initial 1 s: 1060 -> 1081.2.)
  const one = pageOf(1);
  for (const scheme of ['nack', 'sack'] as const) close(simulateChecked(one, lose([2], scheme)).loadTime, 281.2, `load (${scheme})`);
});

test('the ACK of a retransmission is an RTT sample (timestamps): it ends the RTO backoff', () => {
  // Two segments, icwnd 1. Segment 1 (#2) leaves at 60, lost: RTO at 260, resent (#3, cwnd 1, backoff 2),
  // lost again: RTO at 260 + 400 = 660, resent (#4, backoff 4): bottleneck 670, departs 671.2, client 681.2,
  // its ACK at the server 701.2. The ACK echoes the timestamp of the copy sent at 660: sample 41.2 (SRTT
  // 40.15, RTTVAR 15.3 after the handshake's 40 / 20: RTO 200), the backoff ends, and the window (ssthresh
  // 2) grows to 2. Segment 2 (#5) leaves at 701.2, lost: RTO at 901.2, departs 912.4, client 922.4. Under
  // Karn's rule (no sample from a retransmission) the backoff of 4 would have held: 701.2 + 800 -> 1522.4.
  const two = pageOf(2);
  for (const scheme of ['nack', 'sack'] as const) {
    const r = simulateChecked(two, { ...lose([2, 3, 5], scheme), icwnd: 1 });
    close(r.loadTime, 922.4, `load (${scheme})`);
    assert.equal(r.retransmissions, 3);
  }
});

test('early retransmit: under four outstanding, one SACKed segment reveals the hole after SRTT / 4 (RFC 5827, Linux 3.5-4.x)', () => {
  const er = (down: number[]): EmulatorConfig => ({ ...lose(down), earlyRetransmit: true });
  // Two segments, the first (#2) lost: 2's ACK reaches the server at 101.2, SACKing it with 2 outstanding and
  // nothing new to send. Its sample 41.2 makes SRTT 0.875 x 40 + 0.125 x 41.2 = 40.15: the retransmission
  // waits 10.0375 (the RTO is at 260), leaves at 111.2375, departs the bottleneck 122.4375, client 132.4375.
  // (Without: the RTO, 281.2.)
  close(simulateChecked(pageOf(2), er([2])).loadTime, 132.4375, 'first of two lost');
  // Ten segments, 8 (#9) lost: 9's ACK at 109.6 leaves 8, 9, 10 outstanding, 9 SACKed: the retransmission is
  // held until 109.6 + SRTT / 4; 10's ACK at 110.8 is a second such ACK, and the held timer would fire
  // before 110.8 + SRTT / 4: it goes at once (Linux's tcp_pause_early_retransmit), departs 122.0, client 132.0.
  // (Without: the RTO from 7's ACK, 329.6.)
  const r = simulateChecked(page, er([9]));
  close(r.loadTime, 132, 'eighth of ten lost');
  assert.equal(r.retransmissions, 1);
  // Segment 5 lost with five after it: four or more outstanding, the third duplicate ACK as without (129.6);
  // the tail (10) has nothing SACKed above it: the RTO as without (332.0).
  close(simulateChecked(page, er([6])).loadTime, 129.6, 'fifth of ten lost');
  close(simulateChecked(page, er([11])).loadTime, 332, 'tail lost');
});

test('FACK: a segment is lost once one three above it is SACKed, however many between were lost', () => {
  // Segments 5 and 6 (#6, #7) lost: 7, 8, 9 depart 76.0, 77.2, 78.4, their ACKs reach the server at 106.0,
  // 107.2, 108.4. Counting SACKed segments (RFC 6675) both are lost at 9's ACK (three above each): 5 and 6
  // leave at 108.4, depart the bottleneck 119.6 and 120.8, client 130.8. FACK: 8's ACK at 107.2 is three
  // above 5: recovery, 5 leaves (departs 118.4); 9's at 108.4 is three above 6: it follows, departs 119.6,
  // reaches the client at 129.6.
  close(simulateChecked(page, lose([6, 7])).loadTime, 130.8, 'counting');
  close(simulateChecked(page, { ...lose([6, 7]), fack: true }).loadTime, 129.6, 'FACK');
});

test('FACK: in recovery a lost retransmission is found when a segment first sent after it is SACKed', () => {
  // The 30 segments of "QUIC-lite counts by packet number" over h2 (TCP), 5 (#6) lost and its retransmission
  // (#24, sent at 108.4) too. 23 was first sent after it (at 148.4): its ACK at 189.6 tells the retransmission
  // was lost (Linux's tcp_mark_lost_retrans), and the slot that ACK frees resends 5 before 30: bottleneck
  // 199.6, departs 200.8, client 210.8; 30 goes on 24's ACK at 190.8, departs 202.0, client 212.0. Without
  // FACK the RTO restarted at 108.4: 329.6.
  const r = simulateChecked(pageOf(30), { ...lose([6, 24]), protocol: 'h2', fack: true });
  close(r.loadTime, 212, 'load');
  assert.equal(r.retransmissions, 2);
});

test('QUIC-lite with RFC 9002\'s probe timeout: a lost tail costs SRTT + 4 RTTVAR, not the 200 ms RTO', () => {
  const quic = (g: typeof page, down: number[], quicPto: boolean): number =>
    simulateChecked(g, { ...lose(down), protocol: 'quic-lite', quicPto }).loadTime;
  // Segment 10 (#11) lost: 9's ACK at 110.8 is the last; SRTT / RTTVAR from the handshake's 40 / 20 and the
  // samples 40 + 1.2k (k = 1..9): 44.9255 / 6.5913, PTO 71.2905. The probe at 182.0905 finds nothing new to
  // send and sends the highest unacknowledged packet, 10 again: client 21.2 later, 203.2905. (The RTO: 332.0.)
  close(quic(page, [11], true), 110.8 + 44.92552553117275 + 4 * 6.591252404451367 + 21.2, 'tail lost, PTO');
  close(quic(page, [11], false), 332, 'tail lost, RTO');
  // One packet (#2), lost, and its first probe (#3): PTO 40 + 4 x 20 = 120 from 60 fires at 180; the next,
  // doubled, at 180 + 240 = 420: client 441.2. (The RTO: 260, then 400 more, 660 -> 681.2.)
  close(quic(pageOf(1), [2, 3], true), 441.2, 'probe lost, PTO');
  close(quic(pageOf(1), [2, 3], false), 681.2, 'probe lost, RTO');
});

test('QUIC-lite\'s PTO: losses declared after two probe timeouts are persistent congestion (the window drops to 2)', () => {
  // 20 segments, icwnd 10: 1-10 leave at 60 (ACKs at the server 101.2-112.0, samples 40 + 1.2k: SRTT 45.8098,
  // RTTVAR 6.7121, PTO 72.6581); the ACKs of 1-5 send 11-20 (slow start), all lost (#12-#21); the window has
  // grown to 20. PTO from 112.0: the probe (20 again, #22) is lost too; the next after 2 PTO: 20 (#23) arrives,
  // its ACK at T = 112 + 3 PTO + 41.2 = 371.1742 declares 11-19 lost (sent before the probe). Two expirations:
  // persistent congestion, cwnd 2 (not 20 / 2): 11 and 12 go at T, then one per ACK, 13-14 at T + 41.2 / 42.4,
  // 15-16 at T + 82.4 / 83.6, 17-18 at T + 123.6 / 124.8, 19 at T + 164.8: client T + 186.0. (With the window
  // halved to 10 all nine would leave at T: T + 30.8.)
  const r = simulateChecked(pageOf(20), { ...lose([12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22]), protocol: 'quic-lite', quicPto: true });
  close(r.loadTime, 112 + 3 * (45.80983483977616 + 4 * 6.7120579205453375) + 41.2 + 186, 'load');
});
