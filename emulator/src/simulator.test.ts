/**
 * Hand-derived timelines. Shared arithmetic for 10 Mbit/s and 40 ms RTT:
 * - a full packet is 1448 payload + 52 header = 1500 bytes = 12000 bits -> 1.2 ms on the bottleneck;
 * - one-way paths: server->bottleneck 10 ms (RTT/4), bottleneck->client 10 ms, client->server 20 ms (RTT/2);
 * - TCP handshake = 1 RTT = 40 ms; the request rides with the final ACK and reaches the server 20 ms later;
 * - BDP = 10e6/8 * 0.04 / 1500 = 33.3 packets, queue max 1.5 BDP = 50 packets: no test below fills it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PageBuilder } from '@pcp/graph-builder/testing';
import { simulateChecked, timingOf } from './testing/check.ts';
import type { EmulatorConfig } from './config.ts';
import type { ResourceTiming } from './simulator.ts';
import { networkRead, releaseHop } from './page-model.ts';

const MSS = 1448;
const base: EmulatorConfig = { bandwidthBps: 10e6, rttMs: 40, protocol: 'h1', icwnd: 10, queue: 'droptail' };
const close = (actual: number, expected: number, what: string): void =>
  assert.ok(Math.abs(actual - expected) < 1e-6, `${what}: expected ${expected}, got ${actual}`);
/** Each listed phase of a resource's timing, to 1e-6 ms. */
const phases = (t: ResourceTiming, expected: Partial<Record<keyof ResourceTiming, number>>): void => {
  for (const [k, v] of Object.entries(expected)) close(t[k as keyof ResourceTiming] as number, v, k);
};

test('one resource over one connection: handshake + request + server delay + two slow-start rounds', () => {
  // 30 full segments, server delay 5 ms, icwnd 10.
  const g = new PageBuilder().resource('r', 'http://a.com/x', 30 * MSS, { serverDelay: 5 }).edge('r', 'load').edge('r', 'dcl').build();
  const r = simulateChecked(g, base);
  // t=0 SYN, 40 established + request sent, 60 at server, 65 response ready: segments 1-10 leave.
  // Round 1: they reach the bottleneck at 75; segment k departs 75 + 1.2k, reaches the client at 85 + 1.2k,
  // its ACK reaches the server at 105 + 1.2k. Each ACK grows cwnd by one and frees one slot: 2 new segments.
  // Round 2: ACK k (at 105 + 1.2k) sends segments 9+2k and 10+2k, at the bottleneck at 115 + 1.2k. Two arrive
  // per 1.2 ms while one leaves, so the link stays busy from the first pair (116.2): segment 10+m departs at
  // 116.2 + 1.2m; segment 30 (m=20) departs at 140.2 and reaches the client at 150.2.
  phases(timingOf(r, 'r'), { handshake: 40, request: 20, serverDelay: 5, serverBuffer: 0, transfer: 150.2 - 65, end: 150.2 });
  close(r.loadTime, 150.2, 'load');
  assert.equal(r.drops, 0);
  assert.equal(r.packets, 30);
});

test('one resource: icwnd 1 needs more rounds (1, 2, 4, 8, ... segments)', () => {
  const g = new PageBuilder().resource('r', 'http://a.com/x', 3 * MSS, { serverDelay: 0 }).edge('r', 'load').build();
  const r = simulateChecked(g, { ...base, icwnd: 1 });
  // 60: segment 1 leaves; bottleneck 70, departs 71.2, client 81.2, ACK at server 101.2 -> cwnd 2, segments
  // 2 and 3 leave, bottleneck at 111.2: departures 112.4 and 113.6; segment 3 reaches the client at 123.6.
  close(r.loadTime, 123.6, 'load');
});

test('two resources: HTTP/1.1 opens two connections, HTTP/2 serialises them on one', () => {
  const g = new PageBuilder()
    .resource('a', 'http://a.com/a', 10 * MSS, { serverDelay: 0 })
    .resource('b', 'http://a.com/b', 10 * MSS, { serverDelay: 0 })
    .edge('a', 'load').edge('b', 'load').build();
  // HTTP/1.1: two connections, both established at 40, both requests at the server at 60, both responses
  // (10 segments each, icwnd 10) leave at 60 and reach the bottleneck at 70 together: packet k departs at
  // 70 + 1.2k, a's 10th at 82 (client 92), b's 10th (k=20) at 94 (client 104).
  const h1 = simulateChecked(g, base);
  close(timingOf(h1, 'a').end, 92, 'h1 a');
  close(timingOf(h1, 'b').end, 104, 'h1 b');
  close(h1.loadTime, 104, 'h1 load');
  assert.equal(h1.connections, 2);
  // HTTP/2: one connection; at 60 a's 10 segments fill cwnd 10 and b waits in the send buffer. a's segment k
  // reaches the client at 80 + 1.2k (a ends at 92); its ACK at 100 + 1.2k releases two of b's segments,
  // at the bottleneck at 110 + 1.2k: b's segment m departs at 111.2 + 1.2m, the 10th at 123.2, client 133.2.
  const h2 = simulateChecked(g, { ...base, protocol: 'h2' });
  close(timingOf(h2, 'a').end, 92, 'h2 a');
  close(timingOf(h2, 'b').end, 133.2, 'h2 b');
  close(timingOf(h2, 'b').serverBuffer, 100 + 1.2 - 60, 'h2 b waits in the send buffer until the first ACK');
  close(h2.loadTime, 133.2, 'h2 load');
  assert.equal(h2.connections, 1);
});

test('HTTP/2 priorities: the more important response goes first', () => {
  const g = new PageBuilder()
    .resource('img', 'http://a.com/i', 10 * MSS, { serverDelay: 0, prio: 5 })
    .resource('css', 'http://a.com/c', 10 * MSS, { serverDelay: 0, prio: 1 })
    .edge('img', 'load').edge('css', 'load').build();
  // Both ready at 60 in request order (img first). With no priorities img takes the first window (ends at
  // 92, as 'a' above); with mimeType priorities... both are pushed at their own ready events, so img's
  // segments are already on the wire when css arrives: without preemption css still waits (ends 133.2).
  const none = simulateChecked(g, { ...base, protocol: 'h2' });
  close(timingOf(none, 'img').end, 92, 'no priority: img first');
  // With preemption the same holds here, because img's whole first window left before css was ready:
  // a send buffer can only reorder bytes not yet sent. Make css ready first instead: delay img by 1 ms.
  const g2 = new PageBuilder()
    .resource('img', 'http://a.com/i', 20 * MSS, { serverDelay: 0, prio: 5 })
    .resource('css', 'http://a.com/c', 10 * MSS, { serverDelay: 0, prio: 1 })
    .edge('img', 'load').edge('css', 'load').build();
  // img (20 segments) fills cwnd 10 at 60, its other 10 segments wait; css arrives at 60 too. The first ACK
  // (101.2) frees two slots: with mimeType priority css's bytes are next (img's unsent bytes only resume after
  // css) only when preemption is on; without it img, having started, keeps the wire.
  const noPre = simulateChecked(g2, { ...base, protocol: 'h2', priority: 'mimeType' });
  const pre = simulateChecked(g2, { ...base, protocol: 'h2', priority: 'mimeType', preemption: true });
  // Second round: ACKs at 100 + 1.2k (k=1..10) each send two segments, departing at 111.2 + 1.2m (m=1..20).
  // Without preemption: img's segments 11-20 are m=1..10, css m=11..20: css ends 111.2 + 24 + 10 = 145.2.
  // With preemption: css is m=1..10 (ends 111.2 + 12 + 10 = 133.2), img's rest m=11..20 (ends 145.2).
  close(timingOf(noPre, 'css').end, 145.2, 'no preemption: css waits for img');
  close(timingOf(pre, 'css').end, 133.2, 'preemption: css overtakes');
  close(timingOf(pre, 'img').end, 145.2, 'preemption: img finishes last');
});

test('pipelined HTTP/1.1: a parallel server answers in FIFO order, a serial one also processes in order', () => {
  // One connection, request A (server delay 50 ms) then B (10 ms), one segment each, both sent at 40,
  // at the server at 60.
  const g = new PageBuilder()
    .resource('A', 'http://a.com/A', MSS, { serverDelay: 50 })
    .resource('B', 'http://a.com/B', MSS, { serverDelay: 10 })
    .edge('A', 'load').edge('B', 'load').build();
  const cfg: EmulatorConfig = { ...base, protocol: 'h1-pipelined', connectionsPerHost: 1 };
  // Parallel: A ready at 110, B ready at 70 but held behind A; both leave at 110: A departs the bottleneck at
  // 121.2 (client 131.2), B at 122.4 (client 132.4). B waited 110 - 60 - 10 = 40 ms in the server's buffer.
  const par = simulateChecked(g, { ...cfg, server: 'parallel' });
  close(timingOf(par, 'A').end, 131.2, 'parallel A');
  close(timingOf(par, 'B').end, 132.4, 'parallel B');
  close(timingOf(par, 'B').serverBuffer, 40, 'parallel B head-of-line wait');
  // Serial: A processed 60-110, B 110-120; B leaves at 120, departs 131.2 (link idle), client 141.2.
  const ser = simulateChecked(g, { ...cfg, server: 'serial' });
  close(timingOf(ser, 'A').end, 131.2, 'serial A');
  close(timingOf(ser, 'B').end, 141.2, 'serial B');
  close(timingOf(ser, 'B').serverBuffer, 50, 'serial B waits for A to be processed');
  // HTTP/2's out-of-order server sends B at 70: departs 81.2, client 91.2.
  const ooo = simulateChecked(g, { ...base, protocol: 'h2' });
  close(timingOf(ooo, 'B').end, 91.2, 'out-of-order B');
  close(timingOf(ooo, 'A').end, 131.2, 'out-of-order A');
});

