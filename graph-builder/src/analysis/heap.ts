/**
 * The project's one binary heap (`@pcp/graph-builder/heap`, no Node dependencies so the viewer's worker
 * bundles it): the priority walk (Algorithm 2), the viewer's row packing and the emulator's event queue.
 * `before(a, b)` is true when `a` must leave before `b`. Items that tie leave in an order that is
 * reproducible but fixed by the sifting; break ties in `before` (by index, insertion number...) to state it.
 */
export class BinaryHeap<T> {
  private readonly items: T[] = [];

  constructor(private readonly before: (a: T, b: T) => boolean) {}

  get size(): number {
    return this.items.length;
  }

  /** The item pop() would return, without removing it. */
  peek(): T | undefined {
    return this.items[0];
  }

  push(x: T): void {
    const h = this.items;
    let i = h.length;
    h.push(x);
    while (i > 0) {
      const p = (i - 1) >> 1;
      const pe = h[p]!;
      if (!this.before(x, pe)) break;
      h[i] = pe;
      i = p;
    }
    h[i] = x;
  }

  pop(): T | undefined {
    const h = this.items;
    const n = h.length;
    if (n === 0) return undefined;
    const top = h[0]!;
    const last = h.pop()!;
    const m = n - 1;
    if (m > 0) {
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        if (l >= m) break;
        const r = l + 1;
        let c = l;
        let ce = h[l]!;
        if (r < m && this.before(h[r]!, ce)) {
          c = r;
          ce = h[r]!;
        }
        if (!this.before(ce, last)) break;
        h[i] = ce;
        i = c;
      }
      h[i] = last;
    }
    return top;
  }
}
