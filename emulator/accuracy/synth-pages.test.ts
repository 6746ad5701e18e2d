import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { legacySites } from '@pcp/graph-builder';
import { accuracyPages } from './pages.ts';
import { overTls, synthesizeOnce, synthPages, SYNTH_PREFIX, SYNTH_SITES } from './synth-pages.ts';

const corpus = (() => {
  try {
    return legacySites();
  } catch {
    return undefined;
  }
})();
const noCorpus = corpus ? false : 'the legacy corpus (../shared/legacy-corpus) is not here';

test('overTls: every http:// string becomes https://, nothing else changes, the input is left alone', () => {
  const g = { page: { url: 'http://a.test/' }, frames: [{ id: '1', url: 'http://a.test/', parent: null }], nodes: [
    { id: 'd', url: 'http://a.test/x?u=http://b.test/', size: 3 },
    { id: 's', scriptUrl: 'https://c.test/s.js', docUrl: 'http://a.test/' },
    { id: 'i', url: 'data:image/png;base64,AAAA', note: 'see http://x' },
  ] };
  const copy = JSON.parse(JSON.stringify(g)) as typeof g;
  const t = overTls(g);
  assert.deepEqual(g, copy);
  assert.equal(t.page.url, 'https://a.test/');
  assert.equal(t.frames[0]!.url, 'https://a.test/');
  assert.deepEqual(t.nodes, [
    { id: 'd', url: 'https://a.test/x?u=http://b.test/', size: 3 },
    { id: 's', scriptUrl: 'https://c.test/s.js', docUrl: 'https://a.test/' },
    { id: 'i', url: 'data:image/png;base64,AAAA', note: 'see http://x' },
  ]);
  assert.equal(t.frames[0]!.parent, null);
});

test('synthPages: a missing corpus is a reason, never a throw; a site the corpus lacks is named', async () => {
  const gone = await synthPages(() => {
    throw new Error('legacy corpus not found at /nowhere');
  });
  assert.deepEqual(gone, { pages: [], unavailable: 'legacy corpus not found at /nowhere' });
  const none = await synthPages(() => []);
  assert.equal(none.pages.length, 0);
  assert.match(none.unavailable!, new RegExp(`not in the legacy corpus: ${SYNTH_SITES[0]!.slug.replace(/\./g, '\\.')}`));
});

test('SYNTH_SITES: 8 sites, unique names and slugs, each with a reason', () => {
  assert.equal(SYNTH_SITES.length, 8);
  assert.equal(new Set(SYNTH_SITES.map((s) => s.name)).size, SYNTH_SITES.length);
  assert.equal(new Set(SYNTH_SITES.map((s) => s.slug)).size, SYNTH_SITES.length);
  assert.ok(SYNTH_SITES.every((s) => /^[a-z0-9-]+$/.test(s.name) && s.why.length > 20));
});

test('the default synthesized pages: few warnings, small, every URL https, no URL shared between two pages; synthesized once', { skip: noCorpus }, async () => {
  const { pages, unavailable } = await synthPages();
  assert.equal(unavailable, undefined);
  assert.deepEqual(pages.map((p) => p.name), SYNTH_SITES.map((s) => SYNTH_PREFIX + s.name));
  const dir = mkdtempSync(join(tmpdir(), 'pcp-synth-pages-'));
  try {
    const seen = new Map<string, string>();
    for (const p of pages) {
      const { bundle, warnings } = await synthesizeOnce(p, dir);
      assert.ok(warnings.length <= 2, `${p.name}: ${warnings.length} warnings`);
      const har = JSON.parse(readFileSync(join(bundle, 'archive.har'), 'utf8')) as { log: { entries: { request: { url: string }; response: { bodySize: number; content: { size: number } } }[] } };
      const bytes = har.log.entries.reduce((n, e) => n + e.response.content.size, 0);
      assert.ok(bytes > 50_000 && bytes < 760_000, `${p.name}: ${bytes} bytes`);
      for (const e of har.log.entries) {
        assert.ok(e.request.url.startsWith('https://') || !e.request.url.startsWith('http:'), `${p.name}: ${e.request.url}`);
        const other = seen.get(e.request.url);
        assert.ok(other === undefined || other === p.name, `${e.request.url} in ${other} and ${p.name}`);
        seen.set(e.request.url, p.name);
      }
    }
    // Synthesized once: a second call keeps the bundle.
    const meta = join(dir, pages[0]!.name, 'meta.json');
    const before = statSync(meta).mtimeMs;
    await synthesizeOnce(pages[0]!, dir);
    assert.equal(statSync(meta).mtimeMs, before);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('accuracyPages: synthesized pages by source and by name, in neither default set', { skip: noCorpus }, async () => {
  const synth = await accuracyPages(['synthesized']);
  assert.equal(synth.length, SYNTH_SITES.length);
  assert.ok(synth.every((p) => p.source === 'synthesized' && p.graph && p.name.startsWith(SYNTH_PREFIX)));
  assert.deepEqual((await accuracyPages(['synth-fc2'], 'grid')).map((p) => p.name), ['synth-fc2']);
  assert.ok((await accuracyPages(['all'])).some((p) => p.source === 'synthesized'));
  assert.ok(!(await accuracyPages(undefined, 'grid')).some((p) => p.source === 'synthesized'));
  assert.ok(!(await accuracyPages()).some((p) => p.source === 'synthesized'));
});