/**
 * Document H (2000 bytes: chunk c0 = bytes 0-1000, c1 = 1000-2000) on a.com, parse p0 (1 ms, after c0) and p1
 * (1 ms, after c1), and image I on b.com (one segment) that p1 inserts; the caller adds the rest.
 */
const twoChunkPage = (): PageBuilder =>
  new PageBuilder()
    .resource('H', 'http://a.com/', 2000, { serverDelay: 0, mimeType: 'text/html' })
    .chunk('c0', 'H', 0, 1000).chunk('c1', 'H', 1000, 1000)
    .parse('p0', 1).parse('p1', 1)
    .resource('I', 'http://b.com/i.png', MSS, { serverDelay: 0, mimeType: 'image/png' })
    .edge('H', 'c0').edge('c0', 'c1').edge('c0', 'p0').edge('c1', 'p1').edge('p1', 'I').edge('I', 'load');

test('a blocking script triggers the preloader', () => {
  // Document H (2000 bytes: chunk c0 = bytes 0-1000, c1 = 1000-2000) on a.com; parse p0 (1 ms, after c0)
  // inserts sync script S (a.com, one segment) whose evaluation E (1 ms) needs S and p0; parse p1 (1 ms, after
  // c1 and E) inserts image I on b.com (one segment). Server delays 0.
  const g = twoChunkPage()
    .resource('S', 'http://a.com/s.js', MSS, { serverDelay: 0, mimeType: 'application/javascript' })
    .script('E', 1, 'sync')
    .edge('p0', 'S').edge('S', 'E').edge('p0', 'E').edge('E', 'p1')
    .edge('p1', 'dcl').edge('p1', 'load')
    .build();
  // H: 60 leaves; segment 1 departs 71.2, client 81.2 (c0); segment 2 (552 + 52 bytes = 0.4832 ms) departs
  // 71.6832, client 81.6832 (c1). p0 runs 81.2-82.2; S is requested at 82.2 on the open connection: server
  // 102.2, departs 113.4, client 123.4; E runs 123.4-124.4; p1 runs 124.4-125.4.
  // Without the preloader I is requested at 125.4: b.com handshake to 165.4, server 185.4, client 206.6.
  const off = simulateChecked(g, { ...base, preloader: false });
  close(timingOf(off, 'S').end, 123.4, 'S');
  close(timingOf(off, 'I').start, 125.4, 'I requested by p1');
  close(off.loadTime, 206.6, 'load without preloader');
  // With it: at 82.2 the frame blocks on E (only S missing) and c1 has arrived, so p1 is pre-parsed and I is
  // requested at 82.2: handshake to 122.2, server 142.2, departs 153.4, client 163.4.
  const on = simulateChecked(g, { ...base, preloader: true });
  const i = timingOf(on, 'I');
  close(i.start, 82.2, 'I preloaded');
  assert.equal(i.preloaded, true);
  close(on.loadTime, 163.4, 'load with preloader');
  close(on.domContentLoadedTime, 125.4, 'DOMContentLoaded after p1');
});

test("the preloader: a sync script whose only parent is its download (the 2016 graphs' shape) blocks the parser", () => {
  // As above, but without the p0 -> E edge: Table 3.1 draws parse -> download -> evaluation, and E gates p1.
  // p0 reached S's tag (it requested S), so from 82.2 the parser waits on E, whatever E's other parents.
  const g = twoChunkPage()
    .resource('S', 'http://a.com/s.js', MSS, { serverDelay: 0, mimeType: 'application/javascript' })
    .script('E', 1, 'sync')
    .edge('p0', 'S').edge('S', 'E').edge('E', 'p1')
    .edge('p1', 'dcl').edge('p1', 'load')
    .build();
  // Without the preloader: S 82.2-123.4, E 123.4-124.4, p1 124.4-125.4, I requested at 125.4, ends 206.6.
  const off = simulateChecked(g, { ...base, preloader: false });
  close(timingOf(off, 'I').start, 125.4, 'I requested by p1');
  close(off.loadTime, 206.6, 'load without preloader');
  // With it: c1 arrived at 81.6832; when p0 has run (82.2) S is requested, then p1 is pre-parsed and I is
  // requested at 82.2: b.com handshake to 122.2, server 142.2, departs 153.4, client 163.4.
  const on = simulateChecked(g, { ...base, preloader: true });
  close(timingOf(on, 'S').start, 82.2, 'S requested by p0');
  close(timingOf(on, 'I').start, 82.2, 'I preloaded');
  assert.equal(timingOf(on, 'I').preloaded, true);
  close(on.loadTime, 163.4, 'load with preloader');
});

test('the preloader: the parser waits on a sync script whose download ends before the script it follows', () => {
  // p0 requests sync script C (a.com, server delay 100 ms, evaluation X 1 ms) and sync script S (a.com, server
  // delay 0, on a second connection: ends at 163.4, C at 223.4); S's evaluation E runs after X (apple.com's
  // case, with a style sheet in X's place) and gates p1. S's download ends long before X runs, so the parser
  // never waits on S's download, yet it waits on X and E: p1 is pre-parsed meanwhile.
  const g = twoChunkPage()
    .resource('C', 'http://a.com/c.js', MSS, { serverDelay: 100, mimeType: 'application/javascript' })
    .script('X', 1, 'sync')
    .resource('S', 'http://a.com/s.js', MSS, { serverDelay: 0, mimeType: 'application/javascript' })
    .script('E', 1, 'sync')
    .edge('p0', 'C').edge('C', 'X').edge('p0', 'S').edge('S', 'E').edge('X', 'E').edge('E', 'p1')
    .edge('p1', 'dcl').edge('p1', 'load')
    .build();
  const off = simulateChecked(g, { ...base, preloader: false });
  const on = simulateChecked(g, { ...base, preloader: true });
  // The network before p1 is the same either way (I is on another host): S ends before C; X and E follow C.
  const sEnd = timingOf(on, 'S').end;
  const cEnd = timingOf(on, 'C').end;
  assert.ok(sEnd + 40 < cEnd, `S (${sEnd}) ends well before C (${cEnd})`);
  close(sEnd, timingOf(off, 'S').end, 'S unchanged');
  close(cEnd, timingOf(off, 'C').end, 'C unchanged');
  // Without the preloader I waits for p1 (cEnd + X 1 + E 1 + p1 1); with it, I is requested as p0 finishes.
  close(timingOf(off, 'I').start, cEnd + 3, 'I requested by p1');
  close(timingOf(on, 'I').start, 82.2, 'I preloaded while the parser waits on X and E');
  assert.equal(timingOf(on, 'I').preloaded, true);
});

test('the preloader: the parser stays blocked while the sync script runs, so a chunk arriving then is pre-parsed', () => {
  // H is 60 segments: c0 (its first 1000 bytes) arrives at 81.2, c1 (the rest) with the third slow-start round.
  // p0 requests S on c.com (one segment: handshake 82.2-122.2, server 142.2, client 163.4) and E runs 100 ms
  // from 163.4, so c1 arrives while E runs: the parser is still blocked (until E has run) and p1's image I is
  // requested as c1 arrives; without the preloader, when p1 has run after E.
  const g = new PageBuilder()
    .resource('H', 'http://a.com/', 60 * MSS, { serverDelay: 0, mimeType: 'text/html' })
    .chunk('c0', 'H', 0, 1000).chunk('c1', 'H', 1000, 60 * MSS - 1000)
    .parse('p0', 1).parse('p1', 1)
    .resource('I', 'http://b.com/i.png', MSS, { serverDelay: 0, mimeType: 'image/png' })
    .resource('S', 'http://c.com/s.js', MSS, { serverDelay: 0, mimeType: 'application/javascript' })
    .script('E', 100, 'sync')
    .edge('H', 'c0').edge('c0', 'c1').edge('c0', 'p0').edge('c1', 'p1').edge('p1', 'I').edge('I', 'load')
    .edge('p0', 'S').edge('S', 'E').edge('p0', 'E').edge('E', 'p1').edge('p1', 'dcl').edge('p1', 'load')
    .build();
  const node = (r: ReturnType<typeof simulateChecked>, id: string): { start: number; end: number } => r.nodes.find((x) => x.id === id)!;
  const off = simulateChecked(g, { ...base, preloader: false });
  const on = simulateChecked(g, { ...base, preloader: true });
  close(timingOf(on, 'S').end, 163.4, 'S');
  close(node(on, 'E').start, 163.4, 'E starts');
  close(node(on, 'E').end, 263.4, 'E ends');
  const c1 = node(on, 'c1').end;
  assert.ok(c1 > 163.4 && c1 < 263.4, `c1 (${c1}) arrives while E runs`);
  close(c1, node(off, 'c1').end, 'c1 unchanged');
  close(timingOf(off, 'I').start, 264.4, 'I requested by p1 (after E, 1 ms)');
  close(timingOf(on, 'I').start, c1, 'I preloaded as c1 arrives');
  assert.equal(timingOf(on, 'I').preloaded, true);
});

