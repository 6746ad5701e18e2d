/**
 * Delayed ACKs, hand-derived on one connection driven by the real event queue, link and send buffer:
 * 10 Mbit/s, dS = dC = 10 ms, up = 20 ms (RTT 40), a full packet 1.2 ms on the link. With an initial window
 * of 21 segments all leave at 0, reach the bottleneck at 10, segment k departs 10 + 1.2k and reaches the
 * client at 20 + 1.2k; an ACK sent at t reaches the server at t + 20.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EventQueue } from '../event-queue.ts';
import { EV_ACK_ARRIVES, EV_DELACK, EV_RTO, EV_SEGMENT_ARRIVES } from '../events.ts';
import { SendBuffer, type Exchange } from '../http/send-buffer.ts';
import { Rng } from '../rng.ts';
import { BottleneckLink, LossyWire, MSS } from './bottleneck.ts';
import { linkSchedule } from './link-schedule.ts';
import { ListLoss } from './loss-model.ts';
import { firstRto, LINUX_DELAYED_ACKS, rtoOf, THESIS_DELAYED_ACKS, TcpConnection, type DelayedAckPolicy, type NetContext, type Segment } from './tcp.ts';

function exchange(bytes: number): Exchange {
  return { node: 0, bytes, sent: 0, received: 0, prio: 0, order: 0, serverDelay: 0, tIssue: 0, tSent: 0, tAtServer: 0, tReady: 0, tFirstByte: NaN, tEnd: NaN, handshake: 0, conn: null };
}

/** Sends `segments` full segments at 0 (and `later` more at each `later.at`); returns the ACKs' arrivals at the server. */
function ackTimeline(delayedAcks: boolean | DelayedAckPolicy, segments: number, later?: { at: number; segments: number } | Array<{ at: number; segments: number }>, losePackets: number[] = [], extra: Partial<NetContext> = {}, seen: { conn?: TcpConnection } = {}): Array<[number, number]> {
  const q = new EventQueue();
  const link = new BottleneckLink(10e6, 40, 10, false, new Rng(1, 1), { loss: new ListLoss(losePackets) });
  const ctx: NetContext = {
    q, arrivalLane: q.addLane(), ackLane: () => q.addLane(), link, dS: 10, dC: 10, icwnd: 21, cubic: false,
    stats: { retransmissions: 0, bytesDelivered: 0 }, delayedAcks, deliver: () => {}, ...extra,
  };
  const buffer = new SendBuffer(false, false);
  const conn = new TcpConnection(ctx, 20, false, buffer);
  seen.conn = conn;
  buffer.push(exchange(segments * MSS));
  conn.kick(0);
  const acks: Array<[number, number]> = [];
  const EV_MORE_DATA = -1; // this test's own event: the application writes more
  for (const w of later === undefined ? [] : Array.isArray(later) ? later : [later]) q.schedule(w.at, EV_MORE_DATA, w.segments);
  for (let ev = q.pop(); ev; ev = q.pop()) {
    if (ev.kind === EV_MORE_DATA) {
      buffer.push(exchange((ev.a as number) * MSS));
      conn.kick(ev.t);
    } else if (ev.kind === EV_SEGMENT_ARRIVES) conn.onSegmentArrives(ev.a as Segment, ev.t);
    else if (ev.kind === EV_ACK_ARRIVES) {
      acks.push([Math.round(ev.t * 1000) / 1000, ev.b]);
      conn.onAck(ev.a as Segment, ev.t, ev.b);
    } else if (ev.kind === EV_RTO) conn.onRto(ev.b, ev.t);
    else if (ev.kind === EV_DELACK) conn.onDelayedAck(ev.b, ev.t);
  }
  conn.recycle();
  return acks;
}

const r = (x: number): number => Math.round(x * 1000) / 1000;

test("the RTO: RFC 6298's max(200, SRTT + 4 RTTVAR); Linux's SRTT + max(4 RTTVAR, 200), always 200 above SRTT", () => {
  assert.equal(rtoOf(80, 5), 200);
  assert.equal(rtoOf(80, 5, true), 280);
  assert.equal(rtoOf(80, 60), 320);
  assert.equal(rtoOf(80, 60, true), 320);
  // After the first sample r (RTTVAR r/2): max(200, 3r) against r + max(2r, 200).
  assert.deepEqual([40, 100, 150].map((r) => firstRto(r)), [200, 300, 450]);
  assert.deepEqual([40, 100, 150].map((r) => firstRto(r, true)), [240, 300, 450]);
});

test('without delayed ACKs every segment is ACKed on arrival', () => {
  const acks = ackTimeline(false, 21);
  assert.deepEqual(acks, Array.from({ length: 21 }, (_, i) => [r(40 + 1.2 * (i + 1)), i + 1]));
});

