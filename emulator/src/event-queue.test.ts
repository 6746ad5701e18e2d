import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EventQueue, grownRing, type SimEvent } from './event-queue.ts';
import { Rng } from './rng.ts';

/** Pops every event: [time, kind, b] in the order the queue gives them. */
function drain(q: EventQueue): Array<[number, number, number]> {
  const out: Array<[number, number, number]> = [];
  for (let ev = q.pop(); ev; ev = q.pop()) {
    assert.equal(q.now, ev.t);
    out.push([ev.t, ev.kind, ev.b]);
  }
  return out;
}

test('events come out by time, then in the order they were scheduled, lanes and heap alike', () => {
  const q = new EventQueue();
  const lane = q.addLane();
  q.schedule(5, 1, null, 0);
  q.scheduleLane(lane, 5, 2, null, 1); // same instant, scheduled later: after the heap's
  q.schedule(3, 1, null, 2);
  q.scheduleLane(lane, 7, 2, null, 3);
  q.schedule(5, 1, null, 4); // same instant again, last
  q.scheduleLane(lane, 6, 2, null, 5); // time would go backwards in the lane (7 then 6): through the heap
  assert.deepEqual(drain(q).map((e) => e[2]), [2, 0, 1, 4, 5, 3]);
  assert.equal(q.pop(), undefined);
});

test('a long run through two lanes and the heap keeps (time, scheduling order), with events scheduled while others are dispatched', () => {
  const q = new EventQueue();
  const lanes = [q.addLane(), q.addLane()];
  const rng = new Rng(5, 1);
  const expected: Array<[number, number, number]> = [];
  let seq = 0;
  const add = (t: number): void => {
    const which = Math.floor(rng.next() * 3);
    if (which === 2) q.schedule(t, 9, { seq }, seq);
    else q.scheduleLane(lanes[which]!, t, which, { seq }, seq);
    expected.push([t, seq, 0]);
    seq++;
  };
  // Lane times grow by whole ms, so ties between lanes and the heap are frequent; 5,000 events make the
  // lanes pass their compaction point.
  let t = 0;
  for (let i = 0; i < 50; i++) add(t);
  const seen: number[] = [];
  let last = -1;
  let lastSeq = -1;
  for (let ev = q.pop(); ev; ev = q.pop()) {
    assert.ok(ev.t > last || (ev.t === last && ev.b > lastSeq), `event ${ev.b} at ${ev.t} after ${lastSeq} at ${last}`);
    assert.equal((ev.a as { seq: number }).seq, ev.b, 'the payload travels with its event');
    last = ev.t;
    lastSeq = ev.b;
    seen.push(ev.b);
    if (seq < 5000) {
      t = Math.max(t, ev.t) + Math.floor(rng.next() * 2);
      add(t); // scheduled while ev is being dispatched, as the simulator's handlers do
    }
  }
  assert.equal(seen.length, 5000);
  assert.deepEqual([...seen].sort((a, b) => a - b), expected.map((e) => e[1]));
});

test('a finished queue hands its lanes to the next one, which starts empty', () => {
  const a = new EventQueue();
  const la = a.addLane();
  for (let i = 0; i < 100; i++) a.scheduleLane(la, i, 1, { i }, i);
  assert.equal(drain(a).length, 100);
  a.recycle();
  const b = new EventQueue();
  const lb = b.addLane();
  assert.equal(b.pop(), undefined);
  b.scheduleLane(lb, 2, 1, null, 7);
  b.schedule(1, 1, null, 8);
  assert.deepEqual(drain(b), [[1, 1, 8], [2, 1, 7]]);
});

test('an event scheduled into a lane while the lane\'s last event is dispatched keeps its payload', () => {
  const q = new EventQueue();
  const lane = q.addLane();
  q.scheduleLane(lane, 1, 1, { n: 1 }, 1);
  const ev = q.pop()!;
  q.scheduleLane(lane, 2, 1, { n: 2 }, 2); // the lane ran empty: it starts again at its first slot
  assert.deepEqual([ev.t, ev.b, ev.a], [1, 1, { n: 1 }]);
  const next = q.pop()!;
  assert.deepEqual([next.t, next.b, next.a], [2, 2, { n: 2 }]);
});

test('a lane ring grows before its tail reaches the record handed out last, which a dispatch may still be reading', () => {
  const q = new EventQueue();
  const lane = q.addLane();
  // The ring starts at 16 records: 15 queued fill it but for one slot.
  for (let i = 0; i < 15; i++) q.scheduleLane(lane, i, 1, { i }, i);
  const ev = q.pop()!; // slot 0 handed out; 14 queued, head at slot 1
  assert.deepEqual([ev.t, ev.b], [0, 0]);
  // The 15th queued would go to slot (1 + 14) & 15 = 15, the 16th to slot 0: ev's. The ring grows instead.
  q.scheduleLane(lane, 15, 1, { i: 15 }, 15);
  q.scheduleLane(lane, 16, 1, { i: 16 }, 16);
  assert.deepEqual([ev.t, ev.b, ev.a], [0, 0, { i: 0 }], 'the record under dispatch is untouched');
  const out = drain(q);
  assert.deepEqual(out.map((e) => e[2]), [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16]);
});

test('grownRing: the queued records in ring order at the front, twice the size, new records behind them', () => {
  const rec = (b: number): SimEvent => ({ t: b, seq: b, kind: 1, a: null, b });
  const items = Array.from({ length: 16 }, (_, i) => rec(i));
  // Queued: slots 14, 15, 0, 1 (head 14, count 4); slot 13 was handed out last.
  const grown = grownRing(items, 14, 4);
  assert.equal(grown.length, 32);
  assert.deepEqual(grown.slice(0, 4), [items[14], items[15], items[0], items[1]]);
  assert.ok(grown.slice(4).every((e) => !items.includes(e)), 'the rest are records of the new ring alone');
  assert.ok(!grown.includes(items[13]!), 'the record handed out last is left out');
  assert.equal(grownRing([], 0, 0).length, 16, 'an empty lane gets the first size');
});

test('an event is the caller\'s until the next pop(): a heap record then goes back to the free list, a lane\'s stays in its ring', () => {
  const q = new EventQueue();
  const lane = q.addLane();
  q.scheduleLane(lane, 1, 1, { n: 1 }, 1);
  q.schedule(2, 2, { n: 2 }, 2);
  q.schedule(3, 2, { n: 3 }, 3);
  const a = q.pop()!;
  assert.deepEqual([a.b, a.a], [1, { n: 1 }]);
  const b = q.pop()!;
  assert.deepEqual([b.b, b.a], [2, { n: 2 }]);
  q.schedule(2.5, 2, { n: 4 }, 4); // scheduled while b is dispatched: b's record is not reused yet
  assert.deepEqual(b.a, { n: 2 });
  assert.equal(q.pop()!.b, 4);
  assert.equal(b.a, null, 'b went back to the free list, its payload dropped');
  assert.deepEqual(a.a, { n: 1 }, 'a lane record keeps its payload until its slot is written again');
  q.schedule(4, 2, { n: 5 }, 5);
  assert.equal(q.pop()!.b, 3);
  assert.equal(q.pop()!.b, 5);
  assert.equal(q.pop(), undefined);
  q.recycle();
  const next = new EventQueue();
  next.addLane();
  assert.equal(a.a, null, 'the pooled ring held no payload of the finished run');
});
