/** pcp synthesize through the real CLI entry point: a graph file, a parametric page, bad input. */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { legacySites } from '@pcp/graph-builder';

const PCP = fileURLToPath(new URL('../../bin/pcp.js', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'pcp-synthesize-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const pcp = (...args: string[]) => spawnSync('node', [PCP, 'synthesize', ...args], { encoding: 'utf8' });

test('a legacy graph becomes a replay bundle: archive.har, meta.json with the page URL, server delays', () => {
  const site = legacySites().find((s) => s.slug === 'www.friv.com')!;
  const out = join(dir, 'friv');
  const r = pcp(site.graph, '--out', out);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /^http:\/\/www\.friv\.com\/: 6 responses/);
  const har = JSON.parse(readFileSync(join(out, 'archive.har'), 'utf8'));
  assert.equal(har.log.entries[0].request.url, 'http://www.friv.com/');
  assert.equal(JSON.parse(readFileSync(join(out, 'meta.json'), 'utf8')).url, 'http://www.friv.com/');
  assert.equal(JSON.parse(readFileSync(join(out, 'server-delays.json'), 'utf8')).length, 6);
});

test('--objects N makes a parametric page of N objects over the shards', () => {
  const out = join(dir, 'goel');
  const r = pcp('--objects', '12', '--sizes', 'uniform:1k-4k', '--shards', '2', '--out', out);
  assert.equal(r.status, 0, r.stderr);
  const har = JSON.parse(readFileSync(join(out, 'archive.har'), 'utf8'));
  assert.equal(har.log.entries.length, 13);
  assert.ok(har.log.entries.slice(1).every((e: { response: { bodySize: number } }) => e.response.bodySize >= 1024 && e.response.bodySize <= 4096));
});

test('bad input fails with one line and exit 1 or 2', () => {
  const bad = join(dir, 'bad.json');
  writeFileSync(bad, '{"schemaVersion": 1, "nodes": 3}');
  const cases: [string[], number, RegExp][] = [
    [[bad, '--out', join(dir, 'x')], 1, /bad\.json/],
    [[join(dir, 'missing.json'), '--out', join(dir, 'y')], 1, /missing\.json/],
    [['--objects', '3', '--sizes', 'pareto:2', '--out', join(dir, 'z')], 2, /--sizes expects/],
    [['--objects', '0', '--out', join(dir, 'z')], 2, /positive integer/],
    [[bad], 2, /--out is required/],
  ];
  for (const [args, status, msg] of cases) {
    const r = pcp(...args);
    assert.equal(r.status, status, `${args.join(' ')}: ${r.stderr}`);
    assert.match(r.stderr, msg);
    assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
  }
});
