/**
 * Hand-derived timelines for issue 17's link mechanisms: lost handshakes, requests, data and ACKs; link
 * traces; h2-aware domain sharding. Same arithmetic as simulator.test.ts (10 Mbit/s, 40 ms, droptail):
 * a full packet takes 1.2 ms on the bottleneck; server->bottleneck 10 ms, bottleneck->client 10 ms,
 * client->server 20 ms. One 10-segment response with server delay 0: established at 40, request at the
 * server at 60, its segments reach the bottleneck at 70, segment k departs 70 + 1.2k, reaches the client
 * at 80 + 1.2k, its ACK reaches the server at 100 + 1.2k; the load ends at 92.
 * Loss models `list` lose exactly the listed packets of one direction, counted from 1 in the order they meet
 * the model: on the downlink the SYN/ACK is #1 (then TLS flights), then data segments in sending order;
 * on the uplink the SYN is #1 (then TLS flights), then the request, then ACKs.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PageBuilder } from '@pcp/graph-builder/testing';
import { simulateChecked, timingOf } from './testing/check.ts';
import type { EmulatorConfig } from './config.ts';
import { traceFromTimes } from './network/link-trace.ts';
import { linkSchedule } from './network/link-schedule.ts';

const MSS = 1448;
const base: EmulatorConfig = { bandwidthBps: 10e6, rttMs: 40, protocol: 'h1', icwnd: 10, queue: 'droptail' };
const close = (actual: number, expected: number, what: string): void =>
  assert.ok(Math.abs(actual - expected) < 1e-6, `${what}: expected ${expected}, got ${actual}`);
const page = new PageBuilder().resource('r', 'http://a.com/x', 10 * MSS, { serverDelay: 0 }).edge('r', 'load').build();
const lose = (down: number[], up: number[]): EmulatorConfig => ({
  ...base,
  lossModel: { kind: 'list', packets: down },
  uplinkLossModel: { kind: 'list', packets: up },
});

test('no loss listed: the lossy machinery leaves the lossless timeline alone', () => {
  const r = simulateChecked(page, lose([], []));
  close(r.loadTime, 92, 'load');
  assert.equal(r.losses, 0);
  assert.equal(r.retransmissions, 0);
});

test('a lost SYN/ACK or SYN: the client retries the SYN after the initial RTO of 1 s', () => {
  // SYN at 0; its SYN/ACK lost; SYN again at 1000, established at 1040: everything shifts by 1000.
  for (const cfg of [lose([1], []), lose([], [1])]) {
    const r = simulateChecked(page, cfg);
    close(timingOf(r, 'r').handshake, 1040, 'handshake');
    close(r.loadTime, 1092, 'load');
    assert.equal(r.losses, 1);
  }
  // Both the first SYN/ACK and the second SYN: backoff doubles the wait, 1 s then 2 s: established at 3040.
  const twice = simulateChecked(page, lose([1], [2]));
  close(timingOf(twice, 'r').handshake, 3040, 'handshake after two losses');
  close(twice.loadTime, 3092, 'load');
});

test('a lost TLS flight waits for the RTO of the handshake RTT sample (max(200 ms, 3 RTT))', () => {
  // tlsRtts 1: SYN/ACK (#1) arrives at 40; the server's TLS flight (#2) is lost; the client's RTO
  // max(200, 120) = 200 later the flight is repeated: established at 40 + 200 + 40 = 280; request at the
  // server 300, data reaches the client at 300 + 32 = 332.
  const r = simulateChecked(page, { ...lose([2], []), tlsRtts: 1 });
  close(timingOf(r, 'r').handshake, 280, 'handshake');
  close(r.loadTime, 332, 'load');
});

test('a lost request is resent after the client RTO (200 ms)', () => {
  // Uplink: SYN #1, request #2 lost at 40, resent at 240, at the server at 260, data at the client at 292.
  const r = simulateChecked(page, lose([], [2]));
  close(timingOf(r, 'r').request, 220, 'request trip');
  close(r.loadTime, 292, 'load');
  assert.equal(r.retransmissions, 1);
});

test('a lost segment in the middle: fast retransmit on the next ACK, whatever the window', () => {
  // Downlink #6 = segment 5, lost without taking service: segments 6..10 depart at 70 + 1.2(k-1).
  // Segment 6 departs 76.0, reaches the client 86.0; its ACK at the server at 106.0 shows the hole: segment
  // 5 goes again at once, reaches the idle bottleneck at 116.0, departs 117.2, reaches the client at 127.2,
  // which delivers 5..10 together.
  const r = simulateChecked(page, lose([6], []));
  close(r.loadTime, 127.2, 'load');
  assert.equal(r.retransmissions, 1);
  assert.equal(r.losses, 1);
  assert.equal(r.drops, 0);
});

test('a lost tail segment waits for the RTO (min 200 ms)', () => {
  // Downlink #11 = segment 10. Segment 9's ACK reaches the server at 110.8 and re-arms the RTO: with SRTT
  // about 41-51 ms and RTTVAR at most 20.6, SRTT + 4 RTTVAR < 200, so RTO = 200: it fires at 310.8,
  // segment 10 goes again, departs the bottleneck at 322.0, reaches the client at 332.0.
  const r = simulateChecked(page, lose([11], []));
  close(r.loadTime, 332, 'load');
  assert.equal(r.retransmissions, 1);
});

test("Linux's RTO (linuxRto): SRTT + max(4 RTTVAR, 200 ms), for the client's timeouts and the server's", () => {
  const linux = (down: number[], up: number[]): EmulatorConfig => ({ ...lose(down, up), linuxRto: true });
  // The client's RTO after the handshake's sample (40): 40 + max(4 x 20, 200) = 240 (RFC 6298: 200).
  // A lost TLS flight: repeated at 40 + 240, established at 320; request at the server 340, load 372.
  const tls = simulateChecked(page, { ...linux([2], []), tlsRtts: 1 });
  close(timingOf(tls, 'r').handshake, 320, 'TLS flight after 240');
  close(tls.loadTime, 372, 'load after the lost TLS flight');
  // A lost request: sent at 40, again at 280, at the server 300, data at the client 332.
  close(simulateChecked(page, linux([], [2])).loadTime, 332, 'load after the lost request');
  // A lost tail segment (segment 10): the ACK of 9 re-arms the RTO at 110.8. RTT samples: 40 (handshake), then
  // 40 + 1.2k for segments k = 1..9 (sent at 60, ACKed at 100 + 1.2k); 4 RTTVAR stays below 200 (RTTVAR <= 20.6),
  // so RTO = SRTT + 200 (RFC 6298: 200): segment 10 again at 110.8 + SRTT + 200, at the client 21.2 later.
  let srtt = 40;
  for (let k = 1; k <= 9; k++) srtt = 0.875 * srtt + 0.125 * (40 + 1.2 * k);
  const tail = simulateChecked(page, linux([11], []));
  close(tail.loadTime, 110.8 + srtt + 200 + 21.2, 'load after the lost tail segment');
  assert.equal(tail.retransmissions, 1);
});

/**
 * Segments 9 and 10 lost (downlink #10, #11). Each segment left at 60; the ACKs of 1..8 reach the server at
 * 100 + 1.2k, RTT samples 40 + 1.2k after the handshake's 40: SRTT after the eighth is 44.0863 (RTO 200).
 */
