import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CSV_HEADER, csvRow, DEFAULT_GRID, gridRow, parseCondition, relError, summarizeGrid, type Times, type Tool } from './grid-stats.ts';

test('parseCondition: rate, RTT, protocol and optional loss in tc units; one-line errors', () => {
  assert.deepEqual(parseCondition('1.6mbit/150ms/h2'), { name: '1.6mbit/150ms/h2', bandwidthBps: 1.6e6, rttMs: 150, lossRate: 0, protocol: 'h2' });
  assert.equal(parseCondition('5mbit/40ms/h1/1%').lossRate, 0.01);
  assert.equal(DEFAULT_GRID.length, 9);
  for (const c of DEFAULT_GRID) parseCondition(c);
  assert.throws(() => parseCondition('5mbit/40ms'), /expected RATE\/RTT\/h1\|h2/);
  assert.throws(() => parseCondition('5mbit/40ms/h3'), /protocol must be h1 or h2/);
  assert.throws(() => parseCondition('fast/40ms/h1'), /condition 'fast\/40ms\/h1': /);
  assert.throws(() => parseCondition('5mbit/40ms/h1/150%'), /not a loss rate/);
});

const pred = (load: number, dcl: number, lantern = 2): Record<Tool, Times> => ({
  emulator: { load, dcl },
  lantern: { load: load * lantern, dcl: dcl * lantern },
  lanternNoDns: { load, dcl: dcl / 2 },
});

test('gridRow: median and spread of the real loads', () => {
  const r = gridRow('demo', '5mbit/40ms/h1', [{ load: 400, dcl: 250 }, { load: 380, dcl: 240 }, { load: 420, dcl: 260 }], 0, pred(440, 225));
  assert.deepEqual(r.real, { load: 400, dcl: 250, runs: 3, loadMin: 380, loadMax: 420, misses: 0 });
  assert.ok(Math.abs(relError(r.predicted.emulator.load, r.real.load) - 0.1) < 1e-12);
  assert.equal(csvRow(r).split(',').length, CSV_HEADER.split(',').length);
  assert.equal(csvRow(r).split(',').slice(0, 10).join(','), 'demo,5mbit/40ms/h1,3,0,400.0,380.0,420.0,250.0,440.0,0.1000');
  assert.throws(() => gridRow('x', 'c', [], 0, pred(1, 1)), /no real loads/);
});

test('summarizeGrid: p50/p90 of |error| per condition and overall, per tool, and the spread', () => {
  // Emulator load errors -20%, -10%, 0, +10%, +30% on condition A (real load 100 each); one row on B.
  // (A: 5mbit/40ms/h1, B: 50mbit/20ms/h2.)
  const rows = [-0.2, -0.1, 0, 0.1, 0.3].map((e, i) => gridRow(`p${i}`, '5mbit/40ms/h1', [{ load: 90, dcl: 50 }, { load: 100, dcl: 50 }, { load: 110, dcl: 50 }], 0, pred(100 * (1 + e), 50)));
  rows.push(gridRow('p0', '50mbit/20ms/h2', [{ load: 200, dcl: 100 }], 0, pred(100, 100)));
  const s = summarizeGrid(rows);
  assert.deepEqual(s.map((g) => [g.group, g.rows]), [['5mbit/40ms/h1', 5], ['50mbit/20ms/h2', 1], ['overall', 6]]);
  const a = s[0]!;
  assert.ok(Math.abs(a.errors.emulator.load.p50 - 0.1) < 1e-12);
  // |errors| sorted 0 .1 .1 .2 .3: p90 at position 3.6 -> .2 + .6 * .1.
  assert.ok(Math.abs(a.errors.emulator.load.p90 - 0.26) < 1e-12);
  assert.equal(a.errors.emulator.dcl.p50, 0);
  assert.ok(Math.abs(a.spread - 0.2) < 1e-12);
  // Lantern at twice the emulator: errors 60%, 80%, 100%, 120%, 160%.
  assert.ok(Math.abs(a.errors.lantern.load.p50 - 1) < 1e-12);
  assert.ok(Math.abs(a.errors.lanternNoDns.dcl.p50 - 0.5) < 1e-12);
  assert.equal(s[1]!.errors.emulator.load.p50, 0.5);
  assert.equal(s[1]!.spread, 0);
  assert.ok(Math.abs(s[2]!.errors.emulator.load.p50 - 0.15) < 1e-12);
});

test('summarizeGrid: a lossy condition is reported apart and kept out of overall', () => {
  const rows = [
    gridRow('p0', '5mbit/40ms/h1', [{ load: 100, dcl: 50 }], 0, pred(110, 50)),
    gridRow('p0', '5mbit/40ms/h1/1%', [{ load: 200, dcl: 100 }], 0, pred(110, 50)),
    gridRow('p1', '5mbit/40ms/h1/1%', [{ load: 100, dcl: 100 }], 0, pred(110, 50)),
  ];
  const s = summarizeGrid(rows);
  assert.deepEqual(s.map((g) => [g.group, g.rows, g.lossy]), [['5mbit/40ms/h1', 1, false], ['overall', 1, false], ['5mbit/40ms/h1/1%', 2, true]]);
  assert.ok(Math.abs(s[1]!.errors.emulator.load.p50 - 0.1) < 1e-12);
  // Only lossy rows: no overall line.
  assert.deepEqual(summarizeGrid(rows.slice(1)).map((g) => g.group), ['5mbit/40ms/h1/1%']);
});
