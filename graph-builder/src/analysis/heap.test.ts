import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { BinaryHeap } from './heap.ts';

test('pops in the order of `before`, ties broken as the comparator says', () => {
  fc.assert(
    fc.property(fc.array(fc.integer({ min: 0, max: 20 }), { maxLength: 200 }), (keys) => {
      // Items are indices; equal keys leave by index, so the expected order is a plain stable sort.
      const heap = new BinaryHeap<number>((a, b) => keys[a]! < keys[b]! || (keys[a] === keys[b] && a < b));
      keys.forEach((_, i) => heap.push(i));
      const out: number[] = [];
      while (heap.size) out.push(heap.pop()!);
      const expected = keys.map((_, i) => i).sort((a, b) => keys[a]! - keys[b]! || a - b);
      assert.deepEqual(out, expected);
    }),
  );
});

test('interleaved pushes and pops, peek, and an empty heap', () => {
  fc.assert(
    fc.property(fc.array(fc.option(fc.integer(), { nil: undefined }), { maxLength: 300 }), (ops) => {
      const heap = new BinaryHeap<number>((a, b) => a > b);
      const model: number[] = [];
      for (const op of ops) {
        if (op === undefined) {
          model.sort((a, b) => b - a);
          assert.equal(heap.peek(), model[0]);
          assert.equal(heap.pop(), model.shift());
        } else {
          heap.push(op);
          model.push(op);
        }
        assert.equal(heap.size, model.length);
      }
    }),
  );
});