test('the preloader: a sync script a computation requested does not block the parser', () => {
  // Script A (inline, after p0) inserts S; S's evaluation E has no parse chunk reaching its tag, and the
  // graph lets p1 run without it: nothing is pre-parsed, I waits for p1.
  const g = twoChunkPage()
    .script('A', 1, 'sync')
    .resource('S', 'http://a.com/s.js', MSS, { serverDelay: 0, mimeType: 'application/javascript' })
    .script('E', 1, 'sync')
    .edge('p0', 'p1').edge('p0', 'A').edge('A', 'S').edge('S', 'E')
    .edge('p1', 'dcl').edge('E', 'load')
    .build();
  const on = simulateChecked(g, { ...base, preloader: true });
  assert.equal(timingOf(on, 'I').preloaded, undefined);
  close(timingOf(on, 'I').start, timingOf(simulateChecked(g, { ...base, preloader: false }), 'I').start, 'I as without the preloader');
});

test('session cache: the same url twice costs one download', () => {
  const g = new PageBuilder()
    .resource('a1', 'http://a.com/logo.png', 10 * MSS, { serverDelay: 0 })
    .resource('a2', 'http://a.com/logo.png', 10 * MSS, { serverDelay: 0 })
    .parse('p', 5).edge('a1', 'p').edge('p', 'a2').edge('a2', 'load').build();
  // a1 ends at 92 (as in the h1 test); p runs 92-97; a2 is a cache hit at 97.
  const r = simulateChecked(g, base);
  close(r.loadTime, 97, 'load');
  assert.equal(r.packets, 10);
  assert.equal(timingOf(r, 'a2').sessionCacheHit, true);
});

test("a parentless request recorded after the load event (the favicon) is not emulated: it does not start at time 0 (thesis §3.7.4)", () => {
  // f (the favicon: post-load, no parent) comes first in the graph, on one connection per host. Kept, it would be
  // a root requested at 0 ahead of a, and a would go out on the one connection when f ends at 92: at the server
  // 112, at the bottleneck 122, its 10th segment departs 134 and reaches the client at 144. Left out, a alone
  // ends at 92 (10 segments: at the server at 60, the 10th reaches the client at 80 + 12).
  const g = new PageBuilder()
    .resource('f', 'http://a.com/favicon.png', 10 * MSS, { serverDelay: 0 })
    .resource('a', 'http://a.com/a', 10 * MSS, { serverDelay: 0 })
    .edge('a', 'load').build();
  g.nodes.find((x) => x.id === 'f')!.phase = 'post-load';
  const r = simulateChecked(g, { ...base, connectionsPerHost: 1 });
  close(r.loadTime, 92, 'favicon left out');
  assert.deepEqual(r.resources.map((x) => x.id), ['a']);
  assert.equal(r.packets, 10);
});

test('main thread: one computation at a time; timers wait their delay; nested timers clamp to 4 ms', () => {
  // Two parse chunks ready at 0 (no parents) of 3 ms each run back to back; a timer with delay 10 after p1.
  const g = new PageBuilder().parse('p1', 3).parse('p2', 3).timer('t', 2, 10).edge('p1', 't').edge('p2', 'load').edge('t', 'load').build();
  const r = simulateChecked(g, base);
  const span = (id: string): [number, number] => {
    const n = r.nodes.find((x) => x.id === id)!;
    return [n.start, n.end];
  };
  assert.deepEqual(span('p1'), [0, 3]);
  assert.deepEqual(span('p2'), [3, 6]);
  assert.deepEqual(span('t'), [13, 15]); // p1 ends at 3, +10 ms delay
  close(r.loadTime, 15, 'load');
  // A chain of 7 zero-delay timers with distinct ids: levels 0..6; levels >= 5 wait 4 ms.
  const b = new PageBuilder();
  for (let k = 0; k < 7; k++) b.timer(`t${k}`, 1, 0);
  for (let k = 0; k < 6; k++) b.edge(`t${k}`, `t${k + 1}`);
  b.edge('t6', 'load');
  const chain = simulateChecked(b.build(), base);
  // t0..t4 run 0-5 back to back; t5 waits 4 ms (5-9, runs 9-10), t6 waits 4 ms (10-14, runs 14-15).
  close(chain.loadTime, 15, 'clamped chain');
});

test('timers and events run before queued parsing; parsing before evaluation within a frame', () => {
  // At time 0: p (parse), s (script) and e (event) are all ready; the event runs first, then the parse.
  const g = new PageBuilder().script('s', 1, 'async').parse('p', 1).event('e', 1).edge('s', 'load').edge('p', 'load').edge('e', 'load').build();
  const r = simulateChecked(g, base);
  const start = (id: string): number => r.nodes.find((x) => x.id === id)!.start;
  assert.deepEqual([start('e'), start('p'), start('s')], [0, 1, 2]);
});

test("main-thread order 'ready' (Blink's): ready computations run in the order they became ready, not timers and events first", () => {
  // A 200 ms handler holds the main thread from 0. Two responses arrive meanwhile over two HTTP/1.1
  // connections: the document's one-packet body at 81.2 (40 handshake + 20 request + 20 response + 1.2),
  // which readies parse chunk p; then an XHR's twelve packets (two rounds of the initial window), which
  // ready its handler x. At 200 the thesis's order (Algorithm 4) runs the handler first; Blink runs the
  // task posted first, the parser's.
  const g = new PageBuilder()
    .event('hold', 200)
    .resource('doc', 'http://a.com/', 1000, { serverDelay: 0 })
    .resource('xhr', 'http://a.com/x', 12 * MSS, { serverDelay: 0 })
    .parse('p', 3).event('x', 5)
    .edge('doc', 'p').edge('xhr', 'x').edge('hold', 'load').edge('p', 'load').edge('x', 'load')
    .build();
  const start = (r: ReturnType<typeof simulateChecked>, id: string): number => r.nodes.find((n) => n.id === id)!.start;
  const thesis = simulateChecked(g, base);
  const ready = simulateChecked(g, { ...base, mainThreadOrder: 'ready' });
  assert.ok(timingOf(thesis, 'xhr').end > timingOf(thesis, 'doc').end && timingOf(thesis, 'xhr').end < 200, 'both arrive during the hold, the document first');
  assert.deepEqual([start(thesis, 'x'), start(thesis, 'p')], [200, 205]);
  assert.deepEqual([start(ready, 'p'), start(ready, 'x')], [200, 203]);
  close(thesis.loadTime, 208, 'load, thesis order');
  close(ready.loadTime, 208, 'load, ready order');
});

test('extra RTT per origin, DNS and TLS round trips', () => {
  const g = new PageBuilder().resource('r', 'http://b.com/x', MSS, { serverDelay: 0 }).edge('r', 'load').build();
  // b.com RTT 40 + 60 = 100 ms: up = 20 + 60 = 80 ms; DNS 1 RTT (base 40 ms), TLS 2 RTTs (200 ms).
  // DNS done 40; handshake + TLS = 3 x 100 = 300 -> 340; request at server 420; departs 431.2; client 441.2.
  const r = simulateChecked(g, { ...base, extraRttMs: { 'b.com': 60 }, dnsRtts: 1, tlsRtts: 2 });
  close(r.loadTime, 441.2, 'load');
  close(timingOf(r, 'r').handshake, 340, 'dns + tcp + tls');
  close(timingOf(r, 'r').request, 80, 'request');
});

test('unshard merges hosts onto one HTTP/2 connection', () => {
  const g = new PageBuilder()
    .resource('a', 'http://a.com/a', MSS, { serverDelay: 0 })
    .resource('b', 'http://static.a.com/b', MSS, { serverDelay: 0 })
    .edge('a', 'load').edge('b', 'load').build();
  assert.equal(simulateChecked(g, { ...base, protocol: 'h2' }).connections, 2);
  assert.equal(simulateChecked(g, { ...base, protocol: 'h2', unshard: ['a.com', 'static.a.com'] }).connections, 1);
});

