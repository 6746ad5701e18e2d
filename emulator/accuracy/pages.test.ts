import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { accuracyPages, DOC_PAGES, installedDocPages } from './pages.ts';

test('installedDocPages: a page counts when its file (query aside) is installed', () => {
  const root = mkdtempSync(join(tmpdir(), 'pcp-docs-'));
  try {
    assert.deepEqual(installedDocPages(root).pages, []);
    for (const p of DOC_PAGES.slice(0, 3).concat(DOC_PAGES.filter((d) => d.path.includes('?')).slice(0, 1))) {
      const file = join(root, p.path.replace(/\?.*$/, ''));
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, '<!doctype html>');
    }
    const { pages, missing } = installedDocPages(root);
    assert.equal(pages.length, 4);
    assert.equal(pages.length + missing.length, DOC_PAGES.length);
    assert.ok(pages.some((p) => p.path.endsWith('search.html?q=blueprint') || p.path.includes('search.html?q=')));
    assert.ok(pages.every((p) => p.source === 'docs'));
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('accuracyPages: the grid default set, sources by name, unique names', async () => {
  const all = await accuracyPages(['all']);
  assert.equal(new Set(all.map((p) => p.name)).size, all.length);
  const grid = await accuracyPages(undefined, 'grid');
  const suite = await accuracyPages(['suite']);
  assert.ok(grid.filter((p) => p.source === 'suite').length < suite.length);
  assert.deepEqual(await accuracyPages(['example']), [{ name: 'example-site', path: 'index.html', source: 'example' }]);
  // The identity default is unchanged: the example site and every suite page.
  assert.equal((await accuracyPages()).length, 1 + suite.length);
  // With the doc packages installed (scripts/setup.sh), the grid's default set has at least 30 pages.
  if (grid.some((p) => p.source === 'docs')) assert.ok(grid.length >= 30, `${grid.length} pages`);
});

test('accuracyPages: a suite page whose expected.json asks for posted-task flows is recorded with them, as fidelity:rules does', async () => {
  const { listSuite } = await import('@pcp/profiler/testing');
  const suite = await accuracyPages(['suite']);
  const wanted = new Set(listSuite().filter((p) => p.expected.capture?.taskFlows).map((p) => p.name));
  assert.ok(wanted.size > 0, 'the suite has a page that needs task flows (ev-messageport)');
  assert.deepEqual(new Set(suite.filter((p) => p.taskFlows).map((p) => p.name)), wanted);
});
