/**
 * The per-slice link (Goel's bridge), hand-derived. Slices of 100 ms; 60 kbit/s is 7.5 bytes per ms, so a
 * 1500-byte packet takes 200 ms of fill: longer than a slice.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigError } from '../config.ts';
import { Rng } from '../rng.ts';
import { linkSchedule, ScheduleDelay, ScheduleLoss, scheduleMinTime, ScheduleServer } from './link-schedule.ts';

test('token bucket refilled at every slice start: a burst, then the rate, then the next refill', () => {
  // Bucket 3000 B. Slice 0 (rate 60 kbit/s): packets 1, 2 leave at 0 on the full bucket; packet 3 would need
  // 200 ms of fill, past the slice's end, so it leaves at 100 on the refilled bucket (1500 left), and packet 4
  // with it. Slice 1 has rate 0: packet 5 waits for slice 2's refill at 200 (1500 left).
  const s = linkSchedule({ sliceMs: 100, burstBytes: 3000, slices: [{ rateBps: 60e3 }, { rateBps: 0 }] });
  const server = new ScheduleServer(s);
  assert.deepEqual([0, 0, 0, 0, 0].map((t) => server.serve(t, 1500)), [0, 0, 100, 100, 200]);
  // At 250 (slice 2 = the first slice again): 1500 + 50 ms x 7.5 = 1875 >= 1500, leaves at once (375 left).
  assert.equal(server.serve(250, 1500), 250);
  // At 260: 375 + 75 = 450; the other 1050 would take 140 ms, past 300: it leaves on slice 3's refill.
  assert.equal(server.serve(260, 1500), 300);
});

test('watchdogWake: a packet short of tokens waits for the watchdog armed at its slice\'s rate, missing refills', () => {
  // Bucket 3000 B, 100 ms slices: slice 0 60 kbit/s (7.5 B/ms), slices 1 and 2 1.2 Mbit/s. Packets 1, 2 leave at 0
  // on the full bucket. Packet 3 is short by 1500 B: the watchdog is armed 1500 / 7.5 = 200 ms later, at 200;
  // slice 1's refill at 100 wakes nothing, so it leaves at 200 on slice 2's bucket (1500 left), packet 4 with it
  // (0 left). Packet 5 at 250: 0 + 50 ms x 150 B/ms = 7500, capped at 3000: leaves at once.
  const slices = [{ rateBps: 60e3 }, { rateBps: 1.2e6 }, { rateBps: 1.2e6 }];
  const woken = new ScheduleServer(linkSchedule({ sliceMs: 100, burstBytes: 3000, watchdogWake: true, slices }));
  assert.deepEqual([0, 0, 0, 0, 250].map((t) => woken.serve(t, 1500)), [0, 0, 200, 200, 250]);
  // Without it (the default) packets 3 and 4 leave on slice 1's refill at 100.
  const refilled = new ScheduleServer(linkSchedule({ sliceMs: 100, burstBytes: 3000, slices }));
  assert.deepEqual([0, 0, 0, 0, 250].map((t) => refilled.serve(t, 1500)), [0, 0, 100, 100, 250]);
  // A slice of rate 0 arms no watchdog: the packet leaves on the next refill, as without the switch.
  const idle = new ScheduleServer(linkSchedule({ sliceMs: 100, burstBytes: 1500, watchdogWake: true, slices: [{ rateBps: 0 }, { rateBps: 60e3 }] }));
  assert.deepEqual([0, 0].map((t) => idle.serve(t, 1500)), [0, 100]);
});

test('a pure rate (no burst): the bucket holds one packet, so packets leave a serialisation time apart', () => {
  // 1.2 Mbit/s = 150 B/ms: 10 ms per 1500-byte packet; the first leaves on the one-packet bucket.
  const server = new ScheduleServer(linkSchedule({ sliceMs: 100, slices: [{ rateBps: 1.2e6 }] }));
  assert.deepEqual([0, 0, 0, 35].map((t) => server.serve(t, 1500)), [0, 10, 20, 35]);
});

test('extra delay by the slice a packet entered in, order kept', () => {
  const d = new ScheduleDelay(linkSchedule({ sliceMs: 100, slices: [{ rateBps: 1e6, delayMs: 0 }, { rateBps: 1e6, delayMs: 50 }] }));
  assert.equal(d.hold(50, 60), 60);
  assert.equal(d.hold(120, 130), 180);
  assert.equal(d.hold(190, 195), 245);
  // Entered in slice 2 (no extra delay), but stays behind the packet before it.
  assert.equal(d.hold(200, 201), 245);
  assert.equal(d.hold(260, 270), 270);
});

test('with reorder, each packet keeps its own slice\'s delay: after a drop, later packets overtake (netem)', () => {
  const s = linkSchedule({ sliceMs: 100, reorder: true, slices: [{ rateBps: 1e6, delayMs: 80 }, { rateBps: 1e6, delayMs: 0 }] });
  const d = new ScheduleDelay(s);
  assert.equal(d.hold(50, 60), 140);
  // Entered in slice 1 (no delay): out at 130, before the packet of slice 0 (140).
  assert.equal(d.hold(120, 130), 130);
  assert.equal(d.hold(150, 151), 151);
  assert.equal(linkSchedule({ sliceMs: 100, slices: [{ rateBps: 1e6 }] }).reorder, false);
});

test('loss by the slice a packet entered in: none in a lossless slice, the slice probability in a lossy one', () => {
  const s = linkSchedule({ sliceMs: 100, slices: [{ rateBps: 1e6 }, { rateBps: 1e6, loss: 0.3 }] });
  const loss = new ScheduleLoss(s, new Rng(1, 4));
  for (let i = 0; i < 1000; i++) assert.equal(loss.lost(i / 10), false);
  let lost = 0;
  const n = 4000;
  for (let i = 0; i < n; i++) if (loss.lost(100 + (i % 100))) lost++;
  // Binomial(4000, 0.3): sd 29; 5 sd either way.
  assert.ok(Math.abs(lost - 0.3 * n) < 5 * Math.sqrt(n * 0.3 * 0.7), `${lost} of ${n} lost`);
});

test('bad schedules are refused with one-line errors', () => {
  assert.throws(() => linkSchedule({ sliceMs: 0, slices: [{ rateBps: 1 }] }), ConfigError);
  assert.throws(() => linkSchedule({ sliceMs: 70, slices: [] }), /no slices/);
  assert.throws(() => linkSchedule({ sliceMs: 70, slices: [{ rateBps: 1e6, loss: 1 }] }), /loss must be in \[0, 1\)/);
  assert.throws(() => linkSchedule({ sliceMs: 70, slices: [{ rateBps: -1 }] }), /rate must be/);
  assert.throws(() => linkSchedule({ sliceMs: 70, slices: [{ rateBps: 0 }] }), /nothing can cross/);
  assert.throws(() => linkSchedule({ sliceMs: 70, queuePackets: 0, slices: [{ rateBps: 1e6 }] }), /queue/);
});

test('the earliest time a schedule can have carried some bytes: a bucket per slice start, then the rate', () => {
  const s = linkSchedule({ sliceMs: 100, burstBytes: 3000, slices: [{ rateBps: 60e3 }, { rateBps: 0 }] });
  assert.equal(scheduleMinTime(s, 3000), 0);
  assert.equal(scheduleMinTime(s, 3750), 100); // 3000 at 0, then 7.5 B/ms: 750 more by 100
  assert.equal(scheduleMinTime(s, 3600), 80);
  assert.equal(scheduleMinTime(s, 6750), 100); // slice 1's bucket at 100
  assert.equal(scheduleMinTime(s, 6760), 200); // slice 1 has no rate: slice 2's bucket at 200
});
