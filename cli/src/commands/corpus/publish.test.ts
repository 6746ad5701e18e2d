/**
 * The 64 legacy logs -> corpus (the @pcp/corpus/testing fixture) -> pcp corpus stats -> publish -> verify,
 * through the real CLI and the pcp_corpus Python package; the release read by DuckDB, pandas and
 * frictionless; a corrupt graph left out and listed; tampered releases refused.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync, gzipSync } from 'node:zlib';
import { writeLegacyTestCorpus } from '@pcp/corpus/testing';
import { runAsync } from '../../testing/run.ts';

const PCP = fileURLToPath(new URL('../../../bin/pcp.js', import.meta.url));
const PYTHON = process.env['PYTHON'] ?? 'python3';
const work = mkdtempSync(join(tmpdir(), 'pcp-corpus-publish-'));
after(() => rmSync(work, { recursive: true, force: true }));
const corpus = join(work, 'corpus');
const release = join(work, 'release');
const pcp = (...args: string[]) => runAsync('node', [PCP, ...args], { timeoutMs: 300_000 });

/** The legacy sites (all 64, or the first `count`) as a corpus, with what goes wrong in one added. */
function testCorpus(dir: string, count?: number): string[] {
  const ids = writeLegacyTestCorpus(dir, count);
  // A finished page whose graph is corrupt, an unfinished page, and a site that failed in the crawl.
  mkdirSync(join(dir, 'pages', 'broken.test-0000abcd'));
  writeFileSync(join(dir, 'pages', 'broken.test-0000abcd', 'graph.json'), '{"schemaVersion": 1, "nodes": [');
  writeFileSync(join(dir, 'pages', 'broken.test-0000abcd', 'status.json'), JSON.stringify({ url: 'http://broken.test/<b>', id: 'broken.test-0000abcd', status: 'ok', attempts: 1 }));
  writeFileSync(join(dir, 'pages', 'broken.test-0000abcd', 'DONE'), '');
  mkdirSync(join(dir, 'pages', 'unfinished.test-0000abcd'));
  appendFileSync(join(dir, 'failures.jsonl'), `${JSON.stringify({ url: 'http://down.test/', id: 'down.test-1234abcd', reason: 'net::ERR_NAME_NOT_RESOLVED', attempts: 3 })}\n`);
  return ids;
}

// The 64-site chain (corpus -> release -> verify -> stats of the release) runs once; what does not depend
// on the count (the stats of a corpus directory, its figures, a corrupt page reported) runs on 3 sites.
const ids = testCorpus(corpus);
const small = join(work, 'small');
testCorpus(small, 3);

test('the 64 legacy logs as a corpus: every page finished, every measured server delay on its resource', () => {
  assert.equal(ids.length, 64);
  let records = 0;
  let placed = 0;
  for (const id of ids) {
    const page = join(corpus, 'pages', id);
    assert.ok(existsSync(join(page, 'DONE')), id);
    records += (JSON.parse(readFileSync(join(page, 'delays.json'), 'utf8')) as unknown[]).length;
    const graph = JSON.parse(readFileSync(join(page, 'graph.json'), 'utf8')) as { nodes: Array<{ kind: string; serverDelay?: number }> };
    placed += graph.nodes.filter((n) => n.kind === 'resource' && n.serverDelay !== undefined).length;
  }
  // 2,549 measured delays in the sample's delay files, each on a resource of its url.
  assert.ok(records > 2000, `${records} delay records`);
  assert.equal(placed, records);
});

test('pcp corpus stats: the summary table on stdout, figures as PNG and SVG, the corrupt page reported', async () => {
  const report = join(work, 'report');
  const r = await pcp('corpus', 'stats', small, '--out', report);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /^pages: 3$/m);
  assert.match(r.stdout, /Critical path: network vs computation/);
  assert.match(r.stderr, /broken\.test-0000abcd: .*graph\.json: not valid JSON.* \(left out\)/);
  const files = readdirSync(report);
  for (const f of ['load-dcl-cdf', 'page-sizes', 'critical-path-composition', 'mime-mix', 'server-delay-cdf', 'critical-path-resource-share']) {
    assert.ok(files.includes(`${f}.png`) && files.includes(`${f}.svg`), f);
  }
  const summary = JSON.parse(readFileSync(join(report, 'summary.json'), 'utf8')) as { pages: number; server_delays: Array<{ n: number }> };
  assert.equal(summary.pages, 3);
  assert.ok(summary.server_delays.reduce((s, d) => s + d.n, 0) > 0, 'the legacy delays were merged');
});

