import { test } from 'node:test';
import assert from 'node:assert/strict';
import { removeAt } from './remove-at.ts';

test('removeAt takes out the item at i and keeps the others in order, as splice(i, 1) does', () => {
  for (const i of [0, 2, 4]) {
    const a = ['a', 'b', 'c', 'd', 'e'];
    const b = [...a];
    removeAt(a, i);
    b.splice(i, 1);
    assert.deepEqual(a, b);
  }
  const one = [7];
  removeAt(one, 0);
  assert.deepEqual(one, []);
});