test('delayed ACKs: 16 quick ACKs, then one per two full segments, a lone segment after 40 ms', () => {
  const acks = ackTimeline(true, 21);
  const quick = Array.from({ length: 16 }, (_, i) => [r(40 + 1.2 * (i + 1)), i + 1]);
  // Segment 17 arrives at 40.4: one segment unacknowledged, the timer is set for 80.4; segment 18 at 41.6
  // makes two: ACK now (covering 17 and 18) -> server 61.6. 19 at 42.8 waits; 20 at 44.0 -> ACK, 64.0.
  // 21 at 45.2 is alone: the timer sends its ACK at 85.2 -> server 105.2.
  assert.deepEqual(acks, [...quick, [61.6, 18], [64, 20], [105.2, 21]]);
});

test('delayed ACKs: after an idle spell longer than the client RTO, quick-ACK mode returns', () => {
  // 17 segments (quick ACKs used up on 1-16; 17 waits for the timer: 40.4 + 40 -> server 100.4). At 500 one
  // more segment: bottleneck 510, departs 511.2, client 521.2 — 476 ms after the last arrival (> RTO 200):
  // quick-ACKed at once, at the server at 541.2 (without the rule it would wait until 561.2 + 20).
  const acks = ackTimeline(true, 17, { at: 500, segments: 1 });
  assert.deepEqual(acks.slice(-2), [[100.4, 17], [541.2, 18]]);
});

test('delayed ACKs: out-of-order data and the segment filling the hole are ACKed at once', () => {
  // Segment 18 is lost (it takes no service: 19..21 depart at 10 + 1.2(k - 1)). 17 arrives at 40.4 and waits;
  // 19 arrives out of order at 41.6: ACK now (covering 17 and 19) -> server 61.6; 20 (42.8) and 21 (44.0)
  // too, still behind the hole -> 62.8, 64.0. The ACK at 61.6 reveals the hole: 18 is retransmitted at
  // once, reaches the idle bottleneck at 71.6, departs 72.8, fills the hole at the client at 82.8: ACK at
  // once -> server 102.8.
  const acks = ackTimeline(true, 21, undefined, [18]);
  const quick = Array.from({ length: 16 }, (_, i) => [r(40 + 1.2 * (i + 1)), i + 1]);
  assert.deepEqual(acks, [...quick, [61.6, 18], [62.8, 19], [64, 20], [102.8, 21]]);
});

test('thesis delayed ACKs (ns-3, Table 3.3): every 2nd segment, a lone one after 100 ms, no quick ACKs', () => {
  // Five segments reach the client at 21.2, 22.4, 23.6, 24.8, 26.0. 1 arms the 100 ms timer; 2 makes the
  // count 2: ACK now (1-2) -> server 42.4; 3 re-arms, 4 -> ACK (3-4) at 44.8; 5 waits for its timer at
  // 126.0 -> server 146.0. Linux's policy quick-ACKs all five instead.
  assert.deepEqual(ackTimeline(THESIS_DELAYED_ACKS, 5), [[42.4, 2], [44.8, 4], [146, 5]]);
  assert.deepEqual(ackTimeline(LINUX_DELAYED_ACKS, 5), ackTimeline(true, 5));
  assert.deepEqual(ackTimeline(true, 5), Array.from({ length: 5 }, (_, i) => [r(40 + 1.2 * (i + 1)), i + 1]));
});

test('PSH: the last segment of a response is ACKed at once, not after the delayed-ACK timer', () => {
  // As "delayed ACKs: 16 quick ACKs..." but segment 21 ends the response: ACKed on arrival at 45.2 -> 65.2.
  const acks = ackTimeline(true, 21, undefined, [], { psh: true });
  const quick = Array.from({ length: 16 }, (_, i) => [r(40 + 1.2 * (i + 1)), i + 1]);
  assert.deepEqual(acks, [...quick, [61.6, 18], [64, 20], [65.2, 21]]);
});

