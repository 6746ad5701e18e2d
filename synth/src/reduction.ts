/**
 * The transitive reduction of a keyed edge set: the edges no longer path implies. Two builders may
 * draw one ordering differently (the trace builder draws a parser-inserted script's evaluation from
 * its parse chunk as well as from its download, which the chunk already precedes; the original
 * builder only through the download): on both graphs' reductions such an edge is redundant on the side
 * that has it. Edges inside a cycle (parts of two computations folded into one key each can close one)
 * are kept. Pure.
 */

/** The edges (`from -> to` pairs) of `edges` that no other path between their ends implies. */
export function transitiveReduction<E extends { from: string; to: string }>(edges: E[]): E[] {
  const ids = new Map<string, number>();
  const id = (k: string): number => ids.get(k) ?? (ids.set(k, ids.size), ids.size - 1);
  const pairs = edges.map((e) => [id(e.from), id(e.to)] as const);
  const n = ids.size;
  const out: number[][] = Array.from({ length: n }, () => []);
  for (const [a, b] of pairs) if (a !== b) out[a]!.push(b);
  const comp = components(out);
  const m = Math.max(-1, ...comp) + 1;
  // The condensation: components in reverse topological order (Tarjan numbers sinks first).
  const succ: Set<number>[] = Array.from({ length: m }, () => new Set());
  for (let a = 0; a < n; a++) for (const b of out[a]!) if (comp[a] !== comp[b]) succ[comp[a]!]!.add(comp[b]!);
  const words = Math.ceil(m / 32);
  const reach = Array.from({ length: m }, () => new Uint32Array(words));
  const has = (r: Uint32Array, c: number): boolean => (r[c >>> 5]! & (1 << (c & 31))) !== 0;
  for (let c = 0; c < m; c++) {
    for (const d of succ[c]!) {
      const r = reach[c]!;
      r[d >>> 5]! |= 1 << (d & 31);
      const rd = reach[d]!;
      for (let w = 0; w < words; w++) r[w]! |= rd[w]!;
    }
  }
  return edges.filter((_, i) => {
    const [a, b] = pairs[i]!;
    const ca = comp[a]!;
    const cb = comp[b]!;
    if (ca === cb) return true;
    for (const d of succ[ca]!) if (d !== cb && has(reach[d]!, cb)) return false;
    return true;
  });
}

/** Strongly connected components (iterative Tarjan); component numbers in reverse topological order. */
function components(out: number[][]): number[] {
  const n = out.length;
  const index = new Int32Array(n).fill(-1);
  const low = new Int32Array(n);
  const comp = new Array<number>(n).fill(-1);
  const onStack = new Uint8Array(n);
  const stack: number[] = [];
  let next = 0;
  let count = 0;
  for (let root = 0; root < n; root++) {
    if (index[root] !== -1) continue;
    const work: [number, number][] = [[root, 0]];
    index[root] = low[root] = next++;
    stack.push(root);
    onStack[root] = 1;
    while (work.length) {
      const top = work[work.length - 1]!;
      const [v, i] = top;
      if (i < out[v]!.length) {
        top[1]++;
        const w = out[v]![i]!;
        if (index[w] === -1) {
          index[w] = low[w] = next++;
          stack.push(w);
          onStack[w] = 1;
          work.push([w, 0]);
        } else if (onStack[w]) low[v] = Math.min(low[v]!, index[w]!);
        continue;
      }
      work.pop();
      if (work.length) {
        const u = work[work.length - 1]![0];
        low[u] = Math.min(low[u]!, low[v]!);
      }
      if (low[v] === index[v]) {
        for (let w = -1; w !== v;) {
          w = stack.pop()!;
          onStack[w] = 0;
          comp[w] = count;
        }
        count++;
      }
    }
  }
  return comp;
}
