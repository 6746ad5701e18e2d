import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { bundleDriver, callgrindTotal, countedDump } from './instructions.ts';
import { sharedDir, simulate, type EmulatorConfig } from '../src/index.ts';
import { loadCorpus, medianGraph } from '../scripts/corpus.ts';

test('callgrindTotal reads the instruction total of a dump (summary in its header, totals at its end)', () => {
  const dump = ['# callgrind format', 'version: 1', 'creator: callgrind-3.19.0', 'pid: 7', 'part: 2', '', 'desc: Trigger: --dump-before=uv_os_getpriority', '',
    'positions: line', 'events: Ir', 'summary: 418093217', '', 'ob=(1) /usr/bin/node', 'fn=(2) main', '0 12', '', 'totals: 418093217', ''].join('\n');
  assert.equal(callgrindTotal(dump), 418093217);
  assert.equal(callgrindTotal('events: Ir\ntotals: 5\n'), 5);
  assert.throws(() => callgrindTotal('events: Ir\n'), /no totals or summary/);
});

test('countedDump picks the second dump (the counted simulations), not the warm-up nor the one at exit', () => {
  assert.equal(countedDump(['cg.out.1', 'cg.out.3', 'cg.out.2'], 'cg.out'), 'cg.out.2');
  assert.equal(countedDump(['cg.out.12', 'cg.out.1'], 'cg.out'), undefined);
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
