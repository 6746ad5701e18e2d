import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { validateGraph } from '../src/format/validate.ts';
import { SNIPPET_LINES } from './snippet.ts';

const BIN = new URL('../../cli/bin/pcp.js', import.meta.url).pathname;
const FIXTURE = new URL('./fixtures/friv.log.gz', import.meta.url).pathname;
const pcp = (...args: string[]) => spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', timeout: 60_000 });
const dir = mkdtempSync(join(tmpdir(), 'pcp-build-'));
after(() => rmSync(dir, { recursive: true, force: true }));

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

test('pcp build then pcp export --format legacy writes the log\'s own 0-based rows, as the reference does', () => {
  const graph = join(dir, 'friv-rows.json');
  const legacy = join(dir, 'friv-rows.legacy.json');
  assert.equal(pcp('build', '--legacy-log', FIXTURE, '--out', graph).status, 0);
  const r = pcp('export', '--format', 'legacy', graph, '--out', legacy);
  assert.equal(r.status, 0, r.stderr);
  const chunks = (JSON.parse(readFileSync(legacy, 'utf8')) as { activities: Array<Record<string, unknown>> }).activities.filter((a) => a.type === 'parse_chunk');
  // Every chunk starts at a token of the log: same document, row and column as its ObjectHash record.
  const tokens = new Set(
    gunzipSync(readFileSync(FIXTURE)).toString('utf8').split('\n').filter((l) => l.startsWith('{"ObjectHash"'))
      .map((l) => (JSON.parse(l) as { ObjectHash: { doc: string; row: number; column: number } }).ObjectHash)
      .map((t) => `${t.doc} ${t.row} ${t.column}`),
  );
  assert.ok(chunks.length > 0);
  for (const c of chunks) assert.ok(tokens.has(`${c.docUrl as string} ${c.startRow as number} ${c.startColumn as number}`), `no token at ${c.docUrl as string} ${c.startRow as number}:${c.startColumn as number}`);
  // And the positions are the reference graph's (the 2016 builder's output for this log).
  const ref = JSON.parse(gunzipSync(readFileSync(new URL('./fixtures/friv.reference.json.gz', import.meta.url))).toString('utf8')) as { activities: Array<Record<string, unknown>> };
  const pos = (list: Array<Record<string, unknown>>) => list.filter((a) => a.type === 'parse_chunk').map((a) => `${a.docUrl as string} ${a.startRow as number}:${a.startColumn as number}-${a.endRow as number}:${a.endColumn as number}`).sort();
  assert.deepEqual(pos(chunks), pos(ref.activities));
});

test('pcp build --chunk-times: received by default, interpolated or parser on request, for a legacy log and a trace; a bad value one line', () => {
  const chunkTimes = (file: string) =>
    new Set((JSON.parse(readFileSync(file, 'utf8')) as { nodes: Array<{ kind: string; extra?: { chunkTimes?: string } }> }).nodes.filter((n) => n.kind === 'download_chunk').map((n) => n.extra?.chunkTimes));
  const byDefault = join(dir, 'friv-received.json');
  const interpolated = join(dir, 'friv-interpolated.json');
  assert.equal(pcp('build', '--legacy-log', FIXTURE, '--out', byDefault).status, 0);
  const r = pcp('build', '--legacy-log', FIXTURE, '--out', interpolated, '--chunk-times', 'interpolated');
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual([...chunkTimes(byDefault)], ['received']);
  assert.deepEqual([...chunkTimes(interpolated)], ['interpolated']);
  const bad = pcp('build', '--legacy-log', FIXTURE, '--out', join(dir, 'x.json'), '--chunk-times', 'soon');
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /^pcp build: --chunk-times expects received, parser or interpolated, got 'soon'/);
  assert.equal(bad.stderr.trim().split('\n').length, 1);
  // A trace is timed the same way: by its ResourceReceivedData pieces by default, as asked otherwise.
  const bundle = new URL('../src/adapters/trace/fixtures/r04-sync-script-blocks', import.meta.url).pathname;
  const traceDefault = join(dir, 'r04-received.json');
  const traceParser = join(dir, 'r04-parser.json');
  assert.equal(pcp('build', bundle, '--out', traceDefault).status, 0);
  const t = pcp('build', bundle, '--out', traceParser, '--chunk-times', 'parser');
  assert.equal(t.status, 0, t.stderr);
  assert.deepEqual([...chunkTimes(traceDefault)], ['received']);
  assert.deepEqual([...chunkTimes(traceParser)], ['parser']);
});
