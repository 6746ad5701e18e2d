import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { bundleDriver, cacheRows, callgrindEvents, countedDump, withoutModulePaths } from './instructions.ts';
import { sharedDir, simulate, type EmulatorConfig } from '../src/index.ts';
import { loadCorpus, medianGraph } from '../scripts/corpus.ts';

test('callgrindEvents reads the instruction total of a dump (summary in its header, totals at its end)', () => {
  const dump = ['# callgrind format', 'version: 1', 'creator: callgrind-3.19.0', 'pid: 7', 'part: 2', '', 'desc: Trigger: --dump-before=uv_os_getpriority', '',
    'positions: line', 'events: Ir', 'summary: 418093217', '', 'ob=(1) /usr/bin/node', 'fn=(2) main', '0 12', '', 'totals: 418093217', ''].join('\n');
  assert.equal(callgrindEvents(dump).Ir, 418093217);
  assert.equal(callgrindEvents('events: Ir\ntotals: 5\n').Ir, 5);
  assert.throws(() => callgrindEvents('events: Ir\n'), /no totals or summary/);
});

test('callgrindEvents names every column of a --cache-sim=yes dump by its events line; columns left out are 0', () => {
  const dump = ['events: Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw', 'summary: 379 120 60 7 45 12 3 2 1', '', 'fn=(1) main', '0 1', '', 'totals: 379 120 60 7 45 12 3 2 1', ''].join('\n');
  assert.deepEqual(callgrindEvents(dump), { Ir: 379, Dr: 120, Dw: 60, I1mr: 7, D1mr: 45, D1mw: 12, ILmr: 3, DLmr: 2, DLmw: 1 });
  assert.deepEqual(callgrindEvents('events: Ir Dr D1mr\ntotals: 10 4\n'), { Ir: 10, Dr: 4, D1mr: 0 });
  assert.deepEqual(callgrindEvents('totals: 8\n'), { Ir: 8 });
});

test('cacheRows prints both sides per count with ratio this / baseline; last-level misses summed over the three kinds', () => {
  const here = { Ir: 7.9e6, Dr: 2.4e6, Dw: 1.2e6, I1mr: 1000, D1mr: 45000, D1mw: 9000, ILmr: 10, DLmr: 20, DLmw: 30 };
  const there = { Ir: 7.9e6, Dr: 2.4e6, Dw: 1.2e6, I1mr: 1000, D1mr: 30000, D1mw: 9000, ILmr: 0, DLmr: 0, DLmw: 0 };
  const rows = cacheRows('h2', here, there);
  assert.deepEqual(rows.map((r) => r.split(/\s+/)[1]), ['Ir', 'Dr', 'Dw', 'D1mr', 'D1mw', 'I1mr', 'LLm']);
  assert.match(rows[0]!, /this\s+7\.900 M\s+baseline\s+7\.900 M\s+ratio 1\.0000$/);
  assert.match(rows[3]!, /this\s+45\.00 k\s+baseline\s+30\.00 k\s+ratio 1\.5000$/);
  assert.match(rows[6]!, /this\s+0\.06 k\s+baseline\s+0\.00 k\s+ratio -$/);
});

test('countedDump picks the second dump (the counted simulations), not the warm-up nor the one at exit', () => {
  assert.equal(countedDump(['cg.out.1', 'cg.out.3', 'cg.out.2'], 'cg.out'), 'cg.out.2');
  assert.equal(countedDump(['cg.out.12', 'cg.out.1'], 'cg.out'), undefined);
});

test('withoutModulePaths reduces the module path comments of two checkouts\' bundles to the same `//`, code untouched', () => {
  const here = ['// emulator/src/event-queue.ts', 'var x = 1; // emulator/src/a.ts', '// ../node_modules/x/index.js', '// keep this comment', ''].join('\n');
  const there = ['// ../s16/main-base/emulator/src/event-queue.ts', 'var x = 1; // emulator/src/a.ts', '// ../s16/main-base/node_modules/x/index.js', '// keep this comment', ''].join('\n');
  assert.equal(withoutModulePaths(here), ['//', 'var x = 1; // emulator/src/a.ts', '//', '// keep this comment', ''].join('\n'));
  assert.equal(withoutModulePaths(there), withoutModulePaths(here));
});

test('the bundled driver runs this checkout\'s emulator on the median graph (natively, without callgrind)', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'pcp-instr-test-'));
  try {
    const bundle = join(dir, 'driver.mjs');
    await bundleDriver(fileURLToPath(new URL('../src/index.ts', import.meta.url)), bundle);
    const graphFile = join(dir, 'median.json');
    const graph = medianGraph(loadCorpus()).graph;
    writeFileSync(graphFile, JSON.stringify(graph));
    const config: EmulatorConfig = { bandwidthBps: 10e6, rttMs: 40, protocol: 'h2' };
    const out = execFileSync(process.execPath, ['--single-threaded', bundle, graphFile, JSON.stringify(config), '2', '3'], { env: { ...process.env, PCP_SHARED: sharedDir() }, encoding: 'utf8' });
    // The last counted simulation (seed 2) as the sources compute it here.
    const here = simulate(graph, { ...config, seed: 2 });
    assert.ok(here.packets > 1000);
    assert.deepEqual(JSON.parse(out), { loadTime: here.loadTime, packets: here.packets });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
