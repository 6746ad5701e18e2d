/**
 * A hand-derived whole-simulation timeline in which OLIA's opportunistic term alpha is non-zero (olia.ts), so
 * that it decides where a segment goes. No queueing, so every RTT sample is exact: two equal paths of 1 Tbit/s
 * and 40 ms (a packet serialises in 12 ns: a burst of 20 shifts its last sample by 0.24 µs, which moves none
 * of the numbers below; 10 ms from the server to the bottleneck, 10 ms on to the client, 20 ms back), icwnd 10,
 * every segment ACKed at once (delayed ACKs off), no loss. With equal RTTs R the coupled term is scale-free:
 * (w_1 / R^2) / ((w_1 + w_2) / R)^2 = w_1 / (w_1 + w_2)^2.
 *
 * A (20 segments) is on the first subflow alone, so that subflow has sent more (OLIA's l_r, without losses the
 * bytes sent); an idle spell then restarts its window into congestion avoidance below the second subflow's,
 * which slow-starts: the best path (largest l_r / rtt_r^2) is not the one with the largest window.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PageBuilder } from '@pcp/graph-builder/testing';
import { simulateChecked, timingOf } from '../testing/check.ts';
import type { EmulatorConfig } from '../config.ts';

const MSS = 1448;
const paths: EmulatorConfig = {
  bandwidthBps: 1e12,
  rttMs: 40,
  protocol: 'h2',
  icwnd: 10,
  queue: 'droptail',
  delayedAcks: false,
  path2: { bandwidthBps: 1e12, rttMs: 40 },
};
/** Times are exact up to the nanoseconds of serialisation (at most 100 packets x 12 ns). */
const close = (actual: number, expected: number, what: string): void =>
  assert.ok(Math.abs(actual - expected) < 0.005, `${what}: expected ${expected}, got ${actual}`);

