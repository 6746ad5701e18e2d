/**
 * `pcp sweep --scheduler local:2` against the local sweep of the same grid: the same rows (seeded, so
 * equal to the digit), and a results file already holding some rows gets only the missing ones.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { legacySites } from '@pcp/graph-builder';
import { runAsync } from '../../testing/run.ts';

const BIN = fileURLToPath(new URL('../../../bin/pcp.js', import.meta.url));

test('a grid on a Dask LocalCluster: the rows of the local sweep, missing rows only', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'pcp-sweep-dask-'));
  try {
    const graph = legacySites()[0]!.graph;
    writeFileSync(join(dir, 'grid.json'), JSON.stringify({ bandwidth: ['5mbit', '50mbit'], rtt: '40ms', protocol: 'h2', runs: 2 }));
    const sweep = (out: string, ...extra: string[]) =>
      runAsync(process.execPath, [BIN, 'sweep', graph, '--grid', join(dir, 'grid.json'), '--out', join(dir, out), ...extra], { timeoutMs: 300_000 });
    const local = await sweep('local.csv', '--workers', '1');
    assert.equal(local.status, 0, local.stderr);
    const localLines = readFileSync(join(dir, 'local.csv'), 'utf8').trim().split('\n');
    assert.equal(localLines.length, 1 + 4);
    // An interrupted earlier run: the header and the first row are already there.
    writeFileSync(join(dir, 'dask.csv'), `${localLines.slice(0, 2).join('\n')}\n`);
    const dask = await sweep('dask.csv', '--scheduler', 'local:2');
    assert.equal(dask.status, 0, dask.stderr);
    assert.match(dask.stderr, /3 rows written to .*dask\.csv, 1 already there/);
    const daskLines = readFileSync(join(dir, 'dask.csv'), 'utf8').trim().split('\n');
    assert.deepEqual([...daskLines].sort(), [...localLines].sort());
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
