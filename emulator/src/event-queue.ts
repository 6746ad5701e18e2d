/**
 * The simulator's clock: events ordered by (time, insertion order), so events at the same instant run in the
 * order they were scheduled and every run is reproducible.
 *
 * Most events go through a binary min-heap (@pcp/graph-builder/heap). The per-packet ones use FIFO lanes instead: packets leave the
 * shared bottleneck in order, so their arrivals at the client are scheduled in time order, and so are the
 * ACKs of all connections with the same client->server delay. A lane is a ring of event records it owns;
 * pop() takes the earliest of the heap's top and the lanes' heads. Same order, no heap work for the bulk of the
 * events, and no free-list traffic for them either.
 */
import { BinaryHeap } from '@pcp/graph-builder/heap';

export interface SimEvent {
  t: number;
  seq: number;
  kind: number;
  /** Event payloads: an object (connection, request, segment...) and a number (node index, generation). */
  a: unknown;
  b: number;
}

/** A record for the free list or a lane's ring (one shape for both, so every use of SimEvent stays monomorphic). */
function newEvent(t: number, seq: number, kind: number, a: unknown, b: number): SimEvent {
  return { t, seq, kind, a, b };
}

/**
 * A FIFO lane: a ring of records it owns, items[(head + k) & mask] for k < count queued, written in place by
 * scheduleLane and handed out by pop() (a per-packet event costs no free-list pop and push, and its record is
 * one of a few dozen reused in turn). The ring always keeps one slot free past the tail: the slot pop() handed
 * out last, whose record the simulator may still be dispatching. The array and its records are kept (and reused
 * by the next simulation's queue, see recycle) rather than grown afresh each run.
 */
interface Lane {
  items: SimEvent[];
  head: number;
  count: number;
  mask: number;
  last: number;
}

/** The ring's first size (a power of two, as every later one). */
const LANE_RING_MIN = 16;

/**
 * The records of `items` in ring order from `head` (`count` of them) at the front of a ring twice its size (at
 * least LANE_RING_MIN), the rest new records. The old ring's other records, the one being dispatched among them,
 * are left out.
 */
export function grownRing(items: readonly SimEvent[], head: number, count: number): SimEvent[] {
  const size = Math.max(LANE_RING_MIN, items.length * 2);
  const mask = items.length - 1;
  const out: SimEvent[] = [];
  for (let k = 0; k < count; k++) out.push(items[(head + k) & mask]!);
  while (out.length < size) out.push(newEvent(0, 0, 0, null, 0));
  return out;
}

/** Time order, then scheduling order. */
function earlier(x: SimEvent, y: SimEvent): boolean {
  return x.t < y.t || (x.t === y.t && x.seq < y.seq);
}

export class EventQueue {
  private readonly heap = new BinaryHeap<SimEvent>(earlier);
  private lanes: Lane[] = [];
  /**
   * Popped events are recycled (the simulator never keeps one past its dispatch), across simulations too:
   * objects that live through a whole run would otherwise be promoted to the old generation by every
   * scavenge that happens mid-run, and V8 then pretenures them, turning cheap scavenges into mark-compacts.
   */
  private static readonly pool: SimEvent[] = [];
  /** Lane arrays handed back by finished queues (recycle), for the next ones. */
  private static readonly lanePool: SimEvent[][] = [];
  private readonly free = EventQueue.pool;
  /** The heap's record pop() handed out last: back to the free list at the next pop() (its dispatch is over by then). */
  private dispatched: SimEvent | null = null;
  private seq = 0;
  now = 0;

  get size(): number {
    return this.heap.size;
  }

  /** An event record, recycled from the free list when one is there (no allocation per packet). */
  private alloc(t: number, kind: number, a: unknown, b: number) {
    const ev = this.free.pop();
    if (!ev) return newEvent(t, this.seq++, kind, a, b);
    ev.t = t;
    ev.seq = this.seq++;
    ev.kind = kind;
    ev.a = a;
    ev.b = b;
    return ev;
  }

  schedule(t: number, kind: number, a: unknown = null, b = 0): void {
    this.heap.push(this.alloc(t, kind, a, b));
  }

  /** A new FIFO lane; events scheduled into it must come in non-decreasing time order. */
  addLane(): number {
    const items = EventQueue.lanePool.pop() ?? [];
    this.lanes.push({ items, head: 0, count: 0, mask: items.length - 1, last: -Infinity });
    return this.lanes.length - 1;
  }

  /**
   * The simulation is over (the queue is empty): its lane rings go back to the pool, their records' payloads
   * dropped (a pooled ring lives in the old generation: a pointer from it would keep this simulation alive).
   */
  recycle(): void {
    for (const l of this.lanes) {
      if (EventQueue.lanePool.length >= 64) break;
      for (const ev of l.items) ev.a = null;
      EventQueue.lanePool.push(l.items);
    }
    this.lanes = [];
  }

  /** Schedules into a FIFO lane (the heap for lane -1, or if the time would go backwards). */
  scheduleLane(lane: number, t: number, kind: number, a: unknown = null, b = 0): void {
    const l = this.lanes[lane];
    if (l === undefined || t < l.last) {
      this.schedule(t, kind, a, b);
      return;
    }
    l.last = t;
    // Keep the slot past the tail free: pop() handed its record out last, and it may be under dispatch.
    if (l.count + 1 >= l.items.length) {
      l.items = grownRing(l.items, l.head, l.count);
      l.head = 0;
      l.mask = l.items.length - 1;
    }
    const ev = l.items[(l.head + l.count++) & l.mask]!;
    ev.t = t;
    ev.seq = this.seq++;
    ev.kind = kind;
    ev.a = a;
    ev.b = b;
  }

  /**
   * Removes and returns the earliest event, advancing `now`; undefined when empty. The event is the caller's
   * until the next pop(), which takes its record back for reuse (a lane's stays in its ring, a heap record goes
   * to the free list): the simulator never keeps one past its dispatch.
   */
  pop(): SimEvent | undefined {
    const done = this.dispatched;
    if (done !== null) {
      this.dispatched = null;
      done.a = null;
      if (this.free.length < 1 << 16) this.free.push(done);
    }
    let bestLane = -1;
    let best: SimEvent | undefined = this.heap.peek();
    // The earliest (time, scheduling number) so far in locals: each lane head is read once.
    let bt = best === undefined ? Infinity : best.t;
    let bs = best === undefined ? Infinity : best.seq;
    const lanes = this.lanes;
    for (let i = 0; i < lanes.length; i++) {
      const l = lanes[i]!;
      if (l.count === 0) continue;
      const e = l.items[l.head]!;
      const t = e.t;
      if (t < bt || (t === bt && e.seq < bs)) {
        best = e;
        bt = t;
        bs = e.seq;
        bestLane = i;
      }
    }
    if (bestLane >= 0) {
      const l = lanes[bestLane]!;
      l.head = (l.head + 1) & l.mask;
      l.count--;
      this.now = best!.t;
      return best;
    }
    const top = this.heap.pop();
    if (top === undefined) return undefined;
    this.now = top.t;
    this.dispatched = top;
    return top;
  }
}
