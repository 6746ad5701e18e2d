/** The one-site unit on the example site in real Chromium: K runs, the median kept; the choice of run. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { capturePage, type BundleMeta } from '@pcp/profiler';
import { startTestServer } from '@pcp/profiler/testing';
import { validateGraph } from '@pcp/graph-builder';
import { buildSite, failureReason, medianRun } from './build-site.ts';

const SITE = fileURLToPath(new URL('../../profiler/example-site/', import.meta.url));

const meta = (status: BundleMeta['status'], loadMs?: number): BundleMeta =>
  ({ status, endReason: status === 'failed' ? 'unreachable' : 'quiet', message: 'm', timings: { endMs: 0, loadMs } }) as BundleMeta;

test('the run kept: the complete load with the median load time', () => {
  assert.equal(medianRun([meta('complete', 300), meta('complete', 100), meta('complete', 200)]), 2);
  assert.equal(medianRun([meta('complete', 300), meta('failed'), meta('complete', 100)]), 2);
  assert.equal(medianRun([meta('partial', 100), meta('failed')]), undefined);
  assert.equal(failureReason(meta('failed')), 'unreachable: m');
});

test('two runs of the example site: the faster of the two kept as bundle/, its graph built, the other removed', async () => {
  const server = await startTestServer({ root: SITE, origins: [{ name: 'a' }, { name: 'b' }] });
  const dir = mkdtempSync(join(tmpdir(), 'pcp-corpus-site-'));
  try {
    const url = server.urls['a']!;
    const page = join(dir, 'page');
    const capture = (u: string, d: string) => capturePage(u, d, { hostResolverRules: server.hostResolverRules });
    const { status } = await buildSite(url, 'page', page, { capture, runs: 2 });
    assert.equal(status.status, 'ok', status.reason);
    assert.deepEqual(readdirSync(page).sort(), ['DONE', 'bundle', 'graph.json', 'status.json']);
    const loads = status.runs!.map((r) => r.loadMs!);
    assert.equal(loads.length, 2);
    const kept = JSON.parse(readFileSync(join(page, 'bundle', 'meta.json'), 'utf8')) as BundleMeta;
    assert.equal(kept.timings.loadMs, Math.min(...loads));
    assert.ok(validateGraph(JSON.parse(readFileSync(join(page, 'graph.json'), 'utf8'))).ok);
  } finally {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
