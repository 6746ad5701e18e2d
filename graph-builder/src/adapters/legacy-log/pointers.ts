/**
 * Pointer resolution. The log links records by C++ object addresses, and the allocator reuses an
 * address once its object dies, so one address may name several records over a load. A reference made
 * at time t resolves to the latest object with that address created at or before t (allowing a small
 * clock slack), else to the earliest one.
 */
import { isNil } from './records.ts';

const SLACK_S = 1e-6;

export class PointerIndex<T> {
  private readonly map = new Map<string, { time: number; target: T }[]>();
  private sorted = true;

  add(pointer: string, time: number, target: T): void {
    if (isNil(pointer)) return;
    const list = this.map.get(pointer);
    if (list) {
      list.push({ time, target });
      this.sorted = false;
    } else this.map.set(pointer, [{ time, target }]);
  }

  lookup(pointer: string | undefined, at: number): T | undefined {
    if (pointer === undefined || isNil(pointer)) return undefined;
    const list = this.map.get(pointer);
    if (!list) return undefined;
    if (!this.sorted) {
      for (const l of this.map.values()) l.sort((a, b) => a.time - b.time);
      this.sorted = true;
    }
    let best = list[0]!;
    for (const e of list) {
      if (e.time <= at + SLACK_S) best = e;
      else break;
    }
    return best.target;
  }
}
