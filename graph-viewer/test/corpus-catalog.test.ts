/** The catalog of a corpus directory (pages by id, failures as problems) and of a release (the graphs its manifest lists). */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeLegacyTestCorpus } from '@pcp/corpus/testing';
import { buildCatalog } from '../src/server/catalog.ts';

const dir = mkdtempSync(join(tmpdir(), 'pcp-catalog-corpus-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const corpus = join(dir, 'corpus');
const ids = writeLegacyTestCorpus(corpus, 2);

test('a corpus directory: its finished pages, by page id, with failed and unfinished pages as problems', () => {
  writeFileSync(join(corpus, 'failures.jsonl'), '{"url":"http://down.test/","id":"down","reason":"unreachable","attempts":3}\n');
  mkdirSync(join(corpus, 'pages', 'half-1'));
  const c = buildCatalog([corpus]);
  assert.deepEqual(c.entries.map((e) => [e.id, e.name]), ids.map((id) => [id, id]));
  assert.deepEqual(c.problems, ['half-1: unfinished (no DONE marker)', 'http://down.test/: failed (unreachable)']);
});

test('a release: the graphs datapackage.json lists, named by page id; paths leading out are refused', () => {
  const release = join(dir, 'release');
  mkdirSync(join(release, 'graphs'), { recursive: true });
  for (const id of ids) copyFileSync(join(corpus, 'pages', id, 'graph.json'), join(release, 'graphs', `${id}.json.gz`));
  const resources = [...ids.map((id) => ({ path: `graphs/${id}.json.gz` })), { path: 'data/pages.parquet' }, { path: 'graphs/../../corpus/pages/x.json' }];
  writeFileSync(join(release, 'datapackage.json'), JSON.stringify({ name: 'r', resources }));
  const c = buildCatalog([release]);
  assert.deepEqual(c.entries.map((e) => e.id), ids);
  assert.equal(c.problems.length, 1);
  assert.match(c.problems[0]!, /x\.json: (listed but missing|outside)/);
});
