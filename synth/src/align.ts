/**
 * Computations keyed by order (`timer 50 in DOC#3`, `event window.message in DOC#0`, ...) aligned
 * across the two sides of a round trip by what caused them. Content keys are computed per graph, and
 * a key by order breaks when a replay interleaves independent computations of one kind in another
 * order (walmart.com: two `setTimeout(.., 50)` chains, set by two scripts that finished in the other
 * order) or fires one more or fewer. Each rebuilt computation of such a key takes the source
 * computation of its group (the key without its ordinal) that has the same causes (parents' keys,
 * already aligned) and, of those, the one sharing the most effects (children keyed by content: the
 * URLs it requested; www.snapdeal.com's four `setTimeout(.., 200)` of one DOMContentLoaded handler,
 * fired in another order, told apart by their images), the first on a tie; those with none get, in a
 * second pass, one by cause, else the one sharing the most effects, else the first left, as by order. Pure.
 */
import type { GraphIndex } from './graph-index.ts';

const ORDINAL = /^((?:timer|event) .*)#\d+$/;

interface Candidate {
  key: string;
  causes: string;
  effects: Set<string>;
}

/** First parts of the graph's order-keyed computations, in time order, with their group. */
function ordered(ix: GraphIndex, keys: Map<string, string>): { id: string; key: string; group: string }[] {
  const out: { id: string; key: string; group: string }[] = [];
  const seen = new Set<string>();
  for (const n of [...ix.graph.nodes].sort((a, b) => a.start - b.start || a.id.localeCompare(b.id))) {
    if (n.kind !== 'timer' && n.kind !== 'event') continue;
    const key = keys.get(n.id);
    const group = key?.match(ORDINAL)?.[1];
    if (key === undefined || group === undefined || seen.has(key)) continue;
    seen.add(key);
    out.push({ id: n.id, key, group });
  }
  return out;
}

/** The keys of a computation's causes: its parts' parents outside the computation, sorted. */
function causesOf(ix: GraphIndex, keys: Map<string, string>, id: string, rename: (k: string) => string): string {
  const own = keys.get(id);
  const from = new Set<string>();
  for (const p of ix.partsOf.get(id) ?? [id]) {
    for (const e of ix.parents.get(p) ?? []) {
      const k = keys.get(e.from);
      if (k !== undefined && k !== own) from.add(rename(k));
    }
  }
  return [...from].sort().join('|');
}

/** The content keys of a computation's effects: its parts' children outside it not keyed by order. */
function effectsOf(ix: GraphIndex, keys: Map<string, string>, id: string): Set<string> {
  const own = keys.get(id);
  const to = new Set<string>();
  for (const p of ix.partsOf.get(id) ?? [id]) {
    for (const e of ix.children.get(p) ?? []) {
      const k = keys.get(e.to);
      if (k !== undefined && k !== own && !ORDINAL.test(k)) to.add(k);
    }
  }
  return to;
}

/** The index of the candidate sharing the most effects (the first on a tie) among those `eligible`, else -1. */
function mostShared(candidates: Candidate[], effects: Set<string>, eligible: (c: Candidate) => boolean): number {
  let best = -1;
  let bestShared = -1;
  candidates.forEach((c, i) => {
    if (!eligible(c)) return;
    const shared = [...effects].filter((k) => c.effects.has(k)).length;
    if (shared > bestShared) [best, bestShared] = [i, shared];
  });
  return best;
}

/**
 * The rebuilt keys renamed so that each order-keyed computation carries the key of the source
 * computation it is aligned with (`builtKeys` is changed in place); a rebuilt computation with no
 * source counterpart left keeps a key no source node has.
 */
export function alignByCause(si: GraphIndex, sourceKeys: Map<string, string>, bi: GraphIndex, builtKeys: Map<string, string>): void {
  const groups = new Map<string, Candidate[]>();
  const identity = (k: string): string => k;
  for (const c of ordered(si, sourceKeys)) {
    (groups.get(c.group) ?? groups.set(c.group, []).get(c.group)!).push({ key: c.key, causes: causesOf(si, sourceKeys, c.id, identity), effects: effectsOf(si, sourceKeys, c.id) });
  }
  const rename = new Map<string, string>();
  const renamed = (k: string): string => rename.get(k) ?? k;
  const take = (b: { key: string; group: string }, i: number): void => {
    const [match] = (groups.get(b.group) ?? []).splice(i, 1);
    rename.set(b.key, match?.key ?? `${b.key} (rebuilt only)`);
  };
  // First by cause alone, so that a computation fired out of order does not take the place of one
  // that a later computation's cause names; then the rest, by cause (causes renamed meanwhile) or order.
  const deferred = [];
  for (const b of ordered(bi, builtKeys)) {
    const causes = causesOf(bi, builtKeys, b.id, renamed);
    const i = mostShared(groups.get(b.group) ?? [], effectsOf(bi, builtKeys, b.id), (c) => c.causes === causes);
    if (i >= 0) take(b, i);
    else deferred.push(b);
  }
  for (const b of deferred) {
    const causes = causesOf(bi, builtKeys, b.id, renamed);
    const effects = effectsOf(bi, builtKeys, b.id);
    const candidates = groups.get(b.group) ?? [];
    const byCause = mostShared(candidates, effects, (c) => c.causes === causes);
    take(b, byCause >= 0 ? byCause : Math.max(0, mostShared(candidates, effects, (c) => [...effects].some((k) => c.effects.has(k)))));
  }
  for (const [id, k] of builtKeys) {
    const to = rename.get(k);
    if (to !== undefined) builtKeys.set(id, to);
  }
}
