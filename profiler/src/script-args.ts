/**
 * Arguments of the project's npm scripts (benchmarks, fidelity and accuracy harnesses): node:util's
 * parseArgs with a usage text, `--help` / `-h` (usage on stdout, exit 0, before any work) and one-line
 * errors (`NAME: unknown option '--x' (--help for usage)`, exit 2). The `pcp` command has its own
 * (cli/src/kit.ts); this one is for scripts, which must not depend on the CLI.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';

type Options = NonNullable<ParseArgsConfig['options']>;

export interface ScriptArgs<T extends Options> {
  values: ReturnType<typeof parseArgs<{ options: T; allowPositionals: true; strict: true }>>['values'];
  positionals: string[];
}

/** What a script's argument parsing decided: go on with the values, or exit with this text. */
export type ScriptArgsResult<T extends Options> = { ok: true; args: ScriptArgs<T> } | { ok: false; code: 0 | 2; out: string };

/** The pure part: parses ARGV against OPTIONS; `--help` and errors become an exit code and a text. */
export function parseScriptArgs<T extends Options>(name: string, usage: string, options: T, argv: string[], allowPositionals = false): ScriptArgsResult<T> {
  if (argv.includes('--help') || argv.includes('-h')) return { ok: false, code: 0, out: usage.trim() };
  try {
    const r = parseArgs({ args: argv, options, allowPositionals: true, strict: true });
    if (!allowPositionals && r.positionals.length > 0) throw new Error(`unexpected argument '${r.positionals[0]}'`);
    return { ok: true, args: { values: r.values as ScriptArgs<T>['values'], positionals: r.positionals } };
  } catch (e) {
    const msg = (e as Error).message.split('\n')[0]!.replace(/\. To specify a positional argument.*$/, '');
    return { ok: false, code: 2, out: `${name}: ${msg} (--help for usage)` };
  }
}

/** parseScriptArgs on process.argv; prints and exits on --help (0) or an error (2). */
export function scriptArgs<T extends Options>(name: string, usage: string, options: T, allowPositionals = false): ScriptArgs<T> {
  const r = parseScriptArgs(name, usage, options, process.argv.slice(2), allowPositionals);
  if (r.ok) return r.args;
  if (r.code === 0) console.log(r.out);
  else console.error(r.out);
  process.exit(r.code);
}

/** A script's one-line usage error: `NAME: MESSAGE` on stderr, exit 2 (as an unknown option's). */
export function usageExit(name: string, message: string): never {
  console.error(`${name}: ${message}`);
  process.exit(2);
}

/**
 * Option --OPTION's text VALUE as a positive integer (FALLBACK when the option is absent); anything else throws
 * `--OPTION expects a positive integer, got 'VALUE'` (the CLI kit's `positiveInt` for scripts: with
 * `checkedOption`, a script's usage error).
 */
export function positiveInt(option: string, value: string | undefined, fallback: number): number {
  const n = value === undefined ? fallback : Number(value);
  if (!Number.isInteger(n) || n < 1) throw new Error(`--${option} expects a positive integer, got '${value}'`);
  return n;
}

/** F's value; an error F throws (an option check such as the emulator's `oneOf`) becomes script NAME's usage error. */
export function checkedOption<T>(name: string, f: () => T): T {
  try {
    return f();
  } catch (e) {
    return usageExit(name, (e as Error).message);
  }
}
