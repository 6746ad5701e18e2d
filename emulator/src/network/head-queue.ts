/**
 * Arrays read from a head index (the consumed prefix [0, head) left in place until it is worth dropping): the
 * two operations the bridge's queues and a sender's undetected-loss list share. Pure, in place.
 */

/** Puts `item` into items[head..] kept ascending by `key`, after the items of an equal key (arrival order). */
export function insertSorted<T>(items: T[], head: number, item: T, key: (x: T) => number): void {
  const k = key(item);
  let i = items.length;
  items.push(item);
  while (i > head && key(items[i - 1]!) > k) {
    items[i] = items[i - 1]!;
    i--;
  }
  items[i] = item;
}

/**
 * The head after dropping the consumed prefix when that is cheap: all of it once the queue is empty, else once
 * it is over 1,024 items and over half the array (amortised O(1) per item).
 */
export function compactedHead<T>(items: T[], head: number): number {
  if (head === items.length) {
    items.length = 0;
    return 0;
  }
  if (head > 1024 && head * 2 > items.length) {
    items.copyWithin(0, head);
    items.length -= head;
    return 0;
  }
  return head;
}
