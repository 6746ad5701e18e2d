import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { validateGraph } from '../src/format/validate.ts';
import { SNIPPET_LINES } from './snippet.ts';

const BIN = new URL('../../cli/bin/pcp.js', import.meta.url).pathname;
const FIXTURE = new URL('./fixtures/friv.log.gz', import.meta.url).pathname;
const pcp = (...args: string[]) => spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', timeout: 60_000 });
const dir = mkdtempSync(join(tmpdir(), 'pcp-build-'));

test('pcp build --legacy-log writes a valid v1 graph and reports the warnings count', () => {
  const out = join(dir, 'friv.json');
  const r = pcp('build', '--legacy-log', FIXTURE, '--out', out);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stderr, /friv\.json: \d+ nodes, \d+ edges, critical path [\d.]+ ms; 0 warning\(s\)/);
  const v = validateGraph(JSON.parse(readFileSync(out, 'utf8')));
  assert.ok(v.ok, v.errors.join('; '));
});

test('pcp build: a truncated gzip still builds, with the truncation among the warnings', () => {
  const gz = gzipSync(Buffer.from(SNIPPET_LINES.join('\n') + '\n'));
  const cut = join(dir, 'cut.log.gz');
  writeFileSync(cut, gz.subarray(0, Math.floor(gz.length * 0.8)));
  const r = pcp('build', '--legacy-log', cut, '--out', join(dir, 'cut.json'));
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stderr, /warning: gzip stream is truncated/);
});

test('pcp build: missing file, bad line under --strict, and missing --out fail with one line and no stack', () => {
  const missing = pcp('build', '--legacy-log', join(dir, 'nope.log'), '--out', join(dir, 'x.json'));
  assert.equal(missing.status, 1);
  assert.match(missing.stderr, /nope\.log: no such file/);
  const bad = join(dir, 'bad.log');
  writeFileSync(bad, [...SNIPPET_LINES.slice(0, 3), '{"Mystery": 1}', ...SNIPPET_LINES.slice(3)].join('\n'));
  const strict = pcp('build', '--legacy-log', bad, '--out', join(dir, 'x.json'), '--strict');
  assert.equal(strict.status, 1);
  assert.match(strict.stderr, /bad\.log: line 4: unknown record kind 'Mystery'/);
  const lenient = pcp('build', '--legacy-log', bad, '--out', join(dir, 'x.json'));
  assert.equal(lenient.status, 0);
  assert.match(lenient.stderr, /1 warning\(s\)\n {2}warning: line 4: unknown record kind 'Mystery'; record skipped/);
  const noOut = pcp('build', '--legacy-log', bad);
  assert.equal(noOut.status, 2);
  for (const r of [missing, strict, noOut]) assert.doesNotMatch(r.stderr, /\n\s+at /);
});

test('pcp build --help prints the usage', () => {
  const r = pcp('build', '--help');
  assert.equal(r.status, 0);
  assert.match(r.stdout + r.stderr, /pcp build --legacy-log FILE\[\.gz\] --out GRAPH\.json/);
});