test('pcp corpus publish: a complete release that DuckDB, pandas and frictionless read; verify passes', async () => {
  const r = await pcp('corpus', 'publish', corpus, '--out', release, '--version', '1.2.3');
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /64 pages \(1 left out, 1 crawl failures\)/);
  assert.deepEqual(readdirSync(work).filter((f) => f.includes('.partial-')), [], 'nothing left half-written');
  assert.equal(readdirSync(join(release, 'graphs')).length, 64);
  const failures = readFileSync(join(release, 'failures.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { id: string; stage: string });
  assert.deepEqual(failures.map((f) => [f.id, f.stage]), [['down.test-1234abcd', 'crawl'], ['broken.test-0000abcd', 'publish']]);
  const card = readFileSync(join(release, 'README.md'), 'utf8');
  assert.match(card, /^# pcp-corpus-corpus 1\.2\.3$/m);
  assert.match(card, /http:\/\/broken\.test\/&#60;b&#62; \| publish \|/, 'page strings escaped in the card');
  assert.match(card, /!\[mime-mix\]\(stats\/mime-mix\.png\)/);
  assert.match(readFileSync(join(release, 'LICENSE'), 'utf8'), /CC-BY-4\.0/);
  assert.match(card, /`croissant\.json` \(MLCommons Croissant 1\.0/);
  const croissant = JSON.parse(readFileSync(join(release, 'croissant.json'), 'utf8')) as { conformsTo: string; distribution: unknown[]; recordSet: Array<{ name: string }> };
  assert.equal(croissant.conformsTo, 'http://mlcommons.org/croissant/1.0');
  assert.deepEqual(croissant.recordSet.map((r) => r.name).sort(), ['edges', 'nodes', 'pages', 'resources']);
  const py = await runAsync(PYTHON, ['-c', `
import json, sys, duckdb, pandas as pd
from frictionless import Package
import mlcroissant as mlc
rel = sys.argv[1]
pages = pd.read_parquet(rel + "/data/pages.parquet")
n = duckdb.sql(f"SELECT count(DISTINCT page_id) FROM read_parquet('{rel}/data/nodes.parquet')").fetchall()[0][0]
cp = duckdb.sql(f"SELECT count(*) FROM read_parquet('{rel}/data/resources.parquet') WHERE on_critical_path").fetchall()[0][0]
pkg = Package(rel + "/datapackage.json")
print(json.dumps({"pages": len(pages), "node_pages": n, "cp_resources": cp, "pages_cp": int(pages.cp_resources.sum()),
  "resources": len(pkg.resources), "hashed": sum(1 for r in pkg.resources if (r.hash or "").startswith("sha256:")),
  "license": pkg.licenses[0]["name"], "files": len(pkg.resources),
  "croissant_pages": sum(1 for _ in mlc.Dataset(jsonld=rel + "/croissant.json").records("pages"))}))
`, release]);
  assert.equal(py.status, 0, py.stderr);
  const got = JSON.parse(py.stdout) as Record<string, unknown>;
  assert.deepEqual([got.pages, got.node_pages, got.license], [64, 64, 'CC-BY-4.0']);
  assert.equal(got.cp_resources, got.pages_cp);
  assert.equal(got.hashed, got.resources);
  assert.equal(got.croissant_pages, 64, 'mlcroissant reads the pages table through croissant.json');
  assert.equal(croissant.distribution.length, got.files);
  // The pages table against the graphs of the release, counted here from the JSON.
  const rows = await runAsync(PYTHON, ['-c', 'import sys, pandas as pd; print(pd.read_parquet(sys.argv[1]).to_json(orient="records", double_precision=15))', join(release, 'data', 'pages.parquet')]);
  assert.equal(rows.status, 0, rows.stderr);
  const table = JSON.parse(rows.stdout) as Array<{ page_id: string; nodes: number; edges: number; resources: number; bytes: number; frames: number; load_ms: number }>;
  assert.equal(table.length, 64);
  for (const row of table) {
    const g = JSON.parse(gunzipSync(readFileSync(join(release, 'graphs', `${row.page_id}.json.gz`))).toString()) as {
      nodes: Array<{ id: string; kind: string; size?: number; start: number }>; edges: unknown[]; frames: unknown[]; markers: { load: string };
    };
    const res = g.nodes.filter((n) => n.kind === 'resource');
    assert.deepEqual(
      [row.nodes, row.edges, row.resources, row.bytes, row.frames, row.load_ms],
      [g.nodes.length, g.edges.length, res.length, res.reduce((s, n) => s + n.size!, 0), g.frames.length, g.nodes.find((n) => n.id === g.markers.load)!.start],
      row.page_id,
    );
  }
  const v = await pcp('corpus', 'verify', release);
  assert.equal(v.status, 0, v.stderr);
  assert.match(v.stdout, /ok \(\d+ files and their sha256, 64 graphs valid against graph format v1, croissant\.json valid\)/);
  // The statistics of a release come from its Parquet tables, into a report elsewhere.
  const st = await pcp('corpus', 'stats', release, '--out', join(work, 'release-report'));
  assert.equal(st.status, 0, st.stderr);
  assert.match(st.stdout, /^pages: 64$/m);
  assert.equal((await pcp('corpus', 'stats', release)).status, 2, 'a release is not written to');
});

test('pcp corpus verify: a modified file, an invalid graph and an unlisted file are each one line, exit 1', async () => {
  const bad = join(work, 'tampered');
  cpSync(release, bad, { recursive: true });
  const manifest = JSON.parse(readFileSync(join(bad, 'datapackage.json'), 'utf8')) as { resources: Array<{ path: string; bytes: number; hash: string }> };
  const [g1, g2] = manifest.resources.filter((r) => r.path.startsWith('graphs/'));
  // g1: other bytes under the same name. g2: an invalid graph whose manifest entry was updated to match.
  writeFileSync(join(bad, g1!.path), gzipSync('{}'));
  const invalid = gzipSync(JSON.stringify({ schemaVersion: 1, page: { url: 'x' } }));
  writeFileSync(join(bad, g2!.path), invalid);
  const { createHash } = await import('node:crypto');
  g2!.hash = `sha256:${createHash('sha256').update(invalid).digest('hex')}`;
  g2!.bytes = invalid.length;
  writeFileSync(join(bad, 'datapackage.json'), JSON.stringify(manifest));
  writeFileSync(join(bad, 'data', 'extra.csv'), 'a,b\n');
  const cr = JSON.parse(readFileSync(join(bad, 'croissant.json'), 'utf8')) as { distribution: Array<{ contentUrl: string }>; recordSet: Array<{ field: Array<{ dataType: string }> }> };
  const dropped = cr.distribution.pop()!.contentUrl;
  cr.recordSet[0]!.field[0]!.dataType = 'sc:NotAType';
  writeFileSync(join(bad, 'croissant.json'), JSON.stringify(cr));
  const v = await pcp('corpus', 'verify', bad);
  assert.equal(v.status, 1);
  const lines = v.stderr.trim().split('\n');
  assert.ok(lines.some((l) => l.includes(`${g1!.path}: sha256 differs`)), v.stderr);
  assert.ok(lines.some((l) => l.includes(`${g1!.path}: schemaVersion undefined, expected 1`)), v.stderr);
  assert.ok(lines.some((l) => l.includes(`${g2!.path}: not a valid v1 graph`) && !l.includes('sha256')), v.stderr);
  assert.ok(lines.some((l) => l.includes('data/extra.csv: not listed in datapackage.json')), v.stderr);
  assert.ok(lines.some((l) => l.endsWith(`croissant.json: ${dropped} not in its distribution`)), v.stderr);
  assert.ok(lines.some((l) => /croissant\.json: .*Field\(.*dataType/.test(l)), v.stderr);
  assert.match(lines.at(-1)!, /problem\(s\) in/);
});

test('pcp corpus: subcommands, their usage, and unknown ones', async () => {
  const help = await pcp('corpus', 'stats', '--help');
  assert.equal(help.status, 0);
  for (const sub of ['build', 'import-legacy', 'stats', 'publish', 'verify']) assert.match(help.stdout, new RegExp(`^usage: pcp corpus ${sub} `, 'm'));
  const none = await pcp('corpus');
  assert.equal(none.status, 2);
  assert.equal(none.stderr, 'pcp corpus: a subcommand is required: build, import-legacy, stats, publish, verify (see pcp corpus --help)\n');
  const unknown = await pcp('corpus', 'nope');
  assert.equal(unknown.status, 2);
  assert.match(unknown.stderr, /^pcp corpus: unknown subcommand 'nope' \(one of build, import-legacy, stats, publish, verify\)/);
  const missing = await pcp('corpus', 'verify', join(work, 'nowhere'));
  assert.equal(missing.status, 1);
  assert.equal(missing.stderr, `pcp corpus: ${join(work, 'nowhere')}: no such directory\n`);
});

test('pcp corpus publish: bad input is one line and nothing is written', async () => {
  const exists = await pcp('corpus', 'publish', corpus, '--out', release, '--version', '1.2.4');
  assert.equal(exists.status, 1);
  assert.match(exists.stderr, /exists \(choose another --out, or --force to replace it\)\n$/);
  const version = await pcp('corpus', 'publish', corpus, '--out', join(work, 'v'), '--version', '1.2');
  assert.equal(version.status, 2);
  assert.match(version.stderr, /--version expects X\.Y\.Z, got '1\.2'/);
  const notCorpus = await pcp('corpus', 'publish', join(work, 'report'), '--out', join(work, 'r2'), '--version', '1.0.0');
  assert.equal(notCorpus.status, 1);
  assert.match(notCorpus.stderr, /not a corpus directory \(no corpus\.json\)/);
  // Only corrupt graphs: an error, and no release.
  const empty = join(work, 'empty');
  mkdirSync(join(empty, 'pages'), { recursive: true });
  cpSync(join(corpus, 'corpus.json'), join(empty, 'corpus.json'));
  cpSync(join(corpus, 'pages', 'broken.test-0000abcd'), join(empty, 'pages', 'broken.test-0000abcd'), { recursive: true });
  // A partial release left by a killed publish (its process is gone) is cleared away.
  const dead = (await runAsync('true', [])).pid!;
  mkdirSync(join(work, `r3.partial-${dead}`, 'graphs'), { recursive: true });
  const none = await pcp('corpus', 'publish', empty, '--out', join(work, 'r3'), '--version', '1.0.0');
  assert.equal(none.status, 1);
  assert.match(none.stderr, /no finished page with a valid graph/);
  assert.ok(!existsSync(join(work, 'r3')));
  assert.deepEqual(readdirSync(work).filter((f) => f.includes('.partial-')), []);
});
