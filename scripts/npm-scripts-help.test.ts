/**
 * Every npm script that runs a TypeScript file answers --help with its usage (exit 0, before any work)
 * and an unknown option with one line on stderr (exit 2): the brief's "--help on every command".
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const scripts = Object.entries((JSON.parse(readFileSync(`${ROOT}package.json`, 'utf8')) as { scripts: Record<string, string> }).scripts)
  .map(([name, cmd]) => ({ name, file: /^node --import tsx (\S+\.ts)$/.exec(cmd)?.[1] }))
  .filter((s): s is { name: string; file: string } => s.file !== undefined);

const run = (file: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> =>
  new Promise((done) => {
    execFile(process.execPath, ['--import', 'tsx', file, ...args], { cwd: ROOT, timeout: 120_000 }, (err, stdout, stderr) => {
      done({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });

test('npm scripts: --help prints usage and exits 0; an unknown option is one line and exit 2', { timeout: 900_000 }, async () => {
  assert.ok(scripts.length >= 10, `found ${scripts.length} scripts`);
  const failures: string[] = [];
  // Two at a time: each is a Node start-up with tsx, nothing more.
  for (let i = 0; i < scripts.length; i += 2) {
    await Promise.all(scripts.slice(i, i + 2).map(async ({ name, file }) => {
      const help = await run(file, ['--help']);
      if (help.code !== 0 || !help.stdout.startsWith(`usage: npm run ${name}`)) failures.push(`${name} --help: exit ${help.code}, stdout ${JSON.stringify(help.stdout.slice(0, 80))}`);
      const bad = await run(file, ['--no-such-option']);
      const lines = bad.stderr.trim().split('\n');
      if (bad.code !== 2 || lines.length !== 1 || !lines[0]!.includes('--no-such-option')) failures.push(`${name} --no-such-option: exit ${bad.code}, stderr ${JSON.stringify(bad.stderr.slice(0, 120))}`);
    }));
  }
  assert.deepEqual(failures, []);
});
