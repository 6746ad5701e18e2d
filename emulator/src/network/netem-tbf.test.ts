import assert from 'node:assert/strict';
import { test } from 'node:test';
import { linkSchedule, type SliceSpec } from './link-schedule.ts';
import { maxSize, NetemTbf, type BridgePacket } from './netem-tbf.ts';

interface Pkt extends BridgePacket {
  name: string;
}

/**
 * Drives the pair as the simulator does: packets enter at their times, armed timers fire in time order; returns
 * each packet's departure (or 'dropped').
 */
function drive(slices: SliceSpec[], sliceMs: number, entries: Array<[string, number]>, limitBytes = 131072): Record<string, number | 'dropped'> {
  const timers: number[] = [];
  const out: Record<string, number | 'dropped'> = {};
  const pair = new NetemTbf<Pkt>(linkSchedule({ sliceMs, burstBytes: 3000, netemPair: true, slices }), limitBytes, {
    arm: (t) => timers.push(t),
    departed: (p, t) => (out[p.name] = t),
    dropped: (p) => (out[p.name] = 'dropped'),
  });
  let e = 0;
  for (;;) {
    const next = timers.length > 0 ? Math.min(...timers) : Infinity;
    if (e < entries.length && entries[e]![1] <= next) {
      const [name, t] = entries[e++]!;
      pair.enter({ name, bytes: 1500, sendAt: NaN }, t);
    } else if (next < Infinity) {
      timers.splice(timers.indexOf(next), 1);
      pair.fire(next);
    } else return out;
  }
}

// 3,000-byte bucket (two packets), 60 kbit/s = 7.5 bytes/ms: a 1,500-byte packet short of every token waits 200 ms.
test("a short packet is woken by a later packet's hand-over after the refill, not by its watchdog", () => {
  const slices = [
    { rateBps: 60_000, delayMs: 10 },
    { rateBps: 1_200_000, delayMs: 10 },
  ];
  // Alone: A and B leave on the bucket at 10 (netem's delay first), C finds 0 tokens, its watchdog at 10 + 1500 / 7.5
  // = 210; the refill at 100 wakes nothing.
  assert.deepEqual(drive(slices, 100, [['A', 0], ['B', 0], ['C', 0]]), { A: 10, B: 10, C: 210 });
  // E enters at 95: netem asks tbf (637.5 tokens, C still short, its watchdog re-armed at 210) and arms its own
  // watchdog for E at 105 (throttled). At 105, in slice 1, netem hands E on and asks tbf: the bucket is full since the
  // change at 100, C leaves, then E (1,500 tokens left).
  assert.deepEqual(drive(slices, 100, [['A', 0], ['B', 0], ['C', 0], ['E', 95]]), { A: 10, B: 10, C: 105, E: 105 });
  // F enters at 150, slice 1, with nothing in netem's line: it is not throttled, asks tbf at once, C leaves at 150.
  assert.deepEqual(drive(slices, 100, [['A', 0], ['B', 0], ['C', 0], ['F', 150]]), { A: 10, B: 10, C: 150, F: 160 });
});

test("tbf's watchdog is lost while netem is throttled: the packet waits for netem's next hand-over", () => {
  // One 1,000 ms slice at 60 kbit/s, 50 ms of delay. A and B leave at 50, C's watchdog at 50 + 200 = 250.
  const slices = [{ rateBps: 60_000, delayMs: 50 }];
  assert.deepEqual(drive(slices, 1000, [['A', 0], ['B', 0], ['C', 0]]), { A: 50, B: 50, C: 250 });
  // F enters at 240: C is still short (1,425 tokens; watchdog kept at 250), netem arms its own for F at 290 and is
  // throttled. At 250 tbf's watchdog schedules netem, which returns at once. At 290 netem hands F on and asks tbf:
  // 1,425 + 7.5 x 50 = 1,800 tokens, C leaves (300 left); F is 1,200 short, its watchdog at 290 + 160 = 450.
  assert.deepEqual(drive(slices, 1000, [['A', 0], ['B', 0], ['C', 0], ['F', 240]]), { A: 50, B: 50, C: 290, F: 450 });
});

test("netem's line is sorted by time to send, but a throttled netem holds an overtaking packet until its watchdog", () => {
  // Slice 0 delays 80 ms, slice 1 10 ms; plenty of rate. A enters at 90: netem's watchdog at 170, throttled. B enters
  // at 110 with 120 to send, ahead of A in the line, but netem returns at once until 170: then B and A, B first.
  const slices = [
    { rateBps: 100_000_000, delayMs: 80 },
    { rateBps: 100_000_000, delayMs: 10 },
  ];
  const out = drive(slices, 100, [['A', 90], ['B', 110]]);
  assert.deepEqual(out, { A: 170, B: 170 });
  assert.deepEqual(Object.keys(out), ['B', 'A']);
  // With the line empty when B enters (A gone at 30), B leaves at its own time.
  assert.deepEqual(drive(slices, 100, [['A', 10], ['B', 110]]), { A: 90, B: 120 });
});

test("tbf's FIFO limit in bytes drops at the hand-over", () => {
  // 4,500 bytes of limit: netem hands all five on at 10 before asking tbf; A, B, C fit, D and E are dropped. A and B
  // leave on the bucket, C on its watchdog.
  const slow = [{ rateBps: 60_000, delayMs: 10 }];
  assert.deepEqual(drive(slow, 1000, [['A', 0], ['B', 0], ['C', 0], ['D', 0], ['E', 0]], 4500), { A: 10, B: 10, C: 210, D: 'dropped', E: 'dropped' });
});

test("tbf's max_size: the bucket's time capped at 2^32 - 1 ns", () => {
  // 64 KiB at 60 kbit/s (7,500 bytes/s) takes 8.7 s: capped at 4.295 s, 32,212 bytes pass.
  assert.equal(maxSize(7500, 65536), 32212);
  // 2 kbit/s (250 bytes/s): 1,073 bytes, under a full-size frame; 3 kbit/s: 1,610.
  assert.equal(maxSize(250, 65536), 1073);
  assert.equal(maxSize(375, 65536), 1610);
  // 1 Mbit/s: 64 KiB in 0.52 s, under the cap: the bucket itself.
  assert.equal(maxSize(125000, 65536), 65536);
  // In a 2 kbit/s slice every full-size packet handed on is dropped; the next slice's pass.
  const slices = [
    { rateBps: 2_000, delayMs: 10 },
    { rateBps: 1_000_000, delayMs: 10 },
  ];
  assert.deepEqual(drive(slices, 100, [['A', 0], ['B', 95]]), { A: 'dropped', B: 105 });
});
