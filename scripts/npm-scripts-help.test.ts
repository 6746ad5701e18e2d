/**
 * Every npm script that runs a TypeScript file answers --help with its usage (exit 0, before any work)
 * and an unknown option with one line on stderr (exit 2): the brief's "--help on every command". The others
 * (bash, Python, tsc) answer --help the same way; their other options are their own (demo's go to pcp view).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const all = Object.entries((JSON.parse(readFileSync(`${ROOT}package.json`, 'utf8')) as { scripts: Record<string, string> }).scripts)
  .map(([name, cmd]) => ({ name, cmd, file: /^node --import tsx (\S+\.ts)$/.exec(cmd)?.[1] }));
const scripts = all.filter((s): s is { name: string; cmd: string; file: string } => s.file !== undefined);
const others = all.filter((s) => s.file === undefined);
/** What --help prints first: `usage: npm run NAME`, but for these two. */
const USAGE_START: Record<string, RegExp> = { test: /^usage: npm test\n/, typecheck: /^tsc: The TypeScript Compiler/ };

/** COMMAND ARGS in the repository's root, npm's node_modules/.bin on the PATH as under `npm run`. */
const exec = (command: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> =>
  new Promise((done) => {
    const env = { ...process.env, PATH: `${ROOT}node_modules/.bin:${process.env.PATH}` };
    execFile(command, args, { cwd: ROOT, env, timeout: 120_000 }, (err, stdout, stderr) => {
      done({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
const run = (file: string, args: string[]) => exec(process.execPath, ['--import', 'tsx', file, ...args]);

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

test('npm scripts that are not a TypeScript file (bash, Python, tsc): --help prints usage and exits 0', { timeout: 300_000 }, async () => {
  assert.ok(others.length >= 6, `found ${others.length}: ${others.map((o) => o.name).join(', ')}`);
  const failures: string[] = [];
  for (const { name, cmd } of others) {
    const help = await exec('bash', ['-c', `${cmd} --help`]);
    const usage = USAGE_START[name]?.test(help.stdout) ?? /^usage: npm run (\S+)/.exec(help.stdout)?.[1] === name;
    if (help.code !== 0 || !usage) failures.push(`${name} --help: exit ${help.code}, stdout ${JSON.stringify(help.stdout.slice(0, 80))}`);
  }
  assert.deepEqual(failures, []);
});