test('PSH/ACK signal (MPTCP, §6.4.5): another subflow\'s PSH makes the client ACK this one at once', () => {
  // Subflow B sends 17 segments at 0 that do not end the object (its context has no PSH of its own): 1-16 are
  // quick-ACKed, 17 reaches the client at 40.4 and waits for the timer (ACK at the server at 100.4). Subflow
  // A (its own 10 Mbit/s / 40 ms path) sends the object's last segment at 25 with PSH: B's PSH/ACK leaves at
  // 25, follows B's data (its last at 40.4), reaches the client at max(25 + 10 + 10, 40.4) = 45: B's ACK
  // leaves at once and reaches the server at 65.
  const q = new EventQueue();
  const mk = (psh: boolean, signal?: NetContext['pshSignal']): NetContext => ({
    q, arrivalLane: q.addLane(), ackLane: () => q.addLane(), link: new BottleneckLink(10e6, 40, 10, false, new Rng(1, 1)),
    dS: 10, dC: 10, icwnd: 17, cubic: false, stats: { retransmissions: 0, bytesDelivered: 0 }, delayedAcks: true, psh,
    pshSignal: signal, deliver: () => {},
  });
  const bufB = new SendBuffer(false, false);
  const b = new TcpConnection(mk(false), 20, false, bufB);
  const bufA = new SendBuffer(false, false);
  const a = new TcpConnection(mk(true, (_c, t) => b.signalPsh(t)), 20, false, bufA);
  bufB.push(exchange(17 * MSS));
  b.kick(0);
  const EV_A_WRITES = -1;
  q.schedule(25, EV_A_WRITES);
  const acksB: Array<[number, number]> = [];
  for (let ev = q.pop(); ev; ev = q.pop()) {
    if (ev.kind === EV_A_WRITES) {
      bufA.push(exchange(MSS));
      a.kick(ev.t);
    } else if (ev.kind === EV_SEGMENT_ARRIVES) (ev.a as Segment).conn.onSegmentArrives(ev.a as Segment, ev.t);
    else if (ev.kind === EV_ACK_ARRIVES) {
      if ((ev.a as Segment).conn === b) acksB.push([r(ev.t), ev.b]);
      (ev.a as Segment).conn.onAck(ev.a as Segment, ev.t, ev.b);
    } else if (ev.kind === EV_RTO) (ev.a as TcpConnection).onRto(ev.b, ev.t);
    else if (ev.kind === EV_DELACK) (ev.a as TcpConnection).onDelayedAck(ev.b, ev.t);
  }
  assert.deepEqual(acksB.at(-1), [65, 17]);
  assert.equal(acksB.length, 17);
});

/**
 * Tail loss, icwnd 2, one response of `segments`: 1 and 2 leave at 0, ACKed at the server at 41.2 and 42.4
 * (the handshake's sample first: SRTT 40, RTTVAR 20; then 0.875 x 40 + 0.125 x 41.2 = 40.15, RTTVAR 15.3;
 * then 0.875 x 40.15 + 0.125 x 42.4 = 40.43125, RTTVAR 12.0375: RTO 200). The ACK at 41.2
 * grows the window to 3 and sends 3 (and 4). Returns when the client has the whole response.
 */
function tailDone(segments: number, lose: number[], extra: Partial<NetContext>): number {
  let done = NaN;
  let got = 0;
  ackTimeline(false, segments, undefined, lose, {
    icwnd: 2, ...extra,
    deliver: (_x, bytes, now) => {
      got += bytes;
      if (got === segments * MSS) done = r(now);
    },
  });
  return done;
}

test('TLP: two tail segments lost — the probe at 2 SRTT + 2 ms replaces the RTO', () => {
  // 3 and 4 are lost. Without TLP the RTO (armed at 42.4 for 200) fires at 242.4: 3 again with cwnd 1
  // (client 242.4 + 10 + 1.2 + 10 = 263.6, ACK at the server 283.6), then 4: client 283.6 + 21.2 = 304.8.
  assert.equal(tailDone(4, [3, 4], {}), 304.8);
  // With TLP the ACK at 42.4 leaves two in flight: PTO = 42.4 + 2 x 40.43125 + 2 = 125.2625. Nothing new to
  // send: the probe is 4 again (client 146.4625, ACK at the server 166.4625), which reveals the hole at 3:
  // fast retransmit at 166.4625, client 187.6625.
  assert.equal(tailDone(4, [3, 4], { tlp: true }), 187.662); // 187.6625 in floating point, rounded
});

test('TLP: one tail segment lost — 2 SRTT + 200 ms is capped by the RTO unless PSH removes the delayed-ACK term', () => {
  // 3 is lost; the ACK at 42.4 leaves one in flight: PTO 42.4 + 80.8625 + 200 > RTO 242.4, so the RTO sends
  // it again at 242.4: client 263.6, as without TLP.
  assert.equal(tailDone(3, [3], {}), 263.6);
  assert.equal(tailDone(3, [3], { tlp: true }), 263.6);
  // With PSH (thesis §6.4.5) PTO = 42.4 + 80.8625 + 2 = 125.2625: the probe resends 3, client at
  // 125.2625 + 21.2 = 146.4625.
  assert.equal(tailDone(3, [3], { tlp: true, psh: true }), 146.462); // 146.4625, rounded
});

