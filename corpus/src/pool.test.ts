/** The local pool: finished pages skipped without a load, a failing site retried R times then recorded. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { capturePage } from '@pcp/profiler';
import { holdRefusedUrl } from '@pcp/profiler/testing';
import { buildCorpus } from './pool.ts';
import { finishPage, pageDir, pageId, type PageStatus } from './layout.ts';

test('a finished page is skipped; an unreachable site is tried 1 + R times and recorded, the batch goes on', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'pcp-corpus-pool-'));
  // Connection refused, on a port held for the test (a port merely closed could be taken meanwhile).
  const held = await holdRefusedUrl();
  try {
    const finished = 'http://finished.test/';
    const unreachable = held.url;
    const sites = [finished, unreachable].map((url, i) => ({ url, id: pageId(url), line: i + 1 }));
    const now = new Date().toISOString();
    mkdirSync(pageDir(dir, sites[0]!.id), { recursive: true });
    finishPage(pageDir(dir, sites[0]!.id), { url: finished, id: sites[0]!.id, status: 'ok', attempts: 1, startedAt: now, finishedAt: now });
    const loaded: string[] = [];
    const seen: [string, boolean][] = [];
    const r = await buildCorpus(sites, dir, {
      concurrency: 2,
      retries: 2,
      site: { capture: (u, d) => (loaded.push(u), capturePage(u, d, { timeoutMs: 30_000 })) },
      onSite: (st: PageStatus, skipped) => seen.push([st.url, skipped]),
    });
    assert.deepEqual(loaded, [unreachable, unreachable, unreachable]);
    assert.deepEqual(seen.sort(), [[finished, true], [unreachable, false]].sort());
    assert.equal(r.built, 0);
    assert.equal(r.skipped, 1);
    assert.deepEqual(r.failures.map((f) => [f.url, f.attempts]), [[unreachable, 3]]);
    assert.match(r.failures[0]!.reason, /^unreachable: .*ERR_CONNECTION_REFUSED/);
    assert.equal(readFileSync(join(dir, 'failures.jsonl'), 'utf8'), `${JSON.stringify(r.failures[0])}\n`);
  } finally {
    await held.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