const TAIL_PTO = 109.6 + 2 * 44.08631489276886 + 2;
test('two lost tail segments: the RTO, or with --tlp a probe after 2 SRTT + 2 ms', () => {
  // Without TLP: the RTO fires at 109.6 + 200 = 309.6, segment 9 goes with cwnd 1 (client 330.8, ACK at
  // the server 350.8), then segment 10: client 372.0.
  close(simulateChecked(page, lose([10, 11], [])).loadTime, 372, 'RTO');
  // TLP: the ACK at 109.6 leaves two in flight, PTO = 109.6 + 2 SRTT + 2 = 199.773: the probe is segment 10
  // again (client PTO + 21.2, its ACK at the server PTO + 41.2 reveals the hole at 9: fast retransmit,
  // client PTO + 62.4 = 262.173).
  const tlp = simulateChecked(page, { ...lose([10, 11], []), tlp: true });
  close(tlp.loadTime, TAIL_PTO + 62.4, 'TLP');
  assert.equal(tlp.retransmissions, 2);
});

test('a lost ACK in the middle is covered by the next cumulative ACK; the last one costs a spurious RTO', () => {
  // Uplink: SYN #1, request #2, ACKs of segments 1..10 are #3..#12.
  const mid = simulateChecked(page, lose([], [5]));
  close(mid.loadTime, 92, 'load');
  assert.equal(mid.retransmissions, 0);
  // The last ACK lost: the page has all its bytes at 92 (load unchanged), but the server, hearing nothing,
  // times out at 110.8 + 200 = 310.8 and resends segment 10, whose duplicate the client ACKs at once.
  const last = simulateChecked(page, lose([], [12]));
  close(last.loadTime, 92, 'load');
  assert.equal(last.retransmissions, 1);
  assert.equal(last.losses, 1);
});