test('HTTP/1.0 opens a connection per request', () => {
  const g = new PageBuilder()
    .resource('a', 'http://a.com/a', MSS, { serverDelay: 0 })
    .parse('p', 1)
    .resource('b', 'http://a.com/b', MSS, { serverDelay: 0 })
    .edge('a', 'p').edge('p', 'b').edge('b', 'load').build();
  // a: 0-81.2 (40 handshake, 60 at server, departs 71.2, client 81.2); p 81.2-82.2; b needs a new handshake:
  // 82.2 + 40 + 20 + 11.2 + 10 = 163.4. Under HTTP/1.1 b reuses the connection: 82.2 + 20 + 21.2 = 123.4.
  close(simulateChecked(g, { ...base, protocol: 'h1.0' }).loadTime, 163.4, 'h1.0');
  close(simulateChecked(g, base).loadTime, 123.4, 'h1');
});

test('losses: QUIC-lite delivers past a hole that blocks HTTP/2 over TCP', () => {
  // One HTTP/2 connection; a drop-tail queue floored at 4 packets (queueBdp tiny). a = 6 segments (server delay
  // 0), b = 1 segment (server delay 6 ms). At 70 a's six segments reach the bottleneck together: a1-a4 are
  // queued (departing 71.2 ... 74.8), a5 and a6 are dropped. b leaves the server at 66, reaches the empty
  // queue at 76, departs 77.2, reaches the client at 87.2; its ACK (at the server at 107.2) reveals the
  // holes a5 and a6 (NACK), retransmitted at once: bottleneck 117.2, departures 118.4 and 119.6, client 128.4
  // and 129.6. Over TCP b sits behind the holes until 129.6; QUIC-lite hands it over at 87.2.
  const g = new PageBuilder()
    .resource('a', 'http://a.com/a', 6 * MSS, { serverDelay: 0 })
    .resource('b', 'http://a.com/b', MSS, { serverDelay: 6 })
    .edge('a', 'load').edge('b', 'load').build();
  const cfg: EmulatorConfig = { ...base, protocol: 'h2', queueBdp: 0.01 };
  const tcp = simulateChecked(g, cfg);
  const quic = simulateChecked(g, { ...cfg, protocol: 'quic-lite' });
  for (const r of [tcp, quic]) {
    assert.equal(r.drops, 2);
    assert.equal(r.retransmissions, 2);
    close(timingOf(r, 'a').end, 129.6, 'a waits for its retransmissions');
  }
  close(timingOf(tcp, 'b').end, 129.6, 'TCP: b blocked behind the holes');
  close(timingOf(quic, 'b').end, 87.2, 'QUIC-lite: b delivered on arrival');
});

test('congestion window validation: after an idle spell longer than the RTO the window shrinks', () => {
  // Two 40-segment responses on one HTTP/1.1 connection, the second requested after a 1 s computation.
  // Without idling the second would go out with the grown window; with a >= 1 s idle (RTO 200 ms: >= 5
  // RTOs) the window is halved per RTO down to the restart window icwnd = 10: the second transfer takes as
  // long as the first, whose window also started at 10.
  const g = new PageBuilder()
    .resource('a', 'http://a.com/a', 40 * MSS, { serverDelay: 0 })
    .parse('p', 1000)
    .resource('b', 'http://a.com/b', 40 * MSS, { serverDelay: 0 })
    .edge('a', 'p').edge('p', 'b').edge('b', 'load').build();
  const r = simulateChecked(g, { ...base, connectionsPerHost: 1 });
  close(timingOf(r, 'b').transfer, timingOf(r, 'a').transfer, 'same ramp-up after idle');
});

/** A 10-segment response, 160 ms of parsing, then a response of bSegments on the same connection. */
const idleSpellPage = (bSegments: number): ReturnType<PageBuilder['build']> =>
  new PageBuilder()
    .resource('a', 'http://a.com/a', 10 * MSS, { serverDelay: 0 })
    .parse('p', 160)
    .resource('b', 'http://a.com/b', bSegments * MSS, { serverDelay: 0 })
    .edge('a', 'p').edge('p', 'b').edge('b', 'load').build();

test('congestion window validation: the idle spell runs from the last data sent, not from the last ACK', () => {
  // a (10 segments) leaves at 60 with icwnd 10 and reaches the bottleneck at 70; segment k reaches the client at
  // 80 + 1.2k (a ends at 92) and its ACK the server at 100 + 1.2k, the last at 112. ACKs grow cwnd while the flight
  // is at least half the window (Linux's tcp_is_cwnd_limited): ACKs 1-4 (flight 9..6), cwnd 14. RTO 200 (the
  // minimum: SRTT about 50). p runs 92-252; b's request reaches the server at 272: 212 ms after the last data sent
  // (60), only 160 after the last ACK (112). Linux (lsndtime) restarts: one idle RTO, cwnd max(14/2, 10) = 10,
  // ssthresh 3/4 x 14 = 10.5. b (20 segments): 10 leave at 272 and depart the bottleneck at 282 + 1.2k (the last
  // at 294); their ACKs reach the server at 312 + 1.2k. ACK 1 (slow start, cwnd 11) sends 11 and 12; from ACK 2
  // on cwnd >= ssthresh: one segment per ACK (13..20 by ACK 9 at 322.8). 11 and 12 reach the bottleneck at 323.2
  // and depart 324.4 and 325.6; segment 12 + j arrives at 323.2 + 1.2j and queues behind one: segment 20 departs
  // 335.2, client 345.2. Timed from the ACK (no restart) b would start with cwnd 14 in slow start: 340.4.
  const g = idleSpellPage(20);
  const r = simulateChecked(g, { ...base, connectionsPerHost: 1 });
  close(timingOf(r, 'a').end, 92, 'a');
  close(timingOf(r, 'b').end, 345.2, 'b restarts from the restart window');
});

test("congestion window validation, linuxRto: an idle spell shorter than Linux's RTO leaves the window alone", () => {
  // The timeline above: b's request reaches the server 212 ms after the last data sent (60). RFC 6298's RTO is 200
  // (the minimum), so the window restarts; Linux's is SRTT + max(4 RTTVAR, 200): over 240 (SRTT >= 40), longer than
  // the spell, so b starts with cwnd 14 in slow start. 14 leave at 272 and depart the bottleneck at 282 + 1.2k (the
  // last at 298.8); their ACKs reach the server at 312 + 1.2k, ACKs 1-3 each send two: 15-20 reach the bottleneck
  // in pairs at 323.2, 324.4, 325.6, departing 324.4 + 1.2j (j = 0..5): 20 at 330.4, client 340.4.
  const g = idleSpellPage(20);
  const r = simulateChecked(g, { ...base, connectionsPerHost: 1, linuxRto: true });
  close(timingOf(r, 'a').end, 92, 'a');
  close(timingOf(r, 'b').end, 340.4, 'b keeps the grown window');
});

test('congestion window validation, linuxIdleRestart: an unset ssthresh stays unset, so the restart slow-starts again', () => {
  // The timeline above with b 40 segments: b's request reaches the server at 272, one idle RTO after the last data
  // sent (60): cwnd max(14/2, 10) = 10. Round 1: segments 1-10 leave at 272, depart the bottleneck at 282 + 1.2k,
  // their ACKs reach the server at 312 + 1.2k (k = 1..10).
  // Linux (RFC 2861: max(inf, 3/4 x 14) = inf, slow start): ACK k sends two, 10 + 2k - 1 and 10 + 2k, at 312 + 1.2k:
  // 11-30; they reach the bottleneck in pairs from 323.2 and depart one per 1.2 ms: 10 + j at 323.2 + 1.2j (30 at
  // 347.2), ACKed at the server 30 ms later. Round 2: ACKs of 11-15 (354.4 .. 359.2) send 31-40 in pairs, at the
  // bottleneck 364.4 .. 369.2 (idle since 347.2): 31 departs 365.6, then one per 1.2 ms, 40 at 376.4; client 386.4.
  // The thesis (ssthresh 3/4 x 14 = 10.5): ACK 1 sends 11 and 12, then cwnd >= ssthresh and each ACK adds 1/cwnd:
  // 13-21 one per ACK (cwnd 11.79 after round 1); round 2 sends 22-33 (two at its third ACK, where cwnd passes 12),
  // the last departing the bottleneck at 377.6; round 3 sends 34-40 (two at its fourth ACK, cwnd past 13), at the
  // bottleneck 405.6 .. 411.6: 40 departs 414.0, client 424.0: one round trip more.
  const page = (): ReturnType<PageBuilder['build']> => idleSpellPage(40);
  const linux = simulateChecked(page(), { ...base, connectionsPerHost: 1, linuxIdleRestart: true });
  close(timingOf(linux, 'b').end, 386.4, 'linux: slow start after the restart');
  const thesis = simulateChecked(page(), { ...base, connectionsPerHost: 1 });
  close(timingOf(thesis, 'b').end, 424, 'thesis: congestion avoidance from 10.5');
});

