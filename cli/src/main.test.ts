import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const BIN = fileURLToPath(new URL('../bin/pcp.js', import.meta.url));
const pcp = (...args: string[]) => spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', timeout: 60_000 });

const commands = readdirSync(new URL('./commands/', import.meta.url))
  .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
  .map((f) => f.slice(0, -3));

test('pcp --help lists every command', () => {
  const r = pcp('--help');
  assert.equal(r.status, 0);
  for (const c of commands) assert.match(r.stdout, new RegExp(`^  ${c} `, 'm'));
});

test('every command has --help with a usage line', () => {
  for (const c of commands) {
    const r = pcp(c, '--help');
    assert.equal(r.status, 0, `${c} --help: ${r.stderr}`);
    assert.match(r.stdout, new RegExp(`^usage: pcp ${c}`), `${c} --help prints its usage`);
  }
});

test('unknown command and bad options fail with one line and a non-zero exit', () => {
  const r = pcp('no-such-command');
  assert.equal(r.status, 2);
  assert.equal(r.stderr.trim().split('\n').length, 1);
  const bad = pcp('critpath', '--no-such-option', 'x.json');
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /^pcp critpath: .*--no-such-option/);
  const missing = pcp('critpath', '/nonexistent/graph.json');
  assert.equal(missing.status, 1);
  assert.equal(missing.stderr.trim(), 'pcp critpath: /nonexistent/graph.json: no such file');
});
