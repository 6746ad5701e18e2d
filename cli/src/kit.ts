/**
 * The small toolkit every `pcp` command is written with: argument parsing with clear usage errors,
 * one-line failures, and a progress bar for batch work.
 * Command modules live in cli/src/commands/<name>.ts and export `command`; they are thin I/O shells
 * over the packages' pure cores and import heavy modules inside `run` so `pcp --help` stays fast.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';

export interface Command {
  name: string;
  /** One line for the command list. */
  summary: string;
  /** Full help text printed by `pcp <name> --help`. */
  usage: string;
  /** Returns the exit code (0 when omitted). Throw UsageError or CliError for a one-line failure. */
  run(args: string[]): Promise<number | void>;
}

/** Wrong words on the command line: exit 2, with a pointer to --help. */
export class UsageError extends Error {}

/** A failure the user can act on (missing file, unreachable URL...): exit 1, one line, no stack. */
export class CliError extends Error {}

/**
 * A failure about the file or bundle `source`, named once: a message that already starts with the
 * source (the builders name what they read) is not prefixed again.
 */
export function sourceError(source: string, e: unknown): CliError {
  const msg = e instanceof Error ? e.message : String(e);
  return new CliError(msg.startsWith(`${source}:`) ? msg : `${source}: ${msg}`);
}

/**
 * `f()`, with an error of class `bad` (a package's bad-input error: the emulator's ConfigError) as a
 * UsageError with its message; any other error as it is.
 */
export function asUsageError<T>(bad: abstract new (...args: never[]) => Error, f: () => T): T {
  try {
    return f();
  } catch (e) {
    throw e instanceof bad ? new UsageError(e.message) : e;
  }
}

export type Options = NonNullable<ParseArgsConfig['options']>;

export interface Parsed {
  values: Record<string, string | boolean | (string | boolean)[] | undefined>;
  positionals: string[];
}

/** util.parseArgs with its errors turned into UsageErrors. */
export function parse(args: string[], options: Options, allowPositionals = true): Parsed {
  try {
    const r = parseArgs({ args, options, allowPositionals, strict: true });
    return { values: r.values as Parsed['values'], positionals: r.positionals };
  } catch (e) {
    throw new UsageError((e as Error).message.replace(/\. To specify a positional argument.*$/s, ''));
  }
}

export function str(p: Parsed, name: string): string | undefined {
  const v = p.values[name];
  return typeof v === 'string' ? v : undefined;
}

export function flag(p: Parsed, name: string): boolean {
  return p.values[name] === true;
}

export function num(p: Parsed, name: string, fallback: number): number {
  const v = str(p, name);
  if (v === undefined) return fallback;
  const n = Number(v);
  if (!Number.isFinite(n)) throw new UsageError(`--${name} expects a number, got '${v}'`);
  return n;
}

/** A whole number >= 1 (counts: runs, workers, pages at once); `fallback` when the option is absent. */
export function positiveInt(p: Parsed, name: string, fallback: number): number;
export function positiveInt(p: Parsed, name: string, fallback?: number): number | undefined;
export function positiveInt(p: Parsed, name: string, fallback?: number): number | undefined {
  const v = str(p, name);
  if (v === undefined) return fallback;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1) throw new UsageError(`--${name} expects a positive integer, got '${v}'`);
  return n;
}

export function requireStr(p: Parsed, name: string): string {
  const v = str(p, name);
  if (v === undefined) throw new UsageError(`--${name} is required`);
  return v;
}

export { Progress } from '@pcp/profiler/progress';

/** `--format legacy FILE --out OUT`, the arguments `pcp export` and `pcp import` share. */
export function legacyFormatArgs(args: string[]): { file: string; out: string } {
  const p = parse(args, { format: { type: 'string' }, out: { type: 'string' } });
  if (str(p, 'format') !== 'legacy') throw new UsageError(`--format must be 'legacy'`);
  const out = requireStr(p, 'out');
  const [file, ...extra] = p.positionals;
  if (!file || extra.length) throw new UsageError('expected exactly one graph file');
  return { file, out };
}
