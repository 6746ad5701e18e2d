import { test } from 'node:test';
import assert from 'node:assert/strict';
import { limitedRecoveryDue } from './limited-recovery.ts';

const at = (packetsOut: number, sackedOut: number, reordering: number, maySendNow = false): boolean =>
  limitedRecoveryDue({ packetsOut, sackedOut, reordering, initialReordering: 3, maySendNow });

test("Trick#4: no more outstanding than the degree, half of them and at least three SACKed, nothing new can go", () => {
  assert.equal(at(6, 3, 6), true, '6 out, 3 SACKed, degree 6');
  assert.equal(at(6, 2, 6), false, 'fewer than three SACKed');
  assert.equal(at(9, 4, 9), true, 'half of 9 is 4 (integer division, as packets_out/2)');
  assert.equal(at(9, 3, 9), false, 'below half');
  assert.equal(at(7, 5, 6), false, 'more outstanding than the degree: the count rule decides');
  assert.equal(at(6, 3, 6, true), false, 'a new segment can leave: its SACKs may still come');
  assert.equal(at(4, 3, 3), false, 'the initial degree: 4 out exceed it');
});
