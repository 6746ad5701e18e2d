/**
 * Hand-derived timelines of the MPTCP connection level: the receive buffer holding the sender back, h1's
 * parallel connections each being an MPTCP connection, and window validation after idle per subflow. Paths as connection.test.ts: 10 Mbit/s, 40 ms each (a
 * segment serialises in 1.2 ms; 10 ms from the server to the bottleneck, 10 ms on to the client, 20 ms back),
 * icwnd 10; the second subflow is up at 2 RTT_1 + 1.5 RTT_2 = 140 ms.
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

test('the connection-level receive buffer holds the sender to B bytes past the client\'s in-order point', () => {
  // 20 segments ready at 160 (request at the server at 60, server delay 100), both subflows up.
  // 16 MiB buffer: each subflow sends its window of 10 at once; on each path segment k leaves the bottleneck
  // at 171.2 + 1.2k and reaches the client at 181.2 + 1.2k: the 10th at 192.0.
  // 5-segment buffer: only 5 segments go at 160 (client at 181.2, 182.4, 183.6, 184.8, 186.0); each in-order
  // arrival frees one segment's room, which goes out at once (flow control read from the receiver: no Data
  // ACK lag) on an idle path and arrives 10 + 1.2 + 10 = 21.2 ms later. Segment k arrives 21.2 ms after
  // segment k - 5: the 20th (k = 19 = 4 + 3 x 5) at 186.0 + 3 x 21.2 = 249.6. Nothing ever waits for an
  // earlier DSN.
  // 10-segment buffer: 10 go at 160 (client 181.2 .. 192.0), the other 10 each 21.2 ms after the one 10
  // before: the 20th at 192.0 + 21.2 = 213.2.
  const g = new PageBuilder().resource('r', 'http://a.com/x', 20 * MSS, { serverDelay: 100 }).edge('r', 'load').build();
  close(simulateChecked(g, equal).loadTime, 192, '16 MiB buffer');
  const five = simulateChecked(g, { ...equal, mptcpRcvBuf: 5 * MSS });
  close(five.loadTime, 249.6, '5-segment buffer');
  assert.equal(five.multipath!.maxReorderBytes, 0);
  close(simulateChecked(g, { ...equal, mptcpRcvBuf: 10 * MSS }).loadTime, 213.2, '10-segment buffer');
});

test('h1 over MPTCP: two parallel connections, each with its own two subflows', () => {
  // Two 20-segment responses from one host, both requested at 0: h1 opens two connections (handshakes at 0,
  // requests at the server at 60, responses ready at 160), each joins the second path at 140 and so has two
  // subflows of window 10: all 40 segments go at 160, 20 on each path. Each bottleneck queues its 20
  // (connection 1's 10 first): they leave at 171.2 + 1.2k; r1's last (k = 9) reaches the client at 192.0,
  // r2's (k = 19) at 204.0.
  // One h2 connection has only two windows of 10: r2 waits for the ACKs of r1's segments (first at 201.2).
  const b = new PageBuilder();
  for (const id of ['r1', 'r2']) b.resource(id, `http://a.com/${id}`, 20 * MSS, { serverDelay: 100 }).edge(id, 'load');
  const g = b.build();
  const h1 = simulateChecked(g, { ...equal, protocol: 'h1' });
  close(timingOf(h1, 'r1').end, 192, 'h1: r1');
  close(timingOf(h1, 'r2').end, 204, 'h1: r2');
  assert.equal(timingOf(h1, 'r2').handshake, 40, 'r2 has its own connection');
  assert.equal(h1.multipath!.bytesPath2, 20 * MSS);
  const h2 = simulateChecked(g, equal);
  assert.ok(timingOf(h2, 'r2').end > 201.2, `h2: r2 needs r1's ACKs: ${timingOf(h2, 'r2').end}`);
});

test('per-subflow window validation: the idle subflow restarts at 10, the busy one keeps its 14', () => {
  // Path 2 is 10 Mbit/s, 80 ms (20 ms to its bottleneck, 20 on, 40 back): the join is up at 80 + 120 = 200.
  // A (20 segments) is ready at 260: each subflow sends its window of 10 (A ends at 260 + 20 + 12 + 20 = 312).
  // Their ACKs grow each window while 2 (pipe + 1) >= cwnd, i.e. on ACKs 1-4 (pipe 9..6): 14 on both.
  // Three 1-segment responses follow, each requested at the previous one's end and ready 100 ms after the
  // request reaches the server: sent at 432, 573.2, 714.4, all on subflow 1 (min-RTT: 40 < 80 ms), ending
  // 21.2 ms later (453.2, 594.4, 735.6). Subflow 1 is never idle for its RTO (200 ms, the minimum): gaps of
  // 172 and 141.2 ms. Subflow 2 was last active at its last ACK (352.0): offered data at 573.2, it restarts
  // (k = 1): cwnd max(14 / 2, 10) = 10, ssthresh 0.75 x 14 = 10.5.
  // B (40 segments) is ready at 735.6 + 20 + 100 = 855.6: subflow 1 sends 14, subflow 2 10 (at the client
  // by 855.6 + 20 + 12 + 20 = 907.6). Subflow 1's ACKs (from 896.8, slow start) send the other 16 two per ACK:
  // at its bottleneck from 906.8, back to back, the last leaving at 906.8 + 16 x 1.2 = 926.0: B ends at 936.0.
  // (Had subflow 2 kept 14: 931.2; had both restarted at 10, as one idle connection would: 940.8.)
  const g = new PageBuilder().resource('a', 'http://a.com/a', 20 * MSS, { serverDelay: 200 });
  let prev = 'a';
  for (const id of ['c0', 'c1', 'c2']) {
    g.resource(id, `http://a.com/${id}`, MSS, { serverDelay: 100 }).edge(prev, id);
    prev = id;
  }
  g.resource('b', 'http://a.com/b', 40 * MSS, { serverDelay: 100 }).edge(prev, 'b').edge('b', 'load');
  const r = simulateChecked(g.build(), { ...equal, path2: { bandwidthBps: 10e6, rttMs: 80 } });
  close(timingOf(r, 'a').end, 312, 'A');
  close(timingOf(r, 'c2').end, 735.6, 'the last small response');
  close(r.loadTime, 936, 'B');
  assert.equal(r.multipath!.bytesPath2, (10 + 10) * MSS);
});
