/**
 * The simulator's clock: a binary min-heap of events ordered by (time, insertion order), so events at the
 * same instant run in the order they were scheduled and every run is reproducible.
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
  /** Popped events are recycled (the simulator never keeps one past its dispatch): less garbage per packet. */
  private free: SimEvent[] = [];
  private seq = 0;
  now = 0;

  get size(): number {
    return this.heap.length;
  }

  schedule(t: number, kind: number, a: unknown = null, b = 0): void {
    let ev = this.free.pop();
    if (ev) {
      ev.t = t;
      ev.seq = this.seq++;
      ev.kind = kind;
      ev.a = a;
      ev.b = b;
    } else ev = { t, seq: this.seq++, kind, a, b };
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

  /** Hands a dispatched event back for reuse. */
  release(ev: SimEvent): void {
    ev.a = null;
    this.free.push(ev);
  }

  /** Removes and returns the earliest event, advancing `now`; undefined when empty. */
  pop(): SimEvent | undefined {
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
