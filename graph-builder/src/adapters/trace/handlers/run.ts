/**
 * Runs a set of handlers over trace events: reset, one pass routing each event to the handlers of its
 * name, then finalize in dependency order (a handler's `deps` are finalized before it and their data is
 * passed to its `finalize`). Returns each handler's data by name.
 */
import type { Handler } from '../../handler.ts';

/** Handlers of one set have different deps: the set is typed by data only. */
type AnyHandler<E> = Handler<E, unknown, any>;
export type DataOf<H extends Record<string, { data(): unknown }>> = { [K in keyof H]: ReturnType<H[K]['data']> };

/** Names in an order where each handler comes after its deps; throws on an unknown dep or a cycle. */
export function finalizeOrder(deps: Record<string, readonly string[]>): string[] {
  const order: string[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (name: string, from: string[]) => {
    if (state.get(name) === 'done') return;
    if (state.get(name) === 'visiting') throw new Error(`handler dependency cycle: ${[...from, name].join(' -> ')}`);
    if (!(name in deps)) throw new Error(`handler ${from[from.length - 1]} depends on unknown handler ${name}`);
    state.set(name, 'visiting');
    for (const d of deps[name]!) visit(d, [...from, name]);
    state.set(name, 'done');
    order.push(name);
  };
  for (const name of Object.keys(deps)) visit(name, []);
  return order;
}

export function runHandlers<E extends { name: string }, H extends Record<string, AnyHandler<E>>>(events: Iterable<E>, handlers: H): DataOf<H> {
  const route = new Map<string, AnyHandler<E>[]>();
  for (const h of Object.values(handlers)) {
    h.reset?.();
    for (const k of h.kinds) (route.get(k) ?? route.set(k, []).get(k)!).push(h);
  }
  for (const e of events) {
    const hs = route.get(e.name);
    if (hs) for (const h of hs) h.handleEvent(e);
  }
  const out: Record<string, unknown> = {};
  const order = finalizeOrder(Object.fromEntries(Object.entries(handlers).map(([name, h]) => [name, h.deps ?? []])));
  for (const name of order) {
    const h = handlers[name]!;
    h.finalize(Object.fromEntries((h.deps ?? []).map((d: string) => [d, out[d]])));
    out[name] = h.data();
  }
  return out as DataOf<H>;
}

/** A handler's data once finalized (asking before is a bug in the handler set). */
export function ready<T>(data: T | undefined, handler: string): T {
  if (data === undefined) throw new Error(`${handler}: data() before finalize()`);
  return data;
}
