/**
 * The browser's main-thread scheduler (thesis §3.7.2, Algorithms 4 and 5): one evaluation queue per frame
 * (parsing before script/CSS evaluation), a global queue for timers and events that run first, and frame
 * switching: stay on the current frame while it has work, else try its subframes, then its parent, then any
 * frame with work. The document's event markers (DOMContentLoaded, load) are dispatched from the timer/event
 * queue (ResolvedConfig.eventDispatch). A computation that continues its parent's task (a 'split' part) goes to the front of its
 * queue: the browser does not interleave other work into one task.
 *
 * `order: 'ready'` (ResolvedConfig.mainThreadOrder) is Blink's own rule instead: one queue, in the order the
 * computations became ready (a task runs in the order it was posted among tasks of the same priority: the
 * parser's chunks, timers, network callbacks and events alike), continuations still first.
 */
import { K_EVENT, K_MARKER, K_PARSE, K_TIMER, type PageModel } from '../page-model.ts';

class Deque {
  items: number[] = [];
  head = 0;
  get empty(): boolean {
    return this.head >= this.items.length;
  }
  push(v: number): void {
    this.items.push(v);
  }
  pushFront(v: number): void {
    if (this.head > 0) this.items[--this.head] = v;
    else this.items.unshift(v);
  }
  shift(): number {
    return this.items[this.head++]!; // each node is queued once: no need to compact
  }
}

export class MainThread {
  busy = false;
  private current = -1;
  /** Computations queued in all frame queues and the timer/event queue: lets an idle check be O(1). */
  private queued = 0;
  private readonly prio = new Deque();
  private readonly parse: Deque[];
  private readonly evals: Deque[];
  private readonly inOrder: boolean;

  constructor(private readonly m: PageModel, order: 'thesis' | 'ready' = 'thesis') {
    this.inOrder = order === 'ready';
    this.parse = m.frames.map(() => new Deque());
    this.evals = m.frames.map(() => new Deque());
  }

  push(node: number): void {
    const k = this.m.kind[node]!;
    const q = this.inOrder ? this.prio : k === K_TIMER || k === K_EVENT || k === K_MARKER ? this.prio : k === K_PARSE ? this.parse[this.m.frame[node]!]! : this.evals[this.m.frame[node]!]!;
    this.queued++;
    if (this.m.continuation[node]) q.pushFront(node);
    else q.push(node);
  }

  /** Idle with work queued: next() would pick something (else it returns -1 and changes nothing). */
  get ready(): boolean {
    return !this.busy && this.queued > 0;
  }

  /** True when the frame has parsing or evaluation queued (not counting timers/events). */
  hasWork(f: number): boolean {
    return !this.parse[f]!.empty || !this.evals[f]!.empty;
  }

  /** Algorithm 4: the next activity to run, or -1 when the thread should idle. */
  next(): number {
    if (this.busy || this.queued === 0) return -1;
    this.queued--;
    if (!this.prio.empty) return this.prio.shift();
    if (this.current < 0) this.current = this.m.mainFrame;
    for (let hops = 0; hops <= this.m.frames.length; hops++) {
      const f = this.current;
      if (f >= 0 && f < this.parse.length) {
        if (!this.parse[f]!.empty) return this.parse[f]!.shift();
        if (!this.evals[f]!.empty) return this.evals[f]!.shift();
      }
      const nf = this.selectNextFrame(f);
      if (nf < 0) {
        this.current = -1;
        this.queued++; // unreachable while queued > 0, kept for a consistent count
        return -1;
      }
      this.current = nf;
    }
    return -1;
  }

  /** Algorithm 5: subframes first, then the parent, then any remaining frame with work. */
  private selectNextFrame(f: number): number {
    const frames = this.m.frames;
    if (f >= 0) {
      for (const s of frames[f]!.children) if (this.hasWork(s)) return s;
      const p = frames[f]!.parent;
      if (p >= 0 && this.hasWork(p)) return p;
    }
    for (let i = 0; i < frames.length; i++) if (i !== f && this.hasWork(i)) return i;
    return -1;
  }
}