test('TLP with the thesis\' delayed ACKs: one segment in flight adds the 100 ms timeout (Algorithm 9), not 200 ms', () => {
  // icwnd 2, 3 segments, 3 lost. 1 and 2 reach the client at 21.2 and 22.4: one ACK (count 2) at the server
  // at 42.4 (SRTT 0.875 x 40 + 0.125 x 42.4 = 40.3, RTO 200), which sends 3. One in flight: PTO = 42.4 +
  // 2 x 40.3 + 100 = 223.0 < RTO 242.4: the probe resends 3, client 223.0 + 21.2 = 244.2. Linux's 200 ms
  // allowance would pass the RTO (242.4 -> client 263.6); PSH removes the term: 42.4 + 80.6 + 2 -> 146.2.
  assert.equal(tailDone(3, [3], { tlp: true, delayedAcks: THESIS_DELAYED_ACKS }), 244.2);
  assert.equal(tailDone(3, [3], { tlp: true, delayedAcks: LINUX_DELAYED_ACKS }), 263.6);
  assert.equal(tailDone(3, [3], { tlp: true, psh: true, delayedAcks: THESIS_DELAYED_ACKS }), 146.2);
});

test('receive window: no new segment past the acknowledged in-order point + rwnd', () => {
  // rwnd 4 segments, 10 to send, icwnd 21: segments 0-3 leave at 0, reach the client at 21.2-24.8, their
  // ACKs the server at 41.2-44.8; each ACK moves the window's left edge by one, so segment 4 leaves at
  // 41.2 (bottleneck 51.2, departs 52.4, client 62.4, ACK 82.4), 5 at 42.4 (-> 83.6), 6 (-> 84.8), 7 (-> 86);
  // 8 and 9 leave at 82.4 and 83.6 (-> 123.6, 124.8). Without the window all ten leave at 0 (41.2..52).
  assert.deepEqual(ackTimeline(false, 10, undefined, [], { rwndSegments: 4 }), [
    [41.2, 1], [42.4, 2], [43.6, 3], [44.8, 4], [82.4, 5], [83.6, 6], [84.8, 7], [86, 8], [123.6, 9], [124.8, 10],
  ]);
  assert.deepEqual(ackTimeline(false, 10).map(([t]) => t), Array.from({ length: 10 }, (_, i) => r(40 + 1.2 * (i + 1))));
});

test('receive window: a hole at its left edge holds new data back until the retransmission arrives', () => {
  // rwnd 4, 6 segments; the first packet (segment 0) is lost and takes no service: 1-3 depart at 11.2-13.6,
  // reach the client at 21.2-23.6 out of order (its in-order point stays 0), their ACKs the server at
  // 41.2-43.6. The first reveals the hole: 0 is resent at once (bottleneck 51.2, departs 52.4, client 62.4),
  // but the window's left edge stays at 0, so 4 and 5 wait until that ACK (upTo 4) reaches the server at
  // 82.4; they reach the client at 103.6 and 104.8 -> ACKs 123.6, 124.8.
  assert.deepEqual(ackTimeline(false, 6, undefined, [1], { rwndSegments: 4 }), [
    [41.2, 1], [42.4, 2], [43.6, 3], [82.4, 4], [123.6, 5], [124.8, 6],
  ]);
});

test("receive window growth (rwndGrowth, Linux 3.13's receiver): the window doubles per round trip once it binds", () => {
  // rwnd 4 at set-up, 24 segments, icwnd 21, no delayed ACKs. Round 1 as the fixed window's: 0-3 leave at 0 and
  // reach the client at 21.2-24.8; they echo no ACK's timestamp (sent before any): no receiver RTT sample. The
  // first in-order segment (0, 1 read) starts the measurement. 4-7 leave on the ACKs at 41.2-44.8, echoing the
  // ACKs the client sent at 21.2-24.8, and arrive at 62.4-66.0: samples 41.2. At 4's read (62.4, 41.2 ms on, the
  // estimate) 5 are read, 4 in the measurement: window_clamp 4 -> 2 x 4 = 8 (after 4's own growth step, which
  // the clamp 4 stopped). rcv_ssthresh then grows by 2 per in-order segment: 5 (63.6) -> 6, 6 (64.8) -> 8, the
  // clamp. The ACKs carry it: 82.4 (una 5, window 4: edge 9) sends 8; 83.6 (una 6, 6: edge 12) 9-11; 84.8 (una 7,
  // 8: edge 15) 12-14; 86.0 (una 8, 8) 15. Eight segments queue at the bottleneck from 92.4, reach the client at
  // 103.6 + 1.2k, ACKs 123.6-132.0, each moving the edge (window 8) by one: 16-23 leave one per ACK, ACKs
  // 164.8 + 1.2k. The measurement from 103.6 (9 read) ends at 18's read (147.2, past the estimate 42.5, raised by
  // round 3's queueing): 10 read, clamp 20. With the window fixed at 4 the same data takes six rounds (250.8).
  const acks = ackTimeline(false, 24, undefined, [], { rwndSegments: 4, rwndGrowth: true });
  const round = (t0: number, first: number, n: number): Array<[number, number]> => Array.from({ length: n }, (_, i) => [r(t0 + 1.2 * i), first + i]);
  assert.deepEqual(acks, [...round(41.2, 1, 4), ...round(82.4, 5, 4), ...round(123.6, 9, 8), ...round(164.8, 17, 8)]);
  const fixed = ackTimeline(false, 24, undefined, [], { rwndSegments: 4 });
  assert.deepEqual(fixed.at(-1), [250.8, 24]);
  // Without a window to start from there is nothing to grow: unlimited either way.
  assert.deepEqual(ackTimeline(false, 24, undefined, [], { rwndGrowth: true }), ackTimeline(false, 24));
});

