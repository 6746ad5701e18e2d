/**
 * The 2016 sample (../shared/legacy-corpus) into the corpus layout: its first sites, resumable; a corrupt log
 * among them. All 64 are imported, and every measured delay checked on its resource, once: in the legacy
 * chain of cli/src/commands/corpus/publish.test.ts.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sharedDir, validateGraph, type Graph, type ResourceNode } from '@pcp/graph-builder';
import { importLegacyCorpus, legacyDelayRecords, legacyEntries } from './legacy-import.ts';
import { pageId, type PageStatus } from './layout.ts';

const LEGACY = join(sharedDir(), 'legacy-corpus');
/** Sites imported here: enough for several pages with delays; the count does not matter. */
const SITES = 6;

test('the legacy sample: v1 graphs with their measured server delays, resumable', () => {
  const out = mkdtempSync(join(tmpdir(), 'pcp-corpus-legacy-'));
  try {
    const entries = legacyEntries(LEGACY);
    assert.equal(entries.length, 64);
    const first = entries.slice(0, SITES);
    const r = importLegacyCorpus(LEGACY, out, undefined, SITES);
    assert.deepEqual(r, { imported: SITES, skipped: 0, failed: 0 });
    const manifest = JSON.parse(readFileSync(join(out, 'corpus.json'), 'utf8')) as { source: string };
    assert.equal(manifest.source, 'legacy');
    assert.equal(readFileSync(join(out, 'sites.txt'), 'utf8'), `${first.map((e) => e.slug).join('\n')}\n`);
    assert.equal(readdirSync(join(out, 'pages')).length, SITES);
    let withDelays = 0;
    let records = 0;
    for (const e of first) {
      const page = join(out, 'pages', pageId(e.page!));
      assert.ok(existsSync(join(page, 'DONE')), e.slug);
      assert.ok(!existsSync(join(page, 'bundle')));
      const graph = JSON.parse(readFileSync(join(page, 'graph.json'), 'utf8')) as Graph;
      assert.ok(validateGraph(graph).ok, e.slug);
      assert.equal(graph.provenance.source, 'legacy-log');
      const res = graph.nodes.filter((n): n is ResourceNode => n.kind === 'resource');
      records += (JSON.parse(readFileSync(join(page, 'delays.json'), 'utf8')) as unknown[]).length;
      withDelays += res.filter((n) => n.serverDelay !== undefined).length;
      assert.equal((JSON.parse(readFileSync(join(page, 'status.json'), 'utf8')) as PageStatus).url, e.page);
    }
    // Every measured delay of these sites lands on a resource of its url.
    assert.ok(records > 100, `${records} delay records`);
    assert.equal(withDelays, records);
    assert.deepEqual(importLegacyCorpus(LEGACY, out, undefined, SITES), { imported: 0, skipped: SITES, failed: 0 });
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});

test('a folder of logs: a log that is not one is recorded in failures.jsonl, the others imported', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pcp-corpus-legacy-raw-'));
  try {
    const raw = join(dir, 'raw');
    mkdirSync(raw);
    const [a] = legacyEntries(LEGACY);
    copyFileSync(a!.raw, join(raw, `${a!.slug}.log.gz`));
    writeFileSync(join(raw, 'broken.log'), 'this is not a log\n');
    const out = join(dir, 'corpus');
    const r = importLegacyCorpus(raw, out);
    assert.deepEqual(r, { imported: 1, skipped: 0, failed: 1 });
    const failures = readFileSync(join(out, 'failures.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { url: string; reason: string });
    assert.equal(failures.length, 1);
    assert.equal(failures[0]!.url, 'broken');
    assert.match(failures[0]!.reason, /broken\.log: /);
    assert.throws(() => legacyEntries(join(dir, 'nothing')), /no such directory/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('legacy delay records take the scheme of the graph resource they name', () => {
  const graph = { nodes: [{ kind: 'resource', url: 'https://a.test/x.js' }] } as unknown as Graph;
  const recs = legacyDelayRecords('method hostname url size time mimetype exttype cached\nGET a.test a.test/x.js 10 0.25 text/javascript js 0\nGET b.test b.test/y 5 bad x y 0\n', graph);
  assert.deepEqual(recs.map((r) => [r.url, r.delayMs, r.cached]), [['https://a.test/x.js', 250, false]]);
});
