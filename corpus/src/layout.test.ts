import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { finishPage, initCorpus, isDone, pageDir, pageId, rewriteFailures, type PageStatus } from './layout.ts';

test('page ids: stable, file-system safe, readable host and path, apart for URLs that read alike', () => {
  assert.equal(pageId('http://a.pcp.test:8080/x/y.html?q=1'), pageId('http://a.pcp.test:8080/x/y.html?q=1'));
  assert.match(pageId('http://a.pcp.test:8080/x/y.html?q=1'), /^a\.pcp\.test_8080_x_y\.html_q_1-[0-9a-f]{8}$/);
  assert.notEqual(pageId('http://a.test/x?y'), pageId('http://a.test/x/y'));
  assert.match(pageId('http://../../etc'), /^[A-Za-z0-9_-][A-Za-z0-9._-]*$/);
  assert.ok(pageId(`http://a.test/${'x'.repeat(500)}`).length <= 89);
});

test('corpus.json is written once; DONE only for ok pages, after status.json; failures.jsonl from the statuses', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pcp-corpus-layout-'));
  try {
    const first = initCorpus(dir, { source: 'sites', settings: { runs: 1 } }, 'http://a.test/\nhttp://b.test/');
    assert.equal(readFileSync(join(dir, 'sites.txt'), 'utf8'), 'http://a.test/\nhttp://b.test/\n');
    const again = initCorpus(dir, { source: 'sites', settings: { runs: 3 } }, 'other');
    assert.deepEqual(again, first);
    const sites = ['http://a.test/', 'http://b.test/'].map((url) => ({ url, id: pageId(url) }));
    const now = new Date().toISOString();
    const status = (url: string, ok: boolean): PageStatus => ({
      url, id: pageId(url), status: ok ? 'ok' : 'failed', ...(ok ? {} : { reason: 'unreachable: refused' }), attempts: 2, startedAt: now, finishedAt: now,
    });
    for (const [s, ok] of [[sites[0]!, true], [sites[1]!, false]] as const) {
      mkdirSync(pageDir(dir, s.id), { recursive: true });
      finishPage(pageDir(dir, s.id), status(s.url, ok));
    }
    assert.ok(isDone(pageDir(dir, sites[0]!.id)));
    assert.ok(!isDone(pageDir(dir, sites[1]!.id)));
    assert.deepEqual(rewriteFailures(dir, sites), [{ url: 'http://b.test/', id: sites[1]!.id, reason: 'unreachable: refused', attempts: 2 }]);
    assert.equal(readFileSync(join(dir, 'failures.jsonl'), 'utf8').trim().split('\n').length, 1);
    finishPage(pageDir(dir, sites[1]!.id), status(sites[1]!.url, true));
    assert.deepEqual(rewriteFailures(dir, sites), []);
    assert.ok(existsSync(join(dir, 'failures.jsonl')));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
