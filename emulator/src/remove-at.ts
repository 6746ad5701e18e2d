/**
 * Removes items[i] in place, the items after it moved up one (their order kept). `splice(i, 1)` does the same
 * but returns a new array of the removed item: a builtin call and an allocation each time, on the per-response
 * paths (a send buffer's finished exchange, a connection's delivered one) where the arrays hold a few items.
 */
export function removeAt<T>(items: T[], i: number): void {
  const n = items.length - 1;
  for (let k = i; k < n; k++) items[k] = items[k + 1]!;
  items.pop(); // not `length = n`: V8 sets an array's length through the runtime, pop() it inlines
}