test('RTT jitter: each server gets a seeded delta within +-0.1 d (d = RTT/4)', () => {
  const g = new PageBuilder().resource('r', 'http://b.com/x', MSS, { serverDelay: 0 }).edge('r', 'load').build();
  // Without jitter: 40 (handshake) + 20 (request) + 10 + 1.2 + 10 = 81.2. A delta on the client->server path
  // counts twice (handshake and request): load = 81.2 + 2 delta, |delta| <= 0.1 x 10 ms = 1 ms.
  const loads = [1, 2, 3, 4, 5].map((seed) => simulateChecked(g, { ...base, rttJitter: 0.1, seed }).loadTime);
  for (const l of loads) assert.ok(l >= 79.2 - 1e-9 && l <= 83.2 + 1e-9, `load ${l} outside 81.2 +- 2`);
  assert.ok(new Set(loads).size > 1, 'seeds should jitter differently');
});

test("Blink's resource scheduler: below-High requests wait while the parser is in the head and two requests are in flight", () => {
  // Head chunk p0 (0 ms, ends at <link>) declares css (VeryHigh, 10 ms server delay), js (High, 20 ms) and
  // three Low images (0 ms); the body chunk p1 (ends at <img>) waits for js. One segment each.
  const page = (recorded: boolean) => {
    const b = new PageBuilder().parse('p0', 0, 'main', ['#parse', 'link']).parse('p1', 0, 'main', ['script', 'img']);
    const o = (browserPriority: string, requestType: string, serverDelay: number) => (recorded ? { browserPriority, requestType, serverDelay } : { serverDelay });
    b.resource('css', 'http://a.com/c.css', MSS, o('VeryHigh', 'Stylesheet', 10)).resource('js', 'http://a.com/j.js', MSS, o('High', 'Script', 20));
    b.edge('p0', 'css').edge('p0', 'js');
    for (const i of [1, 2, 3]) b.resource(`img${i}`, `http://a.com/${i}.png`, MSS, o('Low', 'Image', 0)).edge('p0', `img${i}`).edge(`img${i}`, 'load');
    return b.edge('js', 'p1').edge('p1', 'dcl').edge('css', 'load').edge('p1', 'load').build();
  };
  // Without recorded priorities every request goes at 0: five connections, established 40, at the server 60;
  // the images reach the bottleneck at 70 and the client at 81.2-83.6; css (ready 70) at 91.2; js (ready 80)
  // at 101.2, which runs p1: load 101.2.
  const free = simulateChecked(page(false), base);
  close(free.loadTime, 101.2, 'load without priorities');
  assert.equal(free.connections, 5);
  // With them: css and js start at 0 (two in flight); the images wait. css ends at 91.2: img1 starts on
  // css's idle connection (at the server 111.2, bottleneck 121.2, departs 122.4, client 132.4). js ends at
  // 101.2: img2 starts on js's connection (server 121.2, bottleneck 131.2, departs 132.4, client 142.4), and
  // p1 runs: the parser inserts <body>, which releases img3 at once; both connections are busy, so a third
  // opens (to be established at 141.2), but css's connection frees first, at 132.4, and takes img3 (late
  // binding): server 152.4, bottleneck 162.4, departs 163.6, client 173.6. Load 173.6.
  const r = simulateChecked(page(true), base);
  close(timingOf(r, 'img1').end, 132.4, 'img1');
  // (its wait overlaps css's connection set-up, 0-40, which the timing counts as handshake)
  close(timingOf(r, 'img1').queued + timingOf(r, 'img1').handshake, 91.2, 'img1 waits for css');
  close(timingOf(r, 'img2').end, 142.4, 'img2');
  close(timingOf(r, 'img3').start, 0, 'img3 requested by p0');
  close(timingOf(r, 'img3').queued + timingOf(r, 'img3').handshake, 132.4, 'img3 waits for the body, then for a connection');
  close(timingOf(r, 'img3').end, 173.6, 'img3');
  close(r.loadTime, 173.6, 'load');
  assert.equal(r.connections, 3);
  // The scheduler can be turned off.
  close(simulateChecked(page(true), { ...base, resourceScheduler: false }).loadTime, 101.2, 'scheduler off');
});

test('navigation commit: the main document body reaches the parser the recorded commit time after its first bytes', () => {
  // doc (10 segments, no server delay) -> chunk c0 (its first segment) -> p0 (2 ms) -> img (1 segment).
  // The recording: response headers at -10 ms, the first parse chunk at 20 ms: a 30 ms commit.
  const g = new PageBuilder()
    .resource('doc', 'http://a.com/', 10 * MSS, { serverDelay: 0, mimeType: 'text/html' })
    .chunk('c0', 'doc', 0, MSS)
    .parse('p0', 2)
    .resource('img', 'http://a.com/i.png', MSS, { serverDelay: 0 })
    .edge('doc', 'c0').edge('c0', 'p0').edge('p0', 'img').edge('p0', 'dcl').edge('img', 'load')
    .build();
  g.root = 'doc';
  const noPre = { ...base, preconnect: false }; // (preconnect, tested below, would give img its own connection)
  const p0 = g.nodes.find((x) => x.id === 'p0')!;
  p0.start = 20;
  p0.end = 22;
  g.nodes.find((x) => x.id === 'img')!.start = 22; // requested at the end of p0
  // Without the navigation: the doc's segments leave at 60, segment k reaches the client at 80 + 1.2k; c0
  // at 81.2, p0 runs to 83.2 and requests img; the doc's connection frees at 92 and takes it: at the server
  // 112, bottleneck 122, departs 123.2, client 133.2.
  close(simulateChecked(g, noPre).loadTime, 133.2, 'no navigation recorded');
  // With it: c0 waits for the commit, 81.2 + 30 = 111.2; p0 to 113.2; img on the idle connection: server
  // 133.2, bottleneck 143.2, departs 144.4, client 154.4.
  const withNav = { ...g, navigation: { navigationStartOffset: 5, documentResponse: -10 } }; // a new object: models are cached per graph
  const r = simulateChecked(withNav, noPre);
  close(r.loadTime, 154.4, 'load after the commit');
  close(r.domContentLoadedTime, 113.2, 'DCL');
  close(r.navigationStartOffset!, 5, 'no document request recorded: the graph clock');
  close(simulateChecked(withNav, { ...noPre, navigationCommit: false }).loadTime, 133.2, 'commit off');
  // The document records its commit (graph time 0, its trace request) 14 ms after the network service read its
  // headers, at -14: DevTools' responseReceived (-10) came 4 ms after them, so the commit is 34 ms from the
  // first bytes. c0 at 81.2 + 34 = 115.2; p0 to 117.2; img: server 137.2, bottleneck 147.2, departs 148.4,
  // client 158.4.
  const fromHeaders = structuredClone(withNav);
  Object.assign(fromHeaders.nodes.find((x) => x.id === 'doc')!, { browserDelay: { commit: 14 } });
  const h = simulateChecked(fromHeaders, noPre);
  close(h.domContentLoadedTime, 117.2, 'DCL: the commit measured from the headers at the network service');
  close(h.loadTime, 158.4, 'load');
});

test("preconnect: HTTP/1.1 opens a second connection to the document's host with the document's request", () => {
  // doc (1 segment) -> c0 -> p0 (0 ms) -> css and js (1 segment each, no server delays).
  const g = new PageBuilder()
    .resource('doc', 'http://a.com/', MSS, { serverDelay: 0, mimeType: 'text/html' })
    .chunk('c0', 'doc', 0, MSS)
    .parse('p0', 0)
    .resource('css', 'http://a.com/c.css', MSS, { serverDelay: 0 })
    .resource('js', 'http://a.com/j.js', MSS, { serverDelay: 0 })
    .edge('doc', 'c0').edge('c0', 'p0').edge('p0', 'css').edge('p0', 'js').edge('p0', 'dcl').edge('css', 'load').edge('js', 'load')
    .build();
  g.root = 'doc';
  // Both connections open at 0 and are established at 40; the doc goes out at 40, at the server 60,
  // bottleneck 70, departs 71.2, client 81.2: p0 requests css and js. css takes the doc's (now idle)
  // connection, js the preconnected one: both at the server 101.2, bottleneck 111.2, depart 112.4 and
  // 113.6, client 122.4 and 123.6.
  const r = simulateChecked(g, base);
  close(timingOf(r, 'js').handshake, 0, 'js pays no handshake');
  close(r.loadTime, 123.6, 'load with preconnect');
  assert.equal(r.connections, 2);
  // Without it js opens a connection at 81.2 (established 121.2, server 141.2, bottleneck 151.2, departs
  // 152.4, client 162.4). HTTP/2 has one connection either way.
  close(simulateChecked(g, { ...base, preconnect: false }).loadTime, 162.4, 'load without preconnect');
  assert.equal(simulateChecked(g, { ...base, protocol: 'h2' }).connections, 1);

  // The preconnect crosses to the network service with the navigation's request: with a recorded request
  // delay of 7 ms both sockets open at 7, not at 0 (which would hide the delay behind the handshake). The
  // doc's handshake is 7-47, then everything above 7 ms later: load 130.6.
  const delayed = structuredClone(g);
  (delayed.nodes.find((x) => x.id === 'doc') as { browserDelay?: object }).browserDelay = { request: 7 };
  const d = simulateChecked(delayed, base);
  phases(timingOf(d, 'doc'), { handshake: 40, browser: 7, end: 88.2 });
  close(timingOf(d, 'js').handshake, 0, 'js still pays no handshake');
  close(d.loadTime, 130.6, 'load: the document released at 7');
});