test('random loss: seeded and reproducible; more loss, longer loads on average', () => {
  const g = new PageBuilder().resource('r', 'http://a.com/x', 200 * MSS, { serverDelay: 0 }).edge('r', 'load').build();
  const mean = (cfg: EmulatorConfig): number => {
    let s = 0;
    for (let seed = 1; seed <= 20; seed++) s += simulateChecked(g, { ...cfg, seed }).loadTime;
    return s / 20;
  };
  const lossless = simulateChecked(g, base).loadTime;
  const bern = mean({ ...base, lossRate: 0.02 });
  const gilbert = mean({ ...base, lossModel: 'gilbert:0.01,0.3,0,0.5' });
  assert.ok(bern > lossless, `2% loss (${bern}) slower than none (${lossless})`);
  assert.ok(gilbert > lossless, `bursty loss (${gilbert}) slower than none (${lossless})`);
  const a = simulateChecked(g, { ...base, lossRate: 0.02, seed: 7 });
  assert.ok(a.losses > 0, 'some packets lost at 2% over ~220 packets each way');
});

test('a constant 12 Mbit/s trace (one 1500-byte opportunity per ms) serves a packet per whole ms', () => {
  // Segments reach the bottleneck at 70; opportunities at 70, 71, ...: segment k departs at 69 + k,
  // reaches the client at 79 + k; the tenth at 89.
  const r = simulateChecked(page, { ...base, downlinkTrace: traceFromTimes([1]) });
  close(r.loadTime, 89, 'load');
  // An opportunity every 2 ms from 2: arrival 70 -> departures 70, 72, ..., 88 -> the client at 98.
  close(simulateChecked(page, { ...base, downlinkTrace: traceFromTimes([2]) }).loadTime, 98, 'half the rate');
});

test('a traced uplink carries the request and ACKs: one opportunity every 7 ms delays the request', () => {
  // Uplink opportunities at 7, 14, ..., 42: the request sent at 40 leaves at 42, reaches the server at 62,
  // and the data reaches the client 2 ms later than without the trace: 94.
  const r = simulateChecked(page, { ...base, uplinkTrace: traceFromTimes([7]) });
  close(timingOf(r, 'r').request, 22, 'request waits for the uplink opportunity at 42');
  close(r.loadTime, 94, 'load');
});