test("OLIA's alpha moves a segment to the best path when another path has the larger window", () => {
  // A: SYN at 0, established at 40, request at the server at 60, A ready (server delay 0): 10 segments on
  //   subflow 1, at the client at 80, ACKed at the server at 100. ACKs 1-5 (slow start, cwnd 11..15) send two
  //   segments each: A's other 10, at the client at 120: A ends at 120. ACKs 6-10 find A all sent but at least
  //   half the window in flight (14..10 of 15..19), so the window still grows: 20. A's second-round ACKs reach
  //   the server at 140: the first leaves 9 in flight (2 x (9 + 1) >= 20: grows to 21), the rest fewer: cwnd 21.
  // The join: subflow 2 can carry data at 2 x 40 + 40 + 20 = 140 (connection.test.ts); A is done by then.
  // B: requested at 120, at the server at 140, ready at 140 + 250 = 390. Subflow 1 last sent at 100: idle 290 ms,
  //   one RTO (200: RFC 6298's floor, SRTT + 4 RTTVAR = 40 + 80 at most) but not two: ssthresh 0.75 x 21 = 15.75,
  //   cwnd 21 / 2 = 10.5 (Algorithm 11). Subflow 2 never sent: cwnd 10, ssthresh infinite.
  //   The min-RTT scheduler fills subflow 2 first (no sample yet: the handshake's exact 40 ms; subflow 1's SRTT is
  //   40 ms plus A's nanoseconds of serialisation): 10 segments, then subflow 1's 10 (floor 10.5).
  // Round 2 (ACKs at 430): the paths are alike, so each subflow's k-th ACK arrives at the same instant, subflow 2's
  //   first (its segment was sent first; equal times run in insertion order).
  //   Subflow 2: 10 slow-start ACKs, cwnd 11..20, 2 segments each: 20.
  //   Subflow 1: ACKs 1-6 slow start (the 6th at 15.5 < 15.75): cwnd 16.5, 2 segments each: 12; ACKs 7-10 are
  //   congestion avoidance: one segment each (cwnd stays below 17, table below): 4. Sent so far: 20 + 36 = 56
  //   (subflow 1 10 + 16, subflow 2 10 + 20).
  // Round 3 (ACKs at 470): 44 segments left; subflow 2 has 20 ACKs (2 segments each, slow start), subflow 1 16
  //   (seqs 30-45), alternating, subflow 2's first (same reason).
  // OLIA at subflow 1's k-th congestion-avoidance ACK (k = 0: its 7th of round 2; k = 4: its 1st of round 3):
  //   w_2 = 17 + k (subflow 2's ACK of the same index came first), w_1 < 17.3: M = {2}. No loss, so l_r is all
  //   the subflow sent, A's 20 segments included: before the k-th of round 2, l_1 = 20 + 10 + 12 + k and
  //   l_2 = 10 + 2 x (7 + k): l_1 - l_2 = 18 - k; before the j-th of round 3, l_1 = 20 + 26 + (j - 1) (+1 once
  //   it sent two) and l_2 = 30 + 2j: 15 - j (+1) >= 1 segment for j <= 14, while data remains. Equal RTTs, so
  //   B = {1}: B \ M = {1}, alpha_1 = 1 / (n |B \ M|) = 1/2 (alpha_2 = -1/2, unused: subflow 2 slow-starts).
  //   Per ACK w_1 grows by w_1 / (w_1 + w_2)^2 + 0.5 / w_1 (to four places):
  //     k  w_2   w_1      coupled  alpha/w_1  new w_1
  //     0  17   16.5000  0.0147   0.0303     16.5450
  //     1  18   16.5450  0.0139   0.0302     16.5891
  //     2  19   16.5891  0.0131   0.0301     16.6323
  //     3  20   16.6323  0.0124   0.0301     16.6748   (end of round 2)
  //     4  21   16.6748  0.0117   0.0300     16.7165
  //     5  22   16.7165  0.0112   0.0299     16.7576
  //     6  23   16.7576  0.0106   0.0298     16.7980
  //     7  24   16.7980  0.0101   0.0298     16.8379
  //     8  25   16.8379  0.0096   0.0297     16.8772
  //     9  26   16.8772  0.0092   0.0296     16.9160
  //    10  27   16.9160  0.0088   0.0296     16.9543
  //    11  28   16.9543  0.0084   0.0295     16.9922
  //    12  29   16.9922  0.0080   0.0294     17.0297   -> two segments (round 3's 9th ACK)
  //   then at most 0.0455 per ACK: below 18 for the rest.
  // Round 3 with OLIA: pairs 1-8 send 3 each (80 in all), pair 9 sends 2 + 2 (84), pairs 10-14 3 each (99),
  //   subflow 2's 15th ACK the 100th. Subflow 1: 10 + 16 + 15 = 41 segments, subflow 2: 10 + 20 + 29 = 59.
  // Without alpha (OLIA's coupled term alone) or with LIA (min(w_max / (w_1 + w_2)^2, 1 / w_1); w_2 is the max)
  //   every increase is at most 17 / 33.5^2 = 0.0152 (both terms fall as w_2 grows past w_1): 18 ACKs add less
  //   than 0.28, w_1 never reaches 17: pairs 1-14 send 42 (98), subflow 2's 15th ACK the last 2. Subflow 2: 60.
  // The load: every segment of B left by 470 and reaches the client 20 ms later: 490 in all three.
  const g = new PageBuilder()
    .resource('a', 'http://a.com/a', 20 * MSS, { serverDelay: 0 })
    .resource('b', 'http://a.com/b', 100 * MSS, { serverDelay: 250 })
    .edge('a', 'b').edge('b', 'load').build();
  const olia = simulateChecked(g, { ...paths, mptcpCc: 'olia' });
  const lia = simulateChecked(g, { ...paths, mptcpCc: 'lia' });
  close(timingOf(olia, 'a').end, 120, 'A');
  close(timingOf(olia, 'b').start, 120, 'B requested');
  close(olia.loadTime, 490, 'OLIA load');
  close(lia.loadTime, 490, 'LIA load');
  assert.equal(olia.multipath!.bytesPath2, 59 * MSS, "OLIA's alpha takes one segment off the larger window's path");
  assert.equal(lia.multipath!.bytesPath2, 60 * MSS);
  assert.equal(olia.multipath!.bytesArrived, 120 * MSS);
  assert.equal(olia.losses + olia.retransmissions, 0);
});