test('receive window growth with delayed ACKs: a segment that raised the window is ACKed at once (icsk_ack.quick)', () => {
  // As above with Linux's delayed ACKs: segments 0-15 are quick-ACKed, so rounds 1-3 and the sends of round 4 are
  // the same. 16-23 reach the client at 144.8 + 1.2k with the quick ACKs used up. 16 waits (window 8 at its clamp),
  // 17 makes two: ACK -> 166.0; 18 waits (its read raises the clamp to 20 after its growth step); 19 raises the
  // window 8 -> 10 (and makes two) -> 168.4; 20, 21, 22, 23 each raise it by 2 and are ACKed alone at once ->
  // 169.6, 170.8, 172.0, 173.2. Without the rule 20 and 22 would wait for 21's and 23's ACKs.
  const acks = ackTimeline(true, 24, undefined, [], { rwndSegments: 4, rwndGrowth: true });
  assert.deepEqual(acks.slice(-6), [[166, 18], [168.4, 20], [169.6, 21], [170.8, 22], [172, 23], [173.2, 24]]);
  assert.deepEqual(acks.slice(0, 16), ackTimeline(false, 24, undefined, [], { rwndSegments: 4, rwndGrowth: true }).slice(0, 16));
});

/**
 * A re-ordering link (link-schedule.ts `reorder`): 10 Mbit/s in 20 ms slices, the first adding `delay` ms
 * one way, the rest none. Segment 0 leaves at 0 (bottleneck at 10, out at once on the bucket, + delay); five
 * more written at 15 leave then, reach the bottleneck at 25 in slice 1 (no delay): out at 25, 26.2, ... 29.8,
 * at the client 35-39.8, their ACKs at the server 55-59.8, each one more segment above the late segment 0.
 * The third (57.4) makes it lost at the reordering degree 3: resent at once (bottleneck 67.4, slice 3, no
 * delay: client 77.4), recovery, the window (grown 10 -> 11 by the first ACK) halved to 5.5.
 */
function lateSegment(delay: number, extra: Partial<NetContext>, reorder = true): { acks: Array<[number, number]>; conn: TcpConnection; stats: NetContext['stats'] } {
  const schedule = linkSchedule({ sliceMs: 20, reorder, slices: [{ rateBps: 10e6, delayMs: delay }, ...Array.from({ length: 49 }, () => ({ rateBps: 10e6 }))] });
  const stats = { retransmissions: 0, bytesDelivered: 0 };
  const link = new BottleneckLink(10e6, 40, 10, false, new Rng(1, 1), { schedule });
  const seen: { conn?: TcpConnection } = {};
  const acks = ackTimeline(false, 1, { at: 15, segments: 5 }, [], { link, icwnd: 10, stats, ...extra }, seen);
  return { acks, conn: seen.conn!, stats };
}

test('re-ordering, sack: a late segment is deemed lost at three SACKed above it; its original fills the hole first, and the cut is undone', () => {
  // Delay 50: the original reaches the client at 70, before its retransmission (77.4): the ACK at 90 covers
  // all six and echoes the original's time, older than the retransmission: the cut is undone (window 11 again),
  // the reordering seen (segment 0 acknowledged with 5 above it: 6) becomes the degree. The retransmission's
  // duplicate is ACKed at once (server 97.4).
  const { acks, conn, stats } = lateSegment(50, { sack: true });
  assert.deepEqual(acks, [[55, 1], [56.2, 2], [57.4, 3], [58.6, 4], [59.8, 5], [90, 6], [97.4, 6]]);
  assert.equal(stats.retransmissions, 1);
  assert.equal(conn.spuriousLosses, 1);
  assert.equal(conn.lateCuts, 1);
  assert.equal(conn.undoneCuts, 1);
  assert.equal(conn.dsackUndos, 0, "the retransmission's D-SACK (97.4) comes after the undo: nothing left to undo");
  assert.equal(conn.cwnd, 11);
  assert.equal(conn.ssthresh, Infinity);
});