test('h2-aware sharding: a large response gets its own connection and stops queueing behind small ones', () => {
  const g = new PageBuilder()
    .resource('a', 'http://a.com/a', MSS, { serverDelay: 0 })
    .resource('b', 'http://a.com/b', 10 * MSS, { serverDelay: 0 })
    .edge('a', 'load').edge('b', 'load').build();
  // One connection: at 60 a's segment and 9 of b's fill cwnd 10; a departs 71.2; b's 9 depart 72.4 .. 82.0;
  // b's tenth leaves on a's ACK (at the server at 101.2), departs 112.4 and reaches the client at 122.4.
  const one = simulateChecked(g, { ...base, protocol: 'h2' });
  close(timingOf(one, 'b').end, 122.4, 'b, one connection');
  assert.equal(one.connections, 1);
  // Sharded (> 2 segments): b on a second connection, with its own window of 10: all its segments leave at
  // 60 behind a's one: they depart 72.4 .. 83.2, the last reaches the client at 93.2.
  const sharded = simulateChecked(g, { ...base, protocol: 'h2', shardLarge: 2 * MSS });
  close(timingOf(sharded, 'a').end, 81.2, 'a');
  close(timingOf(sharded, 'b').end, 93.2, 'b, its own connection');
  assert.equal(sharded.connections, 2);
  // Three large responses: over one shard connection, over two (round-robin), or one each (Goel's Type B).
  const three = new PageBuilder()
    .resource('a', 'http://a.com/a', MSS, { serverDelay: 0 })
    .resource('b', 'http://a.com/b', 10 * MSS, { serverDelay: 0 })
    .resource('c', 'http://a.com/c', 10 * MSS, { serverDelay: 0 })
    .resource('d', 'http://a.com/d', 10 * MSS, { serverDelay: 0 })
    .edge('a', 'load').edge('b', 'load').edge('c', 'load').edge('d', 'load').build();
  const h2 = { ...base, protocol: 'h2' as const, shardLarge: 2 * MSS };
  assert.equal(simulateChecked(three, h2).connections, 2);
  assert.equal(simulateChecked(three, { ...h2, shardConnections: 2 }).connections, 3);
  assert.equal(simulateChecked(three, { ...h2, shardConnections: 0 }).connections, 4);
  // Goel's Types A and C (shardOverflow 'main'): the first k large responses one connection each, the rest
  // stay with the small ones: one isolated of three is 2 connections, two of three 3, not 4.
  assert.equal(simulateChecked(three, { ...h2, shardOverflow: 'main' }).connections, 2);
  assert.equal(simulateChecked(three, { ...h2, shardConnections: 2, shardOverflow: 'main' }).connections, 3);
  // HTTP/1.1 is not affected (it has its own connections per host already).
  assert.equal(simulateChecked(g, { ...base, shardLarge: 2 * MSS }).connections, 2);
});

/** Responses of the given segments from a.com, each ending the load; after `document` (the graph's root) if named. */
function responses(segments: Record<string, number>, document?: [string, number]): ReturnType<PageBuilder['build']> {
  const b = new PageBuilder();
  if (document) b.resource(document[0], 'http://a.com/', document[1] * MSS, { serverDelay: 0 }).root(document[0]);
  for (const [id, n] of Object.entries(segments)) {
    b.resource(id, `http://a.com/${id}`, n * MSS, { serverDelay: 0 }).edge(id, 'load');
    if (document) b.edge(document[0], id);
  }
  return b.build();
}

test("Goel's Type A/C sharding: the first large response isolated, the next stays on the first connection", () => {
  const g = responses({ a: 1, b: 10, c: 10 });
  // b on a connection of its own, c with a. At 60 the first connection sends a and 9 of c's segments (cwnd
  // 10): they depart 71.2, 72.4 .. 82.0; b's connection sends its 10 at 60 behind them: they depart 83.2 ..
  // 94.0, the last reaches the client at 104.0. c's tenth leaves on a's ACK (at the server at 101.2), departs
  // 112.4 (the queue is empty by then) and reaches the client at 122.4.
  const r = simulateChecked(g, { ...base, protocol: 'h2', shardLarge: 2 * MSS, shardOverflow: 'main' });
  assert.equal(r.connections, 2);
  close(timingOf(r, 'a').end, 81.2, 'a');
  close(timingOf(r, 'b').end, 104, 'b, isolated');
  close(timingOf(r, 'c').end, 122.4, 'c, on the first connection');
});

