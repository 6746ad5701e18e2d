/** croissant.json against the release's datapackage.json (the whole verify: cli/src/commands/corpus/publish.test.ts). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { croissantProblems } from './verify.ts';

const H = (c: string) => c.repeat(64);
const resources = [{ path: 'LICENSE', hash: `sha256:${H('a')}` }, { path: 'data/pages.parquet', hash: `sha256:${H('b')}` }];
const fileObject = (contentUrl: string, sha256: string) => ({ '@type': 'cr:FileObject', contentUrl, sha256 });

function problemsOf(croissant: string | undefined): string[] {
  const dir = mkdtempSync(join(tmpdir(), 'pcp-croissant-'));
  try {
    if (croissant !== undefined) writeFileSync(join(dir, 'croissant.json'), croissant);
    return croissantProblems(dir, resources);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('the same files with the same sha256: no problem', () => {
  assert.deepEqual(problemsOf(JSON.stringify({ distribution: [fileObject('LICENSE', H('a')), fileObject('data/pages.parquet', H('b'))] })), []);
});

test('a file missing, another hash, a file datapackage.json does not list: one line each', () => {
  const doc = { distribution: [fileObject('LICENSE', H('c')), fileObject('extra.csv', H('d'))] };
  assert.deepEqual(problemsOf(JSON.stringify(doc)), [
    'croissant.json: LICENSE: sha256 differs from datapackage.json',
    'croissant.json: data/pages.parquet not in its distribution',
    'croissant.json: extra.csv in its distribution but not in datapackage.json',
  ]);
});

test('missing, not JSON, or without a distribution: one line', () => {
  assert.deepEqual(problemsOf(undefined), ['croissant.json: missing']);
  assert.equal(problemsOf('{"distribution": [').length, 1);
  assert.match(problemsOf('{"distribution": [')[0]!, /^croissant\.json: /);
  assert.deepEqual(problemsOf('{}'), ['croissant.json: no distribution list']);
});