test('re-ordering, sack: when the retransmission fills the hole first, the original\'s D-SACK undoes the cut', () => {
  // Delay 60: the original reaches the client at 80, after the retransmission (77.4, ACK at 97.4; the
  // original's duplicate ACK at 100). The ACK at 97.4 echoes the retransmission's time: no timestamp undo; it
  // covers all six, so the recovery ends with the window at 5.5. The duplicate's ACK carries a D-SACK for
  // segment 0, the episode's only retransmission (undo_retrans 1 -> 0): Linux 3.13's tcp_try_undo_dsack puts
  // the window back to 11 and the threshold to its value before the cut (none).
  const { acks, conn } = lateSegment(60, { sack: true });
  assert.deepEqual(acks, [[55, 1], [56.2, 2], [57.4, 3], [58.6, 4], [59.8, 5], [97.4, 6], [100, 6]]);
  assert.equal(conn.spuriousLosses, 1);
  assert.equal(conn.undoneCuts, 1);
  assert.equal(conn.dsackUndos, 1);
  assert.equal(conn.cwnd, 11);
  assert.equal(conn.ssthresh, Infinity);
});

test('re-ordering, sack: the D-SACK lost with its ACK (the seventh on the uplink), the cut stays', () => {
  const { acks, conn } = lateSegment(60, { sack: true, uplink: new LossyWire(new ListLoss([7])) });
  assert.deepEqual(acks, [[55, 1], [56.2, 2], [57.4, 3], [58.6, 4], [59.8, 5], [97.4, 6]]);
  assert.equal(conn.spuriousLosses, 1);
  assert.equal(conn.undoneCuts, 0);
  assert.equal(conn.cwnd, 5.5);
});

test('re-ordering, the NACK scheme: the late segment is NACKed at three above it, the cut stays', () => {
  const { acks, conn, stats } = lateSegment(50, {});
  assert.deepEqual(acks, [[55, 1], [56.2, 2], [57.4, 3], [58.6, 4], [59.8, 5], [90, 6], [97.4, 6]]);
  assert.equal(stats.retransmissions, 1);
  assert.equal(conn.undoneCuts, 0);
  assert.equal(conn.cwnd, 5.5);
});

test("re-ordering, sack, Linux 3.13's Trick#4: a receive-window-bound sender with the degree raised to 6 resends the hole at half its window SACKed, not at the RTO", () => {
  // lateSegment(50)'s first phase with a 6-segment receive window (never binding there): the degree is 6 after
  // the ACK at 90, the cut undone (window 11), everything ACKed by 97.4. At 200 eight more segments are written;
  // the receive window lets six go (6-11), the window (11) does not bind. Segment 6 (the link's 8th packet) is
  // lost; 7-11 reach the bottleneck at 210 (slice 10, no delay): out at 210, 211.2, ... 214.8, at the client
  // 220-224.8, their ACKs at the server 240-244.8. At 242.4 three of six outstanding are SACKed (max(6/2, 3)),
  // six do not exceed the degree, and nothing new may leave (the receive window is full): recovery, segment 6
  // again at once (bottleneck 252.4, client 262.4, its ACK at 282.4 covering 6-11), the window (grown 11 -> 12
  // by the SACK at 240: five in flight, 2 x 6 >= 11) halved to 6, and not grown after (the sender app-limited).
  // The recovery ends at 282.4; 12 and 13 leave (bottleneck 292.4, out 292.4 and 293.6, client 302.4, 303.6;
  // ACKs 322.4, 323.6). Before Trick#4 was modelled the five SACKs never reached the degree: the RTO found
  // segment 6 (armed at 200).
  const run = (): { acks: Array<[number, number]>; conn: TcpConnection; stats: NetContext['stats'] } => {
    const schedule = linkSchedule({ sliceMs: 20, reorder: true, slices: [{ rateBps: 10e6, delayMs: 50 }, ...Array.from({ length: 49 }, () => ({ rateBps: 10e6 }))] });
    const stats = { retransmissions: 0, bytesDelivered: 0 };
    const link = new BottleneckLink(10e6, 40, 10, false, new Rng(1, 1), { schedule, loss: new ListLoss([8]) });
    const seen: { conn?: TcpConnection } = {};
    const acks = ackTimeline(false, 1, [{ at: 15, segments: 5 }, { at: 200, segments: 8 }], [], { link, icwnd: 10, stats, sack: true, rwndSegments: 6 }, seen);
    return { acks, conn: seen.conn!, stats };
  };
  const { acks, conn, stats } = run();
  assert.deepEqual(acks.slice(7), [[240, 7], [241.2, 8], [242.4, 9], [243.6, 10], [244.8, 11], [282.4, 12], [322.4, 13], [323.6, 14]]);
  assert.equal(stats.retransmissions, 2, 'segment 0 (late, phase one) and segment 6');
  assert.equal(conn.timeouts, 0);
  assert.deepEqual([conn.cwnd, conn.ssthresh], [6, 6]);
});