test("browser delays: a request reaches the socket its recorded request delay after Blink releases it; the renderer learns of a response's end its response delay after the network", () => {
  // One resource, one segment, server delay 5, recorded browserDelay {request: 7, response: 4}.
  const one = new PageBuilder().resource('a', 'http://a.com/a', MSS, { serverDelay: 5, browserDelay: { request: 7, response: 4 } }).edge('a', 'load').build();
  // Released at 0, on the socket at 7: SYN 7, established 47, at the server 67, ready 72, bottleneck 82,
  // departs 83.2, client 93.2; the renderer learns it is complete 4 ms later: 97.2.
  // The delay is not queueing; browser time is request 7 + response 4; the end is the renderer's.
  const r = simulateChecked(one, base);
  phases(timingOf(r, 'a'), { queued: 0, handshake: 40, browser: 11, end: 97.2 });
  close(r.loadTime, 97.2, 'load');
  close(simulateChecked(one, { ...base, browserDelays: false }).loadTime, 93.2 - 7, 'delays off: 86.2');

  // A streamed document: doc (10 segments, response delay 3) -> c0 (its first segment) -> p0 (2 ms) -> dcl;
  // doc -> c1 (the rest, to the body's end) -> p1 (1 ms) -> load. Segment k reaches the client at 80 + 1.2k:
  // c0's bytes at 81.2, p0 ends 83.2 (data is not delayed); the last segment at 92, but the parser learns
  // that the body ended at 95: p1 ends 96.
  const doc = new PageBuilder()
    .resource('doc', 'http://a.com/', 10 * MSS, { serverDelay: 0, mimeType: 'text/html', browserDelay: { response: 3 } })
    .chunk('c0', 'doc', 0, MSS)
    .chunk('c1', 'doc', MSS, 9 * MSS)
    .parse('p0', 2)
    .parse('p1', 1)
    .edge('doc', 'c0').edge('c0', 'p0').edge('p0', 'dcl').edge('doc', 'c1').edge('p0', 'p1').edge('c1', 'p1').edge('p1', 'load')
    .build();
  const d = simulateChecked(doc, base);
  close(d.domContentLoadedTime, 83.2, 'DCL: the first chunk as its bytes arrive');
  close(d.loadTime, 96, "load: the body's end 3 ms after its last byte");
  close(timingOf(d, 'doc').browser, 3, 'browser time');
  close(simulateChecked(doc, { ...base, browserDelays: false }).loadTime, 93, 'delays off');
});

test("connection set-up: a new connection pays its host's recorded handshake work beside the handshake's round trips", () => {
  // Recorded handshakes (browserDelay.connect), no recorded round trip (no first bytes): all of it is work.
  // a.com's connections took 10 and 14 ms (median 12), b.com's 30; c.com recorded none: the page's median, 14.
  // One segment each, one connection each (h1), server delays 0 / 5 / 0 / 10 so that no two meet at the bottleneck.
  const g = new PageBuilder()
    .resource('a', 'http://a.com/a', MSS, { serverDelay: 0, browserDelay: { connect: 10 } })
    .resource('a2', 'http://a.com/a2', MSS, { serverDelay: 5, browserDelay: { connect: 14 } })
    .resource('b', 'http://b.com/b', MSS, { serverDelay: 0, browserDelay: { connect: 30 } })
    .resource('c', 'http://c.com/c', MSS, { serverDelay: 10 })
    .edge('a', 'load').edge('a2', 'load').edge('b', 'load').edge('c', 'load')
    .build();
  // a: SYN 0, established 40 + 12 = 52, at the server 72, bottleneck 82, departs 83.2, client 93.2.
  // a2: ready 5 ms later: bottleneck 87, client 98.2. b: established 70, server 90, bottleneck 100, client
  // 111.2. c: established 54, server 74, ready 84, bottleneck 94, client 105.2.
  const r = simulateChecked(g, base);
  phases(timingOf(r, 'a'), { handshake: 52, end: 93.2 });
  close(timingOf(r, 'a2').end, 98.2, 'a2');
  close(timingOf(r, 'b').end, 111.2, 'b');
  close(timingOf(r, 'c').end, 105.2, "c: the page's median");
  close(r.loadTime, 111.2, 'load');
  // Off: handshakes of one round trip; a and b meet at the bottleneck at 70 (82.4 the later), c at 80: 91.2.
  close(simulateChecked(g, { ...base, connectionSetup: false }).loadTime, 91.2, 'set-up off');
});

test("network read: the renderer learns of a response's end after the network service read it as recorded, less the server's pacing", () => {
  // The one-resource page above (released at 0, at the client 93.2 with request delay 7), now with response
  // delay 4 and a recorded read of 2.5 ms (headers to the body's end at the network service): 93.2 + 2.5 + 4.
  const one = new PageBuilder().resource('a', 'http://a.com/a', MSS, { serverDelay: 5, browserDelay: { request: 7, response: 4, read: 2.5 } }).edge('a', 'load').build();
  const r = simulateChecked(one, base);
  phases(timingOf(r, 'a'), { queued: 0, handshake: 40, browser: 13.5, end: 99.7 });
  close(r.loadTime, 99.7, 'load');
  close(simulateChecked(one, { ...base, networkRead: false }).loadTime, 97.2, 'read off: as before');
  close(simulateChecked(one, { ...base, browserDelays: false }).loadTime, 86.2, 'browser delays off: no read either');
});

test("release hop: a request Blink may hold reaches its loader the page's hop after its release: the median request-to-release of the requests Blink never holds", () => {
  // Two Low images and two requests Blink never holds (an XHR, a High script), one segment each, each on its
  // own host. Recorded request-to-release: a 30 (the recording's scheduler held it), b 0.5, the XHR 1.5, the
  // script 2.5: the hop is the never-held ones' median, 2 ms, and joins a's and b's request delay (7 and 0);
  // the XHR's and the script's request delays, measured from their request, hold it already.
  const g = new PageBuilder()
    .resource('a', 'http://a.com/a.png', MSS, { serverDelay: 5, browserPriority: 'Low', requestType: 'Image', browserDelay: { request: 7, release: 30 } })
    .resource('b', 'http://b.com/b.png', MSS, { serverDelay: 20, browserPriority: 'Low', requestType: 'Image', browserDelay: { request: 0, release: 0.5 } })
    .resource('x', 'http://c.com/x.json', MSS, { serverDelay: 40, browserPriority: 'High', requestType: 'XHR', browserDelay: { request: 0, release: 1.5 } })
    .resource('s', 'http://d.com/s.js', MSS, { serverDelay: 60, browserPriority: 'High', requestType: 'Script', browserDelay: { request: 0, release: 2.5 } })
    .edge('a', 'load').edge('b', 'load')
    .build();
  assert.equal(releaseHop(g.nodes), 2);
  assert.equal(releaseHop([]), 0);
  // a: released at 0, on the socket at 7 + 2 = 9: SYN 9, established 49, at the server 69, ready 74,
  // bottleneck 84, client 95.2. b: on the socket at 2: established 42, server 62, ready 82, bottleneck 92,
  // client 103.2. (x and s reach the bottleneck at 110 and 130, after both.)
  const r = simulateChecked(g, base);
  phases(timingOf(r, 'a'), { queued: 0, handshake: 40, browser: 9, end: 95.2 });
  phases(timingOf(r, 'b'), { queued: 0, handshake: 40, browser: 2, end: 103.2 });
  close(timingOf(r, 'x').browser, 0, 'the XHR: no hop added');
  const off = simulateChecked(g, { ...base, releaseHop: false });
  close(timingOf(off, 'a').end, 93.2, 'hop off: a 2 ms sooner');
  close(off.loadTime, 101.2, 'hop off: b 2 ms sooner');
});

test("socket lag: a response is ready the network service's recorded lag (its wait for the headers less the measured server delay) later", () => {
  // The one-resource page (server delay 5, request delay 7: at the client 93.2) with a recorded wait of 6.5 ms
  // from the request on the socket to its headers: 1.5 ms beyond the server's 5, ready 1.5 ms later: 94.7.
  const one = new PageBuilder().resource('a', 'http://a.com/a', MSS, { serverDelay: 5, browserDelay: { request: 7, wait: 6.5 } }).edge('a', 'load').build();
  const r = simulateChecked(one, base);
  phases(timingOf(r, 'a'), { queued: 0, handshake: 40, serverDelay: 5, browser: 8.5, end: 94.7 });
  close(simulateChecked(one, { ...base, socketLag: false }).loadTime, 93.2, 'lag off: as before');
  // An estimated server delay says nothing of this exchange: no lag.
  const est = new PageBuilder().resource('a', 'http://a.com/a', MSS, { serverDelay: 5, serverDelayEstimated: true, browserDelay: { request: 7, wait: 6.5 } }).edge('a', 'load').build();
  close(simulateChecked(est, base).loadTime, 93.2, 'estimated: no lag');
});

