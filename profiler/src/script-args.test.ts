import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { checkedOption, parseScriptArgs, positiveInt } from './script-args.ts';

const usage = '\nusage: npm run x [-- --runs N] [--keep DIR]\n';
const options = { runs: { type: 'string' }, keep: { type: 'string' }, verbose: { type: 'boolean' } } as const;

test('script args: values, --help before anything else, one-line errors', () => {
  const ok = parseScriptArgs('x', usage, options, ['--runs', '3', '--verbose']);
  assert.ok(ok.ok);
  if (ok.ok) assert.deepEqual({ ...ok.args.values }, { runs: '3', verbose: true });
  assert.deepEqual(parseScriptArgs('x', usage, options, ['--runs', '3', '--help']), { ok: false, code: 0, out: 'usage: npm run x [-- --runs N] [--keep DIR]' });
  assert.deepEqual(parseScriptArgs('x', usage, options, ['-h', '--bogus']), { ok: false, code: 0, out: 'usage: npm run x [-- --runs N] [--keep DIR]' });
  const bad = parseScriptArgs('x', usage, options, ['--bogus']);
  assert.ok(!bad.ok && bad.code === 2 && !bad.out.includes('\n') && /^x: .*--bogus.*\(--help for usage\)$/.test(bad.out), JSON.stringify(bad));
  const missing = parseScriptArgs('x', usage, options, ['--runs']);
  assert.ok(!missing.ok && missing.code === 2 && /--runs/.test(missing.out));
  const stray = parseScriptArgs('x', usage, options, ['extra']);
  assert.ok(!stray.ok && stray.code === 2 && /unexpected argument 'extra'/.test(stray.out));
  const pos = parseScriptArgs('x', usage, options, ['a', 'b'], true);
  assert.ok(pos.ok && pos.args.positionals.join() === 'a,b');
});

test('script args: checkedOption passes a value through and turns a thrown check into NAME: MESSAGE, exit 2', () => {
  assert.equal(checkedOption('x', () => 'sack'), 'sack');
  const src = `import { checkedOption } from ${JSON.stringify(new URL('./script-args.ts', import.meta.url).href)};
checkedOption('emulate:x', () => { throw new Error("--queue expects shaper or red, got 'y'"); });
console.log('not reached');`;
  const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', src], { encoding: 'utf8' });
  assert.equal(r.status, 2);
  assert.equal(r.stdout, '');
  assert.equal(r.stderr.trim(), "emulate:x: --queue expects shaper or red, got 'y'");
});

test('script args: positiveInt reads a whole number from 1 up, the fallback when absent, and names the option and value otherwise', () => {
  assert.equal(positiveInt('runs', '3', 15), 3);
  assert.equal(positiveInt('runs', '1', 15), 1);
  assert.equal(positiveInt('runs', undefined, 15), 15);
  assert.throws(() => positiveInt('runs', '0', 15), { message: "--runs expects a positive integer, got '0'" });
  assert.throws(() => positiveInt('seeds', '2.5', 3), { message: "--seeds expects a positive integer, got '2.5'" });
  assert.throws(() => positiveInt('ms', 'x', 1500), { message: "--ms expects a positive integer, got 'x'" });
  assert.throws(() => positiveInt('sites', '', 8), { message: "--sites expects a positive integer, got ''" });
  assert.throws(() => positiveInt('sites', '-1', 8), /positive integer/);
});