test('the same link keeping order: the five wait behind segment 0 (all at the client at 70), nothing resent', () => {
  const { acks, stats } = lateSegment(50, { sack: true }, false);
  assert.deepEqual(acks, [[90, 1], [90, 2], [90, 3], [90, 4], [90, 5], [90, 6]]);
  assert.equal(stats.retransmissions, 0);
});

/** tailDone's load, returning the connection (its counters) as well; `icwnd` 2 unless given. */
function tailRun(segments: number, lose: number[], extra: Partial<NetContext>): { done: number; conn: TcpConnection } {
  let done = NaN;
  let got = 0;
  const seen: { conn?: TcpConnection } = {};
  ackTimeline(false, segments, undefined, lose, {
    icwnd: 2, ...extra,
    deliver: (_x, bytes, now) => {
      got += bytes;
      if (got === segments * MSS) done = r(now);
    },
  }, seen);
  return { done, conn: seen.conn! };
}

test('TLP with sack as Linux 3.13: 2 SRTT with no 2 ms term; the probe\'s SACK does not declare the hole below it', () => {
  // 3 and 4 lost (tailDone's timeline). At 42.4 two are outstanding: PTO = 2 x 40.43125 = 80.8625, at 123.2625.
  // No new data: 4 again (it refills that loss; client 144.4625, ACK at the server 164.4625). Without RACK the
  // SACK of 4 leaves 3 one short of three above it; the probe's ACK cuts the window (it repaired a loss) and
  // the RTO, re-armed when the probe left, fires at 323.2625: 3 again, client 344.4625. Later than with no
  // probe at all (the RTO at 242.4: 304.8), as 3.13 would be without early retransmit.
  const sack = tailRun(4, [3, 4], { sack: true, tlp: true });
  assert.equal(sack.done, 344.463); // 344.4625 in floating point, rounded
  assert.deepEqual([sack.conn.probes, sack.conn.probeCuts, sack.conn.timeouts], [1, 1, 1]);
  assert.equal(tailRun(4, [3, 4], { sack: true }).done, 304.8);
  // With early retransmit (on in 3.13): two outstanding, one SACKed, nothing to send: the probe's ACK at 164.4625
  // (an RTT sample of 41.2: SRTT 0.875 x 40.43125 + 0.125 x 41.2 = 40.527) resends 3 after SRTT / 4 = 10.132,
  // at 174.5944: client 195.7944.
  assert.equal(tailRun(4, [3, 4], { sack: true, tlp: true, earlyRetransmit: true }).done, 195.794);
});

test('TLP with sack as Linux 3.13: one outstanding, 1.5 SRTT + 200 ms comes after the RTO, so the probe goes in its place', () => {
  // 3 lost; at 42.4 one outstanding: max(2 SRTT, 1.5 SRTT + 200) = 260.65 from 42.4, later than the RTO at
  // 242.4: the probe is sent then instead. It resends 3 as the RTO would (client 263.6), but the sender takes
  // it as a tail-loss probe: its ACK cuts the window by half (here NewReno), no timeout, no collapse to 1.
  const tlp = tailRun(3, [3], { sack: true, tlp: true });
  assert.equal(tlp.done, 263.6);
  assert.deepEqual([tlp.conn.probes, tlp.conn.probeCuts, tlp.conn.timeouts], [1, 1, 0]);
  const rto = tailRun(3, [3], { sack: true });
  assert.equal(rto.done, 263.6);
  assert.deepEqual([rto.conn.probes, rto.conn.timeouts], [0, 1]);
});

test('TLP with sack as Linux 3.13: no probe while segments above a hole are SACKed (the disorder state)', () => {
  // icwnd 10, five segments, the third (2) lost: 0, 1, 3, 4 reach the client at 21.2-24.8, ACKs at 41.2-44.8.
  // At 42.4 a probe is due at 42.4 + 80.8625; the SACK of 3 at 43.6 puts the sender in disorder (2 SACKed
  // above the hole by 44.8, one short of three): the probe is taken back, and the RTO from 42.4 fires at
  // 242.4: 2 again, client 263.6.
  const { done, conn } = tailRun(5, [3], { sack: true, tlp: true, icwnd: 10 });
  assert.equal(done, 263.6);
  assert.deepEqual([conn.probes, conn.timeouts], [0, 1]);
});

