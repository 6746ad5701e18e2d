/**
 * Phase 1: which activity slices are computations of their own. Parsing is not (its work is the
 * document's tokens); a callback or microtask inside a computation is part of it; an event or XHR
 * dispatch counts only when page code ran in it (a FunctionCall inside), or, for an event a script
 * dispatched itself (dispatchEvent runs listeners without a FunctionCall), when its listeners issued work.
 */
import type { ActivityContext } from './context.ts';
import { handlerOf } from './slice-tree.ts';

export const COMPUTATION_SLICES = new Set(['script', 'timer', 'event', 'xhr', 'style', 'function', 'microtask']);
/** Slices that are part of the computation enclosing them rather than computations of their own. */
const PART_OF_PARENT = new Set(['function', 'microtask']);

export function selectComputations(ctx: ActivityContext): void {
  const { slices, load } = ctx;
  // Slices that issued something: a request, a timer, an async task.
  const issuedSomething = new Set<number>();
  for (const r of load.requests) if (r.runningAt !== undefined) issuedSomething.add(r.runningAt);
  for (const t of load.timers) if (t.runningAt !== undefined) issuedSomething.add(t.runningAt);
  for (const sl of slices) if (sl.scheduledBy !== undefined) issuedSomething.add(sl.scheduledBy);

  for (const sl of slices) {
    if (!COMPUTATION_SLICES.has(sl.kind) || sl.name === 'UpdateLayoutTree') continue;
    const parent = sl.parent !== undefined ? slices[sl.parent] : undefined;
    if (PART_OF_PARENT.has(sl.kind) && parent && COMPUTATION_SLICES.has(parent.kind)) continue;
    const synthetic = sl.kind === 'event' && parent !== undefined && COMPUTATION_SLICES.has(parent.kind) && issuedSomething.has(sl.index);
    if ((sl.kind === 'event' || sl.kind === 'xhr') && !handlerOf(slices, sl) && !synthetic) continue;
    if (sl.kind === 'microtask' && !handlerOf(slices, sl)) continue;
    ctx.compOfSlice.set(sl.index, `comp_${ctx.compSlices.length}`);
    ctx.compSlices.push(sl);
  }
}