test('networkRead: the recorded read less the server pacing of the body; never negative', () => {
  assert.equal(networkRead(undefined, null), 0);
  assert.equal(networkRead(1.5, null), 1.5);
  // The server paced the body over 30 ms (its last piece 30 ms after the response was ready): 31.2 - 30.
  close(networkRead(31.2, { after: [0, 12, 30], upTo: [100, 200, 300] }), 1.2, 'paced');
  assert.equal(networkRead(20, { after: [0, 30], upTo: [100, 300] }), 0);
});

test('main-thread work outside the graph: recorded tasks no node holds run before the computation they held up', () => {
  // r (1 segment, no server delay) -> p0 (2 ms) -> p1 (3 ms) -> load. Recorded: r ended at 10, p0 ran 12-14,
  // p1 ran 20-23; the main thread's tasks were [11, 14.5] (p0 inside, plus 1.5 ms of other work) and
  // [16, 19] (3 ms of layout, say). Hidden work: p0 was ready at 10 and started at 12: [11, 12] is 1 ms;
  // p1 was ready at 14 and started at 20: [14, 14.5] and [16, 19], 3.5 ms.
  const g = new PageBuilder().resource('r', 'http://a.com/r', MSS, { serverDelay: 0 }).parse('p0', 2).parse('p1', 3)
    .edge('r', 'p0').edge('p0', 'p1').edge('p1', 'load').build();
  const at = (id: string, start: number, end: number) => Object.assign(g.nodes.find((x) => x.id === id)!, { start, end });
  at('r', 0, 10);
  at('p0', 12, 14);
  at('p1', 20, 23);
  g.mainThreadTasks = [[11, 14.5], [16, 19]];
  // r: SYN 0, established 40, at the server 60, bottleneck 70, departs 71.2, client 81.2. p0 runs its 1 ms
  // of hidden work, then 82.2-84.2; p1 3.5 ms, then 87.7-90.7.
  const r = simulateChecked(g, base);
  const node = (id: string) => r.nodes.find((x) => x.id === id)!;
  close(node('p0').start, 82.2, 'p0 starts after 1 ms of other work');
  close(node('p1').start, 87.7, 'p1 after 3.5 ms');
  close(r.loadTime, 90.7, 'load');
  close(simulateChecked({ ...g }, { ...base, mainThreadTasks: false }).loadTime, 86.2, 'off: 81.2 + 2 + 3');
});

test('event dispatch: the load event waits for the recorded main-thread work that held it up', () => {
  // r (1 segment, no server delay) -> p0 (2 ms) -> load. Recorded: r ended at 10, p0 ran 12-14, the load event
  // fired at 17; the main thread's tasks were [11, 14.5] (p0 inside) and [15, 17.5] (the loader's completion
  // check, say, with the load event inside it). p0 was held up by [11, 12], 1 ms; the load event, ready at 14,
  // by [14, 14.5] and [15, 17], 2.5 ms.
  const g = new PageBuilder().resource('r', 'http://a.com/r', MSS, { serverDelay: 0 }).parse('p0', 2).edge('r', 'p0').edge('p0', 'load').build();
  const at = (id: string, start: number, end: number) => Object.assign(g.nodes.find((x) => x.id === id)!, { start, end });
  at('r', 0, 10);
  at('p0', 12, 14);
  at('load', 17, 17);
  g.mainThreadTasks = [[11, 14.5], [15, 17.5]];
  // r reaches the client at 81.2; p0 runs its 1 ms of hidden work, then 82.2-84.2; the load event its 2.5 ms.
  close(simulateChecked(g, base).loadTime, 86.7, 'load: 84.2 + 2.5');
  close(simulateChecked({ ...g }, { ...base, eventDispatch: false }).loadTime, 84.2, 'off: the instant p0 ends');
  close(simulateChecked({ ...g }, { ...base, mainThreadTasks: false }).loadTime, 83.2, 'no recorded work: 81.2 + 2');
});

test('event dispatch: the load event waits for the computation running when it becomes due', () => {
  // r -> p (10 ms of parsing); s (b.com, 5 ms of server delay) -> load. r reaches the client at 81.2, so p runs
  // 81.2-91.2; s reaches it at 86.2, while p runs: the load event is dispatched when p ends.
  const g = new PageBuilder()
    .resource('r', 'http://a.com/r', MSS, { serverDelay: 0 })
    .resource('s', 'http://b.com/s', MSS, { serverDelay: 5 })
    .parse('p', 10)
    .edge('r', 'p').edge('s', 'load').build();
  const on = simulateChecked(g, base);
  close(timingOf(on, 's').end, 86.2, 's arrives while p runs');
  close(on.loadTime, 91.2, 'load after p');
  close(simulateChecked({ ...g }, { ...base, eventDispatch: false }).loadTime, 86.2, 'off: when s arrives');
});

test("Chromium's preload scanner: an arrived chunk's image that the recording shows scanned is requested at once", () => {
  // H (2000 bytes: c0 = 0-1000, c1 = 1000-2000) -> p0 (5 ms, after c0) -> p1 (1 ms, after c1 and p0) -> image
  // I on b.com (one segment, Low: the graph records Chromium's priorities). H's segment 1 reaches the client at
  // 81.2 (c0), segment 2 at 81.6832 (c1); p0 runs 81.2-86.2, p1 86.2-87.2. Recorded: p1 began at 20.
  const page = (recordedImageStart: number, mimeType = 'image/png', requestType: string | null = 'Image') => {
    const g = new PageBuilder()
      .resource('H', 'http://a.com/', 2000, { serverDelay: 0, mimeType: 'text/html' })
      .chunk('c0', 'H', 0, 1000).chunk('c1', 'H', 1000, 1000)
      .parse('p0', 5).parse('p1', 1)
      .resource('I', 'http://b.com/i.png', MSS, { serverDelay: 0, mimeType, browserPriority: 'Low', ...(requestType ? { requestType } : {}) })
      .edge('H', 'c0').edge('c0', 'c1').edge('c0', 'p0').edge('c1', 'p1').edge('p0', 'p1').edge('p1', 'I')
      .edge('p1', 'dcl').edge('I', 'load').build();
    const at = (id: string, start: number) => {
      const x = g.nodes.find((y) => y.id === id)!;
      Object.assign(x, { start, end: start + (x.end - x.start) }); // (a parse chunk keeps its duration)
    };
    at('p1', 20);
    at('I', recordedImageStart);
    return g;
  };
  // Requested at 10 in the recording, before p1: the scanner found it. I goes as c1 arrives, at 81.6832: b.com
  // handshake to 121.6832, server 141.6832, bottleneck 151.6832, departs 152.8832, client 162.8832.
  const on = simulateChecked(page(10), base);
  close(timingOf(on, 'I').start, 81.6832, 'I requested as c1 arrives');
  close(on.loadTime, 162.8832, 'load');
  // Without the scanner (the thesis' preloader: only while blocked on a script) I waits for p1: 87.2 + 81.2.
  close(simulateChecked(page(10), { ...base, preloadScanner: false }).loadTime, 168.4, 'scanner off');
  // Requested at 21 in the recording, after p1 began: the parser found it; it waits for p1 either way.
  close(simulateChecked(page(21), base).loadTime, 168.4, 'not scanned in the recording');
  // The scanner goes by the tag: an <img> whose answer was a 404 in text/plain is still scanned (ev-error's
  // missing.png); without a recorded request type the response's MIME class decides, and text is not preloaded.
  close(timingOf(simulateChecked(page(10, 'text/plain'), base), 'I').start, 81.6832, '404 image requested as c1 arrives');
  close(simulateChecked(page(10, 'text/plain', null), base).loadTime, 168.4, 'text without a request type');
});

