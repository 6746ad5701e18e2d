/**
 * Hand-derived whole-simulation timelines of the subflows' congestion-control coupling (LIA, OLIA,
 * uncoupled NewReno). Paths as connection.test.ts: 10 Mbit/s, 40 ms each (a segment serialises in 1.2 ms;
 * 10 ms from the server to the bottleneck, 10 ms on to the client, 20 ms back), icwnd 10, drop-tail queues.
 *
 * Congestion avoidance needs a finite ssthresh: here it comes from window validation after idle (RFC 2861:
 * ssthresh = max(ssthresh, 3/4 cwnd), cwnd halved per idle RTO but not below the restart window of 10).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PageBuilder } from '@pcp/graph-builder/testing';
import { simulateChecked, timingOf } from '../testing/check.ts';
import type { EmulatorConfig } from '../config.ts';

const MSS = 1448;
const equal: EmulatorConfig = { bandwidthBps: 10e6, rttMs: 40, protocol: 'h2', icwnd: 10, queue: 'droptail', path2: { bandwidthBps: 10e6, rttMs: 40 } };
const close = (actual: number, expected: number, what: string): void =>
  assert.ok(Math.abs(actual - expected) < 1e-6, `${what}: expected ${expected}, got ${actual}`);

test('LIA vs uncoupled on two equal paths: the coupled increase costs B a round trip', () => {
  // A (16 segments) is ready at 160 (the second subflow joined at 140): subflow 1 sends 10, subflow 2 the other
  // 6; A ends at 170 + 10 x 1.2 + 10 = 192. Their ACKs (from 201.2) grow the windows while at least half of
  // them is in flight: subflow 1 to 14 (ACKs 1-4: pipe 9..6), subflow 2 to 11 (ACK 1).
  // B is requested at 192, at the server at 212, ready at 512: both subflows were idle since 160, more than one
  // RTO (>= 200 ms) but less than two: cwnd = max(w / 2, 10) = 10 on both, ssthresh 0.75 x 14 = 10.5 on
  // subflow 1 and 0.75 x 11 = 8.25 on subflow 2.
  // Round 1 (512): 10 + 10 segments; their ACKs reach the server at 553.2 + 1.2k (k = 0..9) on each path.
  // Round 2: subflow 1's first ACK is slow start (10 < 10.5: to 11, two segments); its other 9 and all of
  //   subflow 2's are congestion avoidance. Round 2 is 11 + 10 = 21 segments under either coupling (41 in all).
  //   Uncoupled (1/w per ACK): subflow 1 ends round 2 at 11 + 1/11 + ... (9 ACKs) = 11.793, subflow 2 at
  //   10 + 1/10 + ... (10 ACKs) = 10.959.
  //   LIA: per ACK alpha / w_total = max_r(w_r / rtt_r^2) / (sum_r w_r / rtt_r)^2 ~ w_max / (w_1 + w_2)^2 =
  //   11 / 21^2 ~ 0.025: subflow 1 ends round 2 near 11.22, subflow 2 near 10.24.
  // Round 3 (ACKs from 594.4): uncoupled, subflow 2's first ACK takes it to 11.050 (two segments: 11 this
  //   round), subflow 1's third to 12.045 (12 this round): 23 segments, 64 in all: B fits. Subflow 1's
  //   round-3 segments leave at 594.4 + 1.2k with two at 596.8, so one queues behind the other from then on:
  //   the 12th (sent 606.4) is at the bottleneck at 616.4, leaves at 618.8, reaches the client at 628.8.
  //   LIA: 11 + 10 more ACKs x ~0.024 stays below 12, 10 + 10 x ~0.024 below 11: 11 + 10 = 21, 62 in all.
  //   The last 2 segments go out at round 3's first ACKs (635.6), one per subflow: at the client 656.8.
  // OLIA: without losses l_r is all a subflow sent, so subflow 1 (more bytes, same RTT) is the best path and
  //   has the largest window: B \ M is empty, alpha = 0, and the increase (w_r / rtt_r^2) / (sum w / rtt)^2
  //   ~ w_r / 21^2 is at most LIA's: the same rounds, 656.8.
  const g = new PageBuilder()
    .resource('a', 'http://a.com/a', 16 * MSS, { serverDelay: 100 })
    .resource('b', 'http://a.com/b', 64 * MSS, { serverDelay: 300 })
    .edge('a', 'b').edge('b', 'load').build();
  const uncoupled = simulateChecked(g, { ...equal, mptcpCc: 'uncoupled' });
  const lia = simulateChecked(g, { ...equal, mptcpCc: 'lia' });
  const olia = simulateChecked(g, { ...equal, mptcpCc: 'olia' });
  close(timingOf(lia, 'a').end, 192, 'A');
  close(uncoupled.loadTime, 628.8, 'uncoupled');
  close(lia.loadTime, 656.8, 'LIA');
  close(olia.loadTime, 656.8, 'OLIA');
  // Round 1 and 2 split as derived (10 + 6 for A; 10 + 10 and 11 + 10 for B): the second path's share.
  assert.equal(lia.multipath!.bytesPath2, (6 + 10 + 10 + 10 + 1) * MSS);
  assert.equal(uncoupled.multipath!.bytesPath2, (6 + 10 + 10 + 11) * MSS);
});

test('OLIA over lossy paths keeps the invariants, and its loss marks change the windows (not LIA\'s result)', () => {
  // Not hand-derived: random loss on both paths makes windows cut at different inter-loss distances, where
  // OLIA's alpha moves window between the subflows and LIA's does not. Every protocol, both schedulers.
  const b = new PageBuilder();
  for (let i = 0; i < 12; i++) b.resource(`r${i}`, `http://${i % 3}.com/${i}`, (3 + 11 * i) * MSS, { serverDelay: 5 * i }).edge(`r${i}`, 'load');
  const g = b.build();
  let differs = 0;
  for (const protocol of ['h1', 'h2', 'quic-lite'] as const) {
    for (const mptcpScheduler of ['minrtt', 'stream'] as const) {
      const cfg: EmulatorConfig = { ...equal, protocol, mptcpScheduler, bandwidthBps: 2e6, lossRate: 0.02, path2: { bandwidthBps: 1e6, rttMs: 120, loss: 0.02 }, seed: 3 };
      const olia = simulateChecked(g, { ...cfg, mptcpCc: 'olia' });
      const lia = simulateChecked(g, { ...cfg, mptcpCc: 'lia' });
      assert.ok(olia.multipath!.losses2 > 0 && olia.losses > olia.multipath!.losses2, `${protocol}: both paths lost packets`);
      if (olia.loadTime !== lia.loadTime) differs++;
    }
  }
  assert.equal(differs, 6, 'OLIA and LIA gave the same load time');
});
