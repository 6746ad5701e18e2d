/**
 * A dependency graph must be acyclic (the emulator and the critical path walk it in topological order).
 * Mis-resolved pointers in a log can still close a loop; each loop found is broken by removing the edge
 * that closes it, and named in a warning.
 */
import type { Edge } from '../format/types.ts';

export function breakCycles(nodeIds: string[], edges: Edge[], warnings: string[], describe: (id: string) => string = (id) => id): Edge[] {
  let current = edges;
  for (let round = 0; round < 10_000; round++) {
    const cycle = findCycle(nodeIds, current);
    if (!cycle) return current;
    const closing = cycle.edge;
    warnings.push(
      `cycle ${cycle.nodes.map(describe).join(' -> ')} -> ${describe(cycle.nodes[0]!)}: broken by removing edge ${closing.from} -> ${closing.to} (rule ${closing.rule})`,
    );
    current = current.filter((e) => e !== closing);
  }
  return current;
}

/** Returns one cycle (its nodes in order, and the edge closing it), or undefined when acyclic. */
export function findCycle(nodeIds: string[], edges: Edge[]): { nodes: string[]; edge: Edge } | undefined {
  const out = new Map<string, Edge[]>();
  for (const e of edges) (out.get(e.from) ?? out.set(e.from, []).get(e.from)!).push(e);
  const state = new Map<string, 1 | 2>(); // 1 on the stack, 2 done
  const all = new Set([...nodeIds, ...edges.map((e) => e.from)]);
  for (const root of all) {
    if (state.has(root)) continue;
    const stack: { id: string; i: number }[] = [{ id: root, i: 0 }];
    const via: Edge[] = [];
    state.set(root, 1);
    while (stack.length) {
      const top = stack[stack.length - 1]!;
      const list = out.get(top.id) ?? [];
      if (top.i >= list.length) {
        state.set(top.id, 2);
        stack.pop();
        via.pop();
        continue;
      }
      const e = list[top.i++]!;
      const s = state.get(e.to);
      if (s === 1) {
        const from = stack.findIndex((f) => f.id === e.to);
        return { nodes: stack.slice(from).map((f) => f.id), edge: e };
      }
      if (s === undefined) {
        state.set(e.to, 1);
        stack.push({ id: e.to, i: 0 });
        via.push(e);
      }
    }
  }
  return undefined;
}