test("frame commit: a frame's document reaches the frame's parser its recorded response delay after its first bytes", () => {
  // p0 (0 ms) -> frame document F (one segment, frame 'f', browserDelay.response 20) -> chunk c (F's bytes)
  // -> parse pf (1 ms) -> load. F: SYN 0, established 40, at the server 60, bottleneck 70, departs 71.2,
  // client 81.2; the frame commits 20 ms later, 101.2, and pf runs to 102.2.
  const g = new PageBuilder().frame('f', 'main')
    .parse('p0', 0)
    .resource('F', 'http://b.com/f.html', MSS, { serverDelay: 0, mimeType: 'text/html', frame: 'f', documentOfFrame: 'f', browserDelay: { response: 20 } })
    .chunk('c', 'F', 0, MSS, 'f').parse('pf', 1, 'f')
    .edge('p0', 'F').edge('F', 'c').edge('c', 'pf').edge('pf', 'load').build();
  const on = { ...base, frameCommit: true };
  close(simulateChecked(g, on).loadTime, 102.2, 'the frame parses after its commit');
  // Without the frame commit the chunk is there at 81.2, but the chunk ends the body: it waits for the
  // renderer's completion (101.2) all the same. A two-chunk document shows the difference below.
  const two = new PageBuilder().frame('f', 'main')
    .parse('p0', 0)
    .resource('F', 'http://b.com/f.html', 2000, { serverDelay: 0, mimeType: 'text/html', frame: 'f', documentOfFrame: 'f', browserDelay: { response: 20 } })
    .chunk('c0', 'F', 0, 1000, 'f').chunk('c1', 'F', 1000, 1000, 'f').parse('pf', 1, 'f')
    .edge('p0', 'F').edge('F', 'c0').edge('c0', 'c1').edge('c0', 'pf').edge('pf', 'dcl').edge('c1', 'load').build();
  // F's first segment reaches the client at 81.2: commit at 101.2, pf to 102.2 (DCL). Off: pf at 81.2-82.2.
  close(simulateChecked(two, on).domContentLoadedTime, 102.2, 'first chunk after the commit');
  close(simulateChecked(two, base).domContentLoadedTime, 102.2, 'frame commit on by default');
  close(simulateChecked(two, { ...base, frameCommit: false }).domContentLoadedTime, 82.2, 'frame commit off');
});

test("frame navigation: a frame's document is requested by the browser its recorded hop after what created the frame", () => {
  // p0 (recorded 0-0) -> frame document F (one segment, browserDelay.request 2); the browser began the
  // frame's navigation at 9 (navigationRequest): a 9 ms hop before the 2 ms request delay. F on the socket at
  // 11: established 51, at the server 71, bottleneck 81, departs 82.2, client 92.2; pf (1 ms) ends 93.2.
  const page = (navigationRequest?: number) => {
    const g = new PageBuilder().frame('f', 'main')
      .parse('p0', 0)
      .resource('F', 'http://b.com/f.html', MSS, { serverDelay: 0, mimeType: 'text/html', frame: 'f', documentOfFrame: 'f', browserDelay: { request: 2 } })
      .chunk('c', 'F', 0, MSS, 'f').parse('pf', 1, 'f')
      .edge('p0', 'F').edge('F', 'c').edge('c', 'pf').edge('pf', 'load').build();
    if (navigationRequest !== undefined) (g.nodes.find((x) => x.id === 'F') as { navigationRequest?: number }).navigationRequest = navigationRequest;
    return g;
  };
  const r = simulateChecked(page(9), base);
  phases(timingOf(r, 'F'), { browser: 11, end: 92.2 });
  close(r.loadTime, 93.2, 'load');
  // Not recorded: the request delay alone (84.2); recorded before its creator ended (clocks of two
  // processes): no hop; browser delays off: neither.
  close(simulateChecked(page(), base).loadTime, 84.2, 'no navigationRequest');
  close(simulateChecked(page(-3), base).loadTime, 84.2, 'a hop is never negative');
  close(simulateChecked(page(9), { ...base, browserDelays: false }).loadTime, 82.2, 'browser delays off');
});

test("server pacing: a trickled body leaves the server no faster than its recorded pieces, the gaps beyond the recorded round trip being the server's", () => {
  // A document of 3 segments the server sent one segment at a time, 100 ms apart (recorded arrivals 0, 100,
  // 200; no recorded round trip, so both gaps are the server's). c0 -> p0 (2 ms) -> dcl; c1 -> p1 (1 ms);
  // c2 (the body's end) -> p2 (1 ms) -> load; p0 -> p1 -> p2.
  const build = (responseStart?: number) => {
    const g = new PageBuilder()
      .resource('doc', 'http://a.com/', 3 * MSS, { serverDelay: 0, mimeType: 'text/html' })
      .chunk('c0', 'doc', 0, MSS)
      .chunk('c1', 'doc', MSS, MSS)
      .chunk('c2', 'doc', 2 * MSS, MSS)
      .parse('p0', 2)
      .parse('p1', 1)
      .parse('p2', 1)
      .edge('doc', 'c0').edge('c0', 'c1').edge('c1', 'c2').edge('c0', 'p0').edge('c1', 'p1').edge('c2', 'p2')
      .edge('p0', 'p1').edge('p1', 'p2').edge('p0', 'dcl').edge('p2', 'load')
      .build();
    const doc = g.nodes.find((n) => n.id === 'doc')!;
    if (doc.kind !== 'resource') throw new Error('doc is a resource');
    doc.arrivals = [{ at: 0, bytes: MSS }, { at: 100, bytes: MSS }, { at: 200, bytes: MSS }];
    if (responseStart !== undefined) doc.responseStart = responseStart;
    return g;
  };
  // SYN 0, established 40, at the server 60, ready 60: the server has produced the first segment, which is at
  // the bottleneck at 70, departs 71.2, reaches the client 81.2: p0 ends 83.2 (DCL). The second segment is
  // produced at 160 (client 181.2: p1 ends 182.2), the third at 260 (client 281.2: p2 ends 282.2, load).
  const paced = simulateChecked(build(), base);
  close(paced.domContentLoadedTime, 83.2, 'DCL: the first piece');
  close(timingOf(paced, 'doc').end, 281.2, "the body's end: the third piece");
  close(paced.loadTime, 282.2, 'load');
  // Off, the body leaves at once: segments reach the client at 81.2, 82.4, 83.6; p0 83.2, p1 84.2, p2 85.2.
  close(simulateChecked(build(), { ...base, serverPacing: false }).loadTime, 85.2, 'pacing off');
  // Recorded with a 150 ms round trip (request at 0, first byte at 150, server delay 0), 100 ms gaps are the
  // network's: no pacing.
  close(simulateChecked(build(150), base).loadTime, 85.2, 'gaps the recorded network explains');
});

test('server pacing over one connection: pipelined HTTP/1.1 keeps responses in order behind a paced body; HTTP/2 sends past it', () => {
  // A: 2 segments, server delay 0, recorded one segment at 0 and one at 100 ms (no recorded round trip);
  // B: 1 segment, server delay 10. Both requests at the server at 60.
  const g = new PageBuilder()
    .resource('A', 'http://a.com/A', 2 * MSS, { serverDelay: 0 })
    .resource('B', 'http://a.com/B', MSS, { serverDelay: 10 })
    .edge('A', 'load').edge('B', 'load').build();
  const a = g.nodes.find((n) => n.id === 'A')!;
  if (a.kind !== 'resource') throw new Error('A is a resource');
  a.arrivals = [{ at: 0, bytes: MSS }, { at: 100, bytes: MSS }];
  // Pipelined, parallel server: A's first segment leaves at 60 (client 81.2); B is ready at 70 but waits until
  // A is all produced (160): A's second segment departs the bottleneck at 171.2 (client 181.2), B at 172.4 (182.4).
  const h1 = simulateChecked(g, { ...base, protocol: 'h1-pipelined', connectionsPerHost: 1, server: 'parallel' });
  close(timingOf(h1, 'A').end, 181.2, 'h1 A');
  close(timingOf(h1, 'B').end, 182.4, 'h1 B behind A');
  // HTTP/2: B leaves at 70 (bottleneck 80, departs 81.2, client 91.2); A's second segment as before, 181.2.
  const h2 = simulateChecked(g, { ...base, protocol: 'h2' });
  close(timingOf(h2, 'B').end, 91.2, 'h2 B');
  close(timingOf(h2, 'A').end, 181.2, 'h2 A');
});

test("a disabled node's descendants are skipped too: a post-load timer's image is never requested, so it warms no connection", () => {
  // a (a.com, 10 segments) -> frame document f (b.com, 1 segment) -> load; a -> script s -> timer t (disabled,
  // post-load) -> image p (b.com). a ends at 92 (10 segments: at the server at 60, the 10th reaches the
  // client at 80 + 12). f is requested at 92 and opens its own connection to b.com: established 132, at the
  // server 152, its one segment reaches the bottleneck at 162, departs 163.2, the client 173.2 = load.
  // Were p a root once t's edge is dropped, it would open b.com's connection at 0 and f would reuse it (133.2).
  const g = new PageBuilder()
    .resource('a', 'http://a.com/a', 10 * MSS, { serverDelay: 0 })
    .resource('f', 'http://b.com/f', MSS, { serverDelay: 0, mimeType: 'text/html' })
    .script('s', 1)
    .timer('t', 1, 0)
    .resource('p', 'http://b.com/p', MSS, { serverDelay: 0 })
    .edge('a', 'f').edge('f', 'load').edge('a', 's').edge('s', 't').edge('t', 'p')
    .build();
  g.nodes.find((x) => x.id === 't')!.disabled = true;
  const r = simulateChecked(g, { ...base, preconnect: false });
  phases(timingOf(r, 'f'), { handshake: 40, end: 173.2 });
  close(r.loadTime, 173.2, 'load');
  assert.equal(r.resources.some((x) => x.id === 'p'), false, 'p is not requested');
  assert.equal(r.nodes.some((x) => x.id === 'p' || x.id === 't'), false, 'neither t nor p runs');
  assert.equal(r.connections, 2);
});
