import { test } from 'node:test';
import assert from 'node:assert/strict';
import { endingBy, pacePlan, shortenedBy } from './pace.ts';

test('pacePlan: recorded chunks scaled to the body, near ones merged, the last ending the body', () => {
  assert.deepEqual(pacePlan([[0, 100], [0.4, 100], [50, 100], [100.2, 100]], 400), [{ atMs: 0, end: 200 }, { atMs: 50, end: 300 }, { atMs: 100.2, end: 400 }]);
  assert.deepEqual(pacePlan([[0, 10], [20, 10]], 30), [{ atMs: 0, end: 15 }, { atMs: 20, end: 30 }]);
  assert.deepEqual(pacePlan([[228, 10]], 30), [{ atMs: 228, end: 30 }], 'one chunk: a body held, then sent whole');
  assert.deepEqual(pacePlan([], 0), [{ atMs: 0, end: 0 }]);
  assert.deepEqual(pacePlan([[10, 5], [3, 5]], 10), [{ atMs: 10, end: 10 }], 'never earlier than a previous step');
});

test('shortenedBy (a connection set-up taken off): it comes off the body first, then off the delay, never below zero', () => {
  const steps = [{ atMs: 0, end: 100 }, { atMs: 40, end: 200 }, { atMs: 120, end: 300 }];
  assert.deepEqual(shortenedBy(30, steps, 50), { delayMs: 30, steps: [{ atMs: 0, end: 200 }, { atMs: 70, end: 300 }] }, 'steps before the set-up\'s end merge into the first');
  assert.deepEqual(shortenedBy(30, steps, 140), { delayMs: 10, steps: [{ atMs: 0, end: 300 }] }, 'body used up: the rest off the delay');
  assert.deepEqual(shortenedBy(30, steps, 500), { delayMs: 0, steps: [{ atMs: 0, end: 300 }] });
  assert.deepEqual(shortenedBy(30, steps, 0), { delayMs: 30, steps });
  assert.deepEqual(shortenedBy(30, [{ atMs: 0, end: 9 }], 12), { delayMs: 18, steps: [{ atMs: 0, end: 9 }] }, 'an unpaced body: all off the delay');
});

test('endingBy: a recorded span that already holds the browser\'s waits ends by its page time, never later, never before now', () => {
  // youdao's jquery-1.12.3.min.js as session 16's load served it: requested by the preload scanner at 793 ms on the
  // page's clock, held by Blink until it reached the site at 983 ms; the site holds the 97,870-byte body its recorded
  // 387 ms after the headers ([[0, 0], [387, 97870]]), so it ended at 983 + 387 = 1,370, the node 577 ms long.
  const steps = [{ atMs: 0, end: 0 }, { atMs: 387, end: 97870 }];
  // Its end on the page's clock is its request's plus its span: 793 + 387 = 1,180, 1,180 - 983 = 197 ms after it
  // arrived: the body comes 387 - 190 = 197 ms after the headers, the node 387 ms long again.
  assert.deepEqual(endingBy(0, steps, 1180 - 983), { delayMs: 0, steps: [{ atMs: 0, end: 0 }, { atMs: 197, end: 97870 }] });
  // Asked for on time (no wait in the browser): its whole recorded span.
  assert.deepEqual(endingBy(0, steps, 387), { delayMs: 0, steps });
  // Asked for early: never longer than recorded (the site does not wait for the page's time).
  assert.deepEqual(endingBy(0, steps, 900), { delayMs: 0, steps });
  // Asked for after its page time: everything at once ([0, 0] and the body merge into one write).
  assert.deepEqual(endingBy(0, steps, -50), { delayMs: 0, steps: [{ atMs: 0, end: 97870 }] });
  // A server delay of 40 before a 100 ms body, to end 70 ms after the request: the body first (100 -> 30), the delay kept.
  assert.deepEqual(endingBy(40, [{ atMs: 0, end: 10 }, { atMs: 100, end: 20 }], 70), { delayMs: 40, steps: [{ atMs: 0, end: 10 }, { atMs: 30, end: 20 }] });
  // To end 25 ms after it: the body all gone (100), then 15 off the delay.
  assert.deepEqual(endingBy(40, [{ atMs: 0, end: 10 }, { atMs: 100, end: 20 }], 25), { delayMs: 25, steps: [{ atMs: 0, end: 20 }] });
});

test('endingBy with a least time: a held preload ends by its page time, never sooner than its bytes\' own span', () => {
  // www.capitalone.com's option-1-btn.png (3,617 bytes): drawn 2,859 ms from the 2016 scanner's ask (2,531) to its
  // end (5,390), sent at 5,205 after Blink's hold, 185 ms on the network. Served whole after its request.
  const steps = [{ atMs: 0, end: 0 }, { atMs: 2859, end: 3617 }];
  // The replay's request reached the site at 4,985 on the page's clock (Blink held it there too): to end by 5,390,
  // 405 ms after it, the body 2,859 - 2,454 = 405 ms after the headers.
  assert.deepEqual(endingBy(0, steps, 5390 - 4985, 185), { delayMs: 0, steps: [{ atMs: 0, end: 0 }, { atMs: 405, end: 3617 }] });
  // Reaching the site at 5,300 (a slower replay): 90 ms would be left, but its bytes took 185 on the network.
  assert.deepEqual(endingBy(0, steps, 5390 - 5300, 185), { delayMs: 0, steps: [{ atMs: 0, end: 0 }, { atMs: 185, end: 3617 }] });
  // After its page time: still 185.
  assert.deepEqual(endingBy(0, steps, -50, 185), { delayMs: 0, steps: [{ atMs: 0, end: 0 }, { atMs: 185, end: 3617 }] });
  // A least time longer than the schedule never lengthens it.
  assert.deepEqual(endingBy(0, [{ atMs: 0, end: 0 }, { atMs: 100, end: 10 }], 50, 300), { delayMs: 0, steps: [{ atMs: 0, end: 0 }, { atMs: 100, end: 10 }] });
});
