import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatComparison, movedCells, parseGridCsv } from './grid-compare.ts';
import { CSV_HEADER, csvRow, gridRow, type GridRow } from './grid-stats.ts';

/** A cell with real loads `real` ms and the emulator's prediction `emu` ms (DCL half of each). */
function cell(page: string, condition: string, real: number[], emu: number): GridRow {
  const other = { load: 2 * emu, dcl: emu };
  return gridRow(page, condition, real.map((load) => ({ load, dcl: load / 2 })), 0, { emulator: { load: emu, dcl: emu / 2 }, lantern: other, lanternNoDns: other });
}

const before = [
  cell('example-site', '1.6mbit/150ms/h1', [1000, 1100, 1200], 1100),
  cell('docs-flask-search', '10mbit/80ms/h1', [1400, 1424.4, 1600], 1593.9),
  cell('example-site', '5mbit/40ms/h1/1%', [900, 1000], 950),
];
const after = [before[0]!, cell('docs-flask-search', '10mbit/80ms/h1', [1400, 1424.4, 1600], 2051.9), before[2]!];

test('parseGridCsv reads back what csvRow wrote', () => {
  const text = [CSV_HEADER, ...before.map(csvRow)].join('\n') + '\n';
  const rows = parseGridCsv(text);
  assert.equal(rows.length, 3);
  assert.equal(rows[1]!.page, 'docs-flask-search');
  assert.equal(rows[1]!.condition, '10mbit/80ms/h1');
  assert.equal(rows[1]!.real.load, 1424.4);
  assert.equal(rows[1]!.real.loadMax, 1600);
  assert.equal(rows[1]!.real.runs, 3);
  assert.equal(rows[1]!.predicted.emulator.load, 1593.9);
  assert.equal(rows[1]!.predicted.lantern.load, 3187.8);
  assert.equal(rows[2]!.real.dcl, 475);
});

test('parseGridCsv names a missing column in one line', () => {
  assert.throws(() => parseGridCsv('page,runs\nx,3\n'), /^Error: not an accuracy:emulator CSV \(no column condition, misses, /);
});

test('movedCells lists only the cells whose emulated load moved, largest first', () => {
  assert.deepEqual(movedCells(before, before), []);
  const third = cell('example-site', '1.6mbit/150ms/h1', [1000, 1100, 1200], 1090);
  const moved = movedCells(before, [third, after[1]!, after[2]!]);
  assert.deepEqual(moved.map((m) => [m.page, m.before, m.after]), [['docs-flask-search', 1593.9, 2051.9], ['example-site', 1100, 1090]]);
  assert.equal(moved[0]!.realLoad, 1424.4);
  // a cell only one run has is no move
  assert.deepEqual(movedCells(before.slice(0, 1), after.slice(1)), []);
});

test('formatComparison gives both summaries to one decimal and the moved cell', () => {
  const out = formatComparison(before, after);
  // lossless: |errors| 0 and 0.1190 before (p50 half of it, p90 nine tenths), 0 and 0.4405 after
  assert.match(out, /lossless +load 5\.9% \/ 10\.7% -> 22\.0% \/ 39\.6%; DCL 5\.9% \/ 10\.7% -> 22\.0% \/ 39\.6%; signed median \+5\.9% -> \+22\.0%/);
  assert.match(out, /lossy +load 0\.0% \/ 0\.0% -> 0\.0% \/ 0\.0%/);
  assert.match(out, /cells whose emulated load moved: 1 of 3\n/);
  assert.match(out, /docs-flask-search +10mbit\/80ms\/h1 +1593\.9 -> +2051\.9 ms \(\+458\.0\); real 1424\.4; error \+11\.9% -> \+44\.1%/);
});
