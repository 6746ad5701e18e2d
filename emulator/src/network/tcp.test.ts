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
import { BottleneckLink, MSS } from './bottleneck.ts';
import { ListLoss } from './loss-model.ts';
import { TcpConnection, type NetContext, type Segment } from './tcp.ts';

function exchange(bytes: number): Exchange {
  return { node: 0, bytes, sent: 0, received: 0, prio: 0, order: 0, serverDelay: 0, tIssue: 0, tSent: 0, tAtServer: 0, tReady: 0, tFirstByte: NaN, tEnd: NaN, handshake: 0, conn: null };
}

/** Sends `segments` full segments at 0 (and `later` more at `laterAt`); returns the ACKs' arrivals at the server. */
function ackTimeline(delayedAcks: boolean, segments: number, later?: { at: number; segments: number }, losePackets: number[] = []): Array<[number, number]> {
  const q = new EventQueue();
  const link = new BottleneckLink(10e6, 40, 10, false, new Rng(1, 1), { loss: new ListLoss(losePackets) });
  const ctx: NetContext = {
    q, arrivalLane: q.addLane(), ackLane: () => q.addLane(), link, dS: 10, dC: 10, icwnd: 21, cubic: false,
    stats: { retransmissions: 0, bytesDelivered: 0 }, delayedAcks, deliver: () => {},
  };
  const buffer = new SendBuffer(false, false);
  const conn = new TcpConnection(ctx, 20, false, buffer);
  buffer.push(exchange(segments * MSS));
  conn.kick(0);
  const acks: Array<[number, number]> = [];
  const EV_MORE_DATA = -1; // this test's own event: the application writes more
  if (later) q.schedule(later.at, EV_MORE_DATA);
  for (let ev = q.pop(); ev; ev = q.pop()) {
    if (ev.kind === EV_MORE_DATA) {
      buffer.push(exchange(later!.segments * MSS));
      conn.kick(ev.t);
    } else if (ev.kind === EV_SEGMENT_ARRIVES) conn.onSegmentArrives(ev.a as Segment, ev.t);
    else if (ev.kind === EV_ACK_ARRIVES) {
      acks.push([Math.round(ev.t * 1000) / 1000, ev.b]);
      conn.onAck(ev.a as Segment, ev.t, ev.b);
    } else if (ev.kind === EV_RTO) conn.onRto(ev.b, ev.t);
    else if (ev.kind === EV_DELACK) conn.onDelayedAck(ev.b, ev.t);
    q.release(ev);
  }
  conn.recycle();
  return acks;
}

const r = (x: number): number => Math.round(x * 1000) / 1000;

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
