import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cellArgs, parseScales } from './cell-args.ts';

const defaults = { page: 'mixed-3', profile: 'Poor', scale: 0.25 };

test('cellArgs: defaults, then each option read', () => {
  const d = cellArgs({}, defaults);
  assert.ok(typeof d !== 'string');
  assert.deepEqual([d.page.name, d.testbed.name, d.scale, d.runs], ['mixed-3', 'Poor', 0.25, 15]);
  const c = cellArgs({ page: 'mixed-12', profile: 'Median', scale: '0.5', runs: '3' }, defaults);
  assert.ok(typeof c !== 'string');
  assert.deepEqual([c.page.name, c.testbed.name, c.scale, c.runs], ['mixed-12', 'Median', 0.5, 3]);
  const q = cellArgs({ family: 'quality', profile: 'Fair' }, defaults);
  assert.ok(typeof q !== 'string');
  assert.deepEqual([q.testbed.family, q.testbed.name], ['quality', 'Fair']);
  const poor = cellArgs({ family: 'quality' }, defaults);
  assert.ok(typeof poor !== 'string');
  assert.deepEqual([poor.testbed.family, poor.testbed.name], ['quality', 'Poor'], "the default profile's name in the family asked for");
});

test('cellArgs: a bad option is a one-line reason', () => {
  assert.match(cellArgs({ page: 'x' }, defaults) as string, /^unknown page 'x' \(small-365, /);
  assert.equal(cellArgs({ profile: 'Fair' }, defaults), "unknown frequency profile 'Fair' (Good, Median, Poor)");
  assert.equal(cellArgs({ family: 'quality', profile: 'Median' }, defaults), "unknown quality profile 'Median' (Good, Fair, Passable, Poor)");
  assert.equal(cellArgs({ family: 'x' }, defaults), "--family expects quality or frequency, got 'x'");
  assert.equal(cellArgs({ scale: '-1' }, defaults), "--scale expects a non-negative number, got '-1'");
  assert.equal(cellArgs({ runs: '0' }, defaults), "--runs expects a positive integer, got '0'");
  assert.equal(cellArgs({ runs: '2.5' }, defaults), "--runs expects a positive integer, got '2.5'");
});

test('--scales: loss scales per family:Profile, each checked', () => {
  assert.deepEqual([...(parseScales('frequency:Good=0.25, frequency:Poor=0.1,quality:Poor=0') as Map<string, number>)], [['frequency:Good', 0.25], ['frequency:Poor', 0.1], ['quality:Poor', 0]]);
  assert.match(parseScales('Poor=0.1') as string, /family:Profile=X/);
  assert.match(parseScales('loss:Poor=0.1') as string, /unknown family 'loss'/);
  assert.match(parseScales('quality:Median=0.1') as string, /unknown quality profile 'Median'/);
  assert.match(parseScales('quality:Poor=-1') as string, /non-negative number, got '-1'/);
});