test('re-ordering, sack: a late segment\'s lost retransmission, queued to resend, leaves the pipe once when the original is ACKed', () => {
  // 5 ms slices, slice 2 (10-15) adding 240 ms: segment 0 (bottleneck at 10) reaches the client at 260. Segments
  // 1-6 leave at 15 (bottleneck 25-31, client 35-41); 6 is lost (the link's 7th packet). The ACKs of 1-5 reach
  // the server at 55-59.8: at 57.4 three are above segment 0, which is deemed lost (late) and resent — and that
  // retransmission (the 8th packet) is lost too. Nothing above it acknowledged after it, so the RTO (200 ms from
  // 57.4) finds both losses at 257.4: the window collapses to 1, segment 6 goes again (client 277.4, ACK 297.4)
  // and segment 0 waits in the queue, out of the pipe. Its original arrives at 260 (ACK at 280, covering 0-5):
  // acknowledged while queued, it must not leave the pipe a second time (issue 17: the pipe read 0 with segment
  // 6 in flight, then -1; with a lost tail at 0 the sender armed no timer and stalled). Segment 6's ACK: 297.4.
  const schedule = linkSchedule({ sliceMs: 5, reorder: true, slices: Array.from({ length: 400 }, (_, k) => ({ rateBps: 10e6, delayMs: k === 2 ? 240 : 0 })) });
  const stats = { retransmissions: 0, bytesDelivered: 0 };
  const link = new BottleneckLink(10e6, 40, 10, false, new Rng(1, 1), { schedule, loss: new ListLoss([7, 8]) });
  const seen: { conn?: TcpConnection } = {};
  const acks = ackTimeline(false, 1, { at: 15, segments: 6 }, [], { link, icwnd: 10, stats, sack: true }, seen);
  const conn = seen.conn!;
  assert.deepEqual(acks, [[55, 1], [56.2, 2], [57.4, 3], [58.6, 4], [59.8, 5], [280, 6], [297.4, 7]]);
  assert.equal(stats.retransmissions, 2, 'segment 0 once (lost), segment 6 once; segment 0 never again');
  assert.equal(stats.bytesDelivered, 7 * MSS);
  assert.equal(conn.pipe, 0, 'everything acknowledged: nothing in flight');
});

test("a segment reaches its connection and exchange through its pooled log, and a recycled log holds nothing of the run", () => {
  // Two responses on one connection (3 and 2 segments, the second's last one short): 5 segments at 0 in the
  // initial window, arriving at 20 + 1.2k (k = 1..5) as the file comment derives; each delivered with its own exchange.
  const q = new EventQueue();
  const delivered: Array<[number, number, number]> = [];
  const ctx: NetContext = {
    q, arrivalLane: q.addLane(), ackLane: () => q.addLane(), link: new BottleneckLink(10e6, 40, 10, false, new Rng(1, 1)), dS: 10, dC: 10, icwnd: 21, cubic: false,
    stats: { retransmissions: 0, bytesDelivered: 0 }, deliver: (x, bytes, now, s) => {
      assert.equal(s.x, x);
      delivered.push([x.node, bytes, r(now)]);
    },
  };
  const buffer = new SendBuffer(false, false);
  const conn = new TcpConnection(ctx, 20, false, buffer);
  const a = { ...exchange(3 * MSS), node: 1 };
  const b = { ...exchange(2 * MSS - 100), node: 2 };
  buffer.push(a);
  buffer.push(b);
  conn.kick(0);
  const segments: Segment[] = [];
  for (let ev = q.pop(); ev; ev = q.pop()) {
    const s = ev.a as Segment;
    if (ev.kind === EV_SEGMENT_ARRIVES) {
      assert.equal(s.conn, conn);
      segments.push(s);
      conn.onSegmentArrives(s, ev.t);
    } else if (ev.kind === EV_ACK_ARRIVES) {
      assert.equal(s.conn, conn);
      conn.onAck(s, ev.t, ev.b);
    } else if (ev.kind === EV_RTO) conn.onRto(ev.b, ev.t); // the timer after the last ACK: nothing in flight
  }
  assert.deepEqual(delivered, [[1, MSS, 21.2], [1, MSS, 22.4], [1, MSS, 23.6], [2, MSS, 24.8], [2, MSS - 100, 25.92]]);
  assert.deepEqual(segments.map((s) => s.x.node), [1, 1, 1, 2, 2]);
  conn.recycle();
  assert.deepEqual(segments.map((s) => [s.conn, (s as unknown as { log: { xs: unknown[] } }).log.xs.slice(0, 2)]), segments.map(() => [null, [null, null]]));
});