test('h2-aware sharding never moves the page document, however large: it keeps the first connection', () => {
  const g = responses({ a: 1, b: 10, c: 10 }, ['d', 10]);
  // d (the document, above the threshold) on the first connection: done at 92. a reuses it: at the server at
  // 112, departs 123.2, reaches the client at 133.2. b and c each open a connection at 92: established 132,
  // at the server 152; b's 10 segments depart 163.2 .. 174.0 (client 184.0), c's behind them 175.2 .. 186.0
  // (client 196.0). Had d been sharded, a would have opened the first connection at 92 too.
  const r = simulateChecked(g, { ...base, protocol: 'h2', shardLarge: 2 * MSS, shardConnections: 0 });
  assert.equal(r.connections, 3);
  close(timingOf(r, 'd').end, 92, 'd');
  close(timingOf(r, 'a').end, 133.2, 'a, on the document connection');
  close(timingOf(r, 'b').end, 184, 'b');
  close(timingOf(r, 'c').end, 196, 'c');
});

/**
 * A link schedule (Goel's bridge) on both directions; rttMs 40 stays the base path. Nothing is lost (the
 * slices' loss is 0), so the handshake takes 40 and the request (500 B, on the uplink's full bucket) reaches
 * the server at 60; the ten segments reach the bottleneck at 70.
 */
const scheduled = (slices: Array<{ rateBps: number; delayMs?: number }>, sliceMs: number, burstBytes = 0, queuePackets?: number): EmulatorConfig => ({
  ...base,
  linkSchedule: linkSchedule({ sliceMs, burstBytes, slices, queuePackets }),
});

test('a link schedule at a constant 12 Mbit/s serves a packet per ms, as the trace does', () => {
  // The one-packet bucket sends segment 1 at 70, then 1500 B/ms: segment k departs 69 + k, the tenth reaches the client at 89.
  const r = simulateChecked(page, scheduled([{ rateBps: 12e6 }], 100));
  close(timingOf(r, 'r').request, 20, 'request');
  close(r.loadTime, 89, 'load');
});

test("a link schedule's burst, refilled at each slice start (tc's tbf change), carries a window at once", () => {
  // No rate at all, 15,000 B (ten packets) per 50 ms slice: the ten segments leave at 70 and reach the client at 80.
  close(simulateChecked(page, scheduled([{ rateBps: 0 }], 50, 15_000)).loadTime, 80, 'ten packets per refill');
  // 6,000 B per refill, a 20-packet queue: four at 70, four at the refill at 100, two at 150; the last reaches
  // the client at 160.
  close(simulateChecked(page, scheduled([{ rateBps: 0 }], 50, 6_000, 20)).loadTime, 160, 'four packets per refill');
  // The queue sized from the mean capacity (6,000 B per 50 ms = 0.96 Mbit/s: 1.5 BDP = 5 packets) drops the
  // tenth, which a late RTO repairs.
  const small = simulateChecked(page, scheduled([{ rateBps: 0 }], 50, 6_000));
  assert.equal(small.drops, 1);
  assert.ok(small.loadTime > 160);
});

test("a link schedule's extra delay applies by the slice a packet enters in", () => {
  // Slices of 50 ms, extra one-way delay 0 in even slices, 25 ms in odd ones. The SYN (0), its SYN/ACK and the
  // request (40) enter in slice 0; the segments enter the bottleneck at 70 (slice 1): the tenth departs at 79
  // and reaches the client 25 ms later than without the delay, at 114.
  const r = simulateChecked(page, scheduled([{ rateBps: 12e6, delayMs: 0 }, { rateBps: 12e6, delayMs: 25 }], 50));
  close(timingOf(r, 'r').handshake, 40, 'handshake');
  close(r.loadTime, 114, 'load');
});

