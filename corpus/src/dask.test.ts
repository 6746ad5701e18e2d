/** The driver's contract (a LocalCluster run with a killed worker: cli/src/commands/corpus/build.test.ts). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkScheduler, runDaskBuild } from './dask.ts';
import { corpusManifest } from './layout.ts';

test('scheduler addresses: local:N or a Dask address', () => {
  for (const ok of ['local:1', 'local:12', 'tcp://10.0.0.5:8786', 'tls://sched.example:8786']) assert.equal(checkScheduler(ok), ok);
  for (const bad of ['local:0', 'local:', 'localhost:8786', 'http://x:8786', '']) assert.throws(() => checkScheduler(bad), /--scheduler expects/);
});

test('the driver fails on one line when Python cannot run', async () => {
  const saved = process.env['PYTHON'];
  process.env['PYTHON'] = '/nonexistent/python3';
  try {
    const job = { scheduler: 'local:1', out: '/tmp/none', sites: [], manifest: corpusManifest({ source: 'sites', settings: {} }), siteList: '', pcp: [], siteArgs: [] };
    await assert.rejects(runDaskBuild(job, () => {}), /cannot run \/nonexistent\/python3|exited/);
  } finally {
    if (saved === undefined) delete process.env['PYTHON'];
    else process.env['PYTHON'] = saved;
  }
});
