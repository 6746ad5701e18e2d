/**
 * The simulator's clock: events ordered by (time, insertion order), so events at the same instant run in the
 * order they were scheduled and every run is reproducible.
 *
 * Most events go through a binary min-heap (@pcp/graph-builder/heap). The per-packet ones use FIFO lanes instead: packets leave the
 * shared bottleneck in order, so their arrivals at the client are scheduled in time order, and so are the
 * ACKs of all connections with the same client->server delay. A lane is a plain queue; pop() takes the
 * earliest of the heap's top and the lanes' heads. Same order, no heap work for the bulk of the events.
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

/**
 * A FIFO lane: items[head..tail) are queued. The array is kept (and reused by the next simulation's queue,
 * see recycle) rather than grown afresh each run: a lane holds about one event per packet, and regrowing
 * it every simulation was a fifth of the emulator's allocation.
 */
interface Lane {
  items: SimEvent[];
  head: number;
  tail: number;
  last: number;
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
  private seq = 0;
  now = 0;

  get size(): number {
    return this.heap.size;
  }

  /** An event record, recycled from the free list when one is there (no allocation per packet). */
  private alloc(t: number, kind: number, a: unknown, b: number) {
    const ev = this.free.pop();
    if (!ev) return { t, seq: this.seq++, kind, a, b };
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
    this.lanes.push({ items: EventQueue.lanePool.pop() ?? [], head: 0, tail: 0, last: -Infinity });
    return this.lanes.length - 1;
  }

  /**
   * The simulation is over (the queue is empty): its lane arrays go back to the pool. Their slots still
   * point at dispatched events, which are pooled themselves and hold no payload.
   */
  recycle(): void {
    for (const l of this.lanes) if (EventQueue.lanePool.length < 64) EventQueue.lanePool.push(l.items);
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
    const ev = this.alloc(t, kind, a, b);
    if (l.head === l.tail) {
      l.head = 0;
      l.tail = 0;
    } else if (l.head > 1024 && l.head * 2 > l.tail) {
      l.items.copyWithin(0, l.head, l.tail);
      l.tail -= l.head;
      l.head = 0;
    }
    if (l.tail < l.items.length) l.items[l.tail++] = ev;
    else {
      l.items.push(ev);
      l.tail++;
    }
  }

  /** Hands a dispatched event back for reuse. */
  release(ev: SimEvent): void {
    ev.a = null;
    if (this.free.length < 1 << 16) this.free.push(ev);
  }

  /** Removes and returns the earliest event, advancing `now`; undefined when empty. */
  pop(): SimEvent | undefined {
    let bestLane = -1;
    let best: SimEvent | undefined = this.heap.peek();
    // The earliest (time, scheduling number) so far in locals: each lane head is read once.
    let bt = best === undefined ? Infinity : best.t;
    let bs = best === undefined ? Infinity : best.seq;
    const lanes = this.lanes;
    for (let i = 0; i < lanes.length; i++) {
      const l = lanes[i]!;
      if (l.head >= l.tail) continue;
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
      lanes[bestLane]!.head++;
      this.now = best!.t;
      return best;
    }
    const top = this.heap.pop();
    if (top === undefined) return undefined;
    this.now = top.t;
    return top;
  }
}