test("Goel's per-slice retransmission counts: the retransmission lands in the slice after the first flight", () => {
  // The connection's SYN reaches the server at 20: slices of 50 ms from 20. The request reaches the server at
  // 60 (slice 0) and segments 1-10 leave then; segment 5 is lost. ACKs reach the server at 100 + 1.2k for
  // segments 1-4 (101.2-104.8) and 100 + 1.2(k-1) for 6-10 (106.0-110.8; each at once, out of order): nine in
  // slice 1 [70, 120). Segment 5 goes again at 106.0 (slice 1), reaches the client at 127.2; its ACK reaches
  // the server at 147.2 (slice 2). Goel's exchanged segments in slice 1: 1 sent + 9 received, 1 retransmitted.
  const r = simulateChecked(page, { ...lose([6], []), retransmissionSliceMs: 50 });
  close(r.loadTime, 127.2, 'load as without counting');
  assert.deepEqual(r.retransmissionSlices, [{ sent: [10, 1, 0], retransmitted: [0, 1, 0], received: [1, 9, 1] }]);
  assert.equal(simulateChecked(page, lose([6], [])).retransmissionSlices, undefined);
});

test("netemPair (3.13's netem/tbf pair, event-driven): the closed form's timeline at a constant rate; tbf's byte limit drops at the hand-over", () => {
  // No delay: each segment is handed to tbf as it enters at 70. The one-packet bucket lets segment 1 out at 70,
  // segment 2 is short, tbf's watchdog at 71 (netem not throttled: its line is empty), and so on: segment k departs
  // at 69 + k, the tenth reaches the client at 89, as the closed form has it.
  const pair = (queueBytes?: number): EmulatorConfig => ({ ...base, linkSchedule: linkSchedule({ sliceMs: 100, slices: [{ rateBps: 12e6 }], netemPair: true, queueBytes }) });
  close(simulateChecked(page, pair()).loadTime, 89, 'load');
  // A 6,000-byte FIFO: segment 1 leaves on the bucket, 2-5 wait (6,000 bytes), 6-10 are dropped as netem hands them
  // on; the sender learns of them by the link's callback and repairs them (the checked run: every byte once).
  const r = simulateChecked(page, pair(6000));
  assert.equal(r.drops, 5);
  assert.ok(r.loadTime > 89);
});

test('a link schedule carries its own rate and loss: loss options beside it are refused', () => {
  const cfg = { ...scheduled([{ rateBps: 12e6 }], 100), lossRate: 0.01 };
  assert.throws(() => simulateChecked(page, cfg), /linkSchedule carries its own rate and loss/);
});

test('F-RTO: the timeout that lost ACKs caused is found spurious by the next ACK and its window cut undone', () => {
  // r as before, its last ACK (uplink #12) lost; then r2 (10 segments, server delay 300) on the same
  // connection: its request (#13) leaves at 92, reaches the server at 112, its response is ready at 412.
  // The server times out at 110.8 + 200 = 310.8 and resends 10 (cwnd 1, ssthresh 9.5); the client ACKs the
  // duplicate, at the server at 352.0 (cwnd 2). Without F-RTO r2 leaves in slow start from 2: 2 segments at
  // 412, 2 + 2 on their ACKs at 453.2 and 454.4, 2 + 2 at 494.4 and 495.6; the last departs the bottleneck at
  // 509.2, client 519.2. With F-RTO that ACK, covering segments never sent again, restores cwnd 19: all ten
  // leave at 412, depart 423.2 .. 434.0, client 444.0.
  const g = new PageBuilder()
    .resource('r', 'http://a.com/x', 10 * MSS, { serverDelay: 0 })
    .resource('r2', 'http://a.com/y', 10 * MSS, { serverDelay: 300 })
    .edge('r', 'r2').edge('r2', 'load').build();
  const cfg = lose([], [12]);
  const plain = simulateChecked(g, cfg);
  close(timingOf(plain, 'r2').end, 519.2, 'r2 without F-RTO');
  assert.equal(plain.connections, 1);
  close(timingOf(simulateChecked(g, { ...cfg, frto: true }), 'r2').end, 444, 'r2 with F-RTO');
});
