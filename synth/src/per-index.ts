/**
 * A value derived from a whole graph, computed once per GraphIndex: the first call builds it, later calls
 * with the same index return it (a graph is not changed once indexed). For the maps that per-node
 * questions read (which frame a load is of, a readystatechange's state), so that asking for each node
 * does not scan the graph each time. Pure.
 */
import type { GraphIndex } from './graph-index.ts';

export function perIndex<T>(build: (ix: GraphIndex) => T): (ix: GraphIndex) => T {
  const cache = new WeakMap<GraphIndex, T>();
  return (ix) => {
    if (cache.has(ix)) return cache.get(ix)!;
    const v = build(ix);
    cache.set(ix, v);
    return v;
  };
}
