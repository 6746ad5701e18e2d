import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dataPackage, fileEntries, licenseText, listFiles, resourceName, SEMVER } from './release.ts';

/** Every directory a test makes lies in here, removed when the file's tests end. */
const scratch = mkdtempSync(join(tmpdir(), 'pcp-release-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

test('listFiles and fileEntries: every file, relative, sorted, with bytes and sha256', () => {
  const dir = mkdtempSync(join(scratch, 'd-'));
  mkdirSync(join(dir, 'graphs'));
  writeFileSync(join(dir, 'graphs', 'a.json.gz'), 'abc');
  writeFileSync(join(dir, 'README.md'), '');
  assert.deepEqual(listFiles(dir), ['README.md', 'graphs/a.json.gz']);
  assert.deepEqual(fileEntries(dir, ['graphs/a.json.gz']), [
    { path: 'graphs/a.json.gz', bytes: 3, sha256: 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad' },
  ]);
});

test('dataPackage: a Frictionless descriptor with one hashed resource per file, table schemas on the tables', () => {
  const d = dataPackage({
    name: 'x', version: '1.0.0', license: 'CC-BY-4.0', created: 'now', pages: 1, toolVersion: '0.1.0',
    meta: { format: 'pcp-corpus/1', source: 'legacy', created: 'then', settings: {}, siteList: 'sites.txt' },
    files: [{ path: 'graphs/Page-1.json.gz', bytes: 3, sha256: 'ab'.repeat(32) }, { path: 'data/pages.parquet', bytes: 9, sha256: 'cd'.repeat(32) }],
    tableFields: { pages: [{ name: 'page_id', type: 'string', description: 'id' }] },
  }) as { licenses: Array<{ name: string; path: string }>; resources: Array<Record<string, unknown>> };
  assert.deepEqual(d.licenses, [{ name: 'CC-BY-4.0', title: 'Creative Commons Attribution 4.0 International', path: 'https://creativecommons.org/licenses/by/4.0/' }]);
  assert.deepEqual(d.resources[0], { name: 'graphs-page-1.json.gz', path: 'graphs/Page-1.json.gz', format: 'json', mediatype: 'application/gzip', bytes: 3, hash: `sha256:${'ab'.repeat(32)}`, 'pcp:graphSchemaVersion': 1 });
  assert.deepEqual(d.resources[1]!['schema'], { fields: [{ name: 'page_id', type: 'string', description: 'id' }] });
  assert.equal(d.resources[1]!['type'], 'table');
});

test('versions, names and licences', () => {
  assert.ok(SEMVER.test('1.2.3') && SEMVER.test('1.0.0-rc.1') && !SEMVER.test('1.2') && !SEMVER.test('v1.2.3'));
  assert.equal(resourceName('Stats/Load CDF.png'), 'stats-load-cdf.png');
  assert.match(licenseText('CC-BY-4.0', 2026), /Creative Commons Attribution 4\.0 International \(CC-BY-4\.0\)\.\nFull text: https:\/\/creativecommons\.org\/licenses\/by\/4\.0\//);
  assert.match(licenseText('MIT', 2026), /^This dataset is licensed under MIT\.\n\n/);
});
