/**
 * The simulator's clock: events ordered by (time, insertion order), so events at the same instant run in the
 * order they were scheduled and every run is reproducible.
 *
 * Most events go through a binary min-heap. The per-packet ones use FIFO lanes instead: packets leave the
 * shared bottleneck in order, so their arrivals at the client are scheduled in time order, and so are the
 * ACKs of all connections with the same client->server delay. A lane is a plain queue; pop() takes the
 * earliest of the heap's top and the lanes' heads. Same order, no heap work for the bulk of the events.
 */
export interface SimEvent {
  t: number;
  seq: number;
  kind: number;
  /** Event payloads: an object (connection, request, segment...) and a number (node index, generation). */
  a: unknown;
  b: number;
}

export class EventQueue {
  private heap: SimEvent[] = [];
  private lanes: Array<{ items: SimEvent[]; head: number; last: number }> = [];
  /**
   * Popped events are recycled (the simulator never keeps one past its dispatch), across simulations too:
   * objects that live through a whole run would otherwise be promoted to the old generation by every
   * scavenge that happens mid-run, and V8 then pretenures them, turning cheap scavenges into mark-compacts.
   */
  private static readonly pool: SimEvent[] = [];
  private readonly free = EventQueue.pool;
  private seq = 0;
  now = 0;

  get size(): number {
    return this.heap.length;
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
    const ev = this.alloc(t, kind, a, b);
    const h = this.heap;
    let i = h.length;
    h.push(ev);
    while (i > 0) {
      const p = (i - 1) >> 1;
      const pe = h[p]!;
      if (pe.t < t || (pe.t === t && pe.seq < ev.seq)) break;
      h[i] = pe;
      i = p;
    }
    h[i] = ev;
  }

  /** A new FIFO lane; events scheduled into it must come in non-decreasing time order. */
  addLane(): number {
    this.lanes.push({ items: [], head: 0, last: -Infinity });
    return this.lanes.length - 1;
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
    if (l.head > 1024 && l.head * 2 > l.items.length) {
      l.items = l.items.slice(l.head);
      l.head = 0;
    }
    l.items.push(ev);
  }

  /** Hands a dispatched event back for reuse. */
  release(ev: SimEvent): void {
    ev.a = null;
    if (this.free.length < 1 << 16) this.free.push(ev);
  }

  /** Removes and returns the earliest event, advancing `now`; undefined when empty. */
  pop(): SimEvent | undefined {
    let bestLane = -1;
    let best: SimEvent | undefined = this.heap[0];
    const lanes = this.lanes;
    for (let i = 0; i < lanes.length; i++) {
      const l = lanes[i]!;
      if (l.head >= l.items.length) continue;
      const e = l.items[l.head]!;
      if (best === undefined || e.t < best.t || (e.t === best.t && e.seq < best.seq)) {
        best = e;
        bestLane = i;
      }
    }
    if (bestLane >= 0) {
      const l = lanes[bestLane]!;
      l.items[l.head++] = undefined as unknown as SimEvent;
      this.now = best!.t;
      return best;
    }
    const h = this.heap;
    const n = h.length;
    if (n === 0) return undefined;
    const top = h[0]!;
    const last = h.pop()!;
    if (n > 1) {
      const m = n - 1;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        if (l >= m) break;
        const r = l + 1;
        let c = l;
        let ce = h[l]!;
        if (r < m) {
          const re = h[r]!;
          if (re.t < ce.t || (re.t === ce.t && re.seq < ce.seq)) {
            c = r;
            ce = re;
          }
        }
        if (last.t < ce.t || (last.t === ce.t && last.seq < ce.seq)) break;
        h[i] = ce;
        i = c;
      }
      h[i] = last;
    }
    this.now = top.t;
    return top;
  }
}
