/**
 * Instructions per simulation, counted by callgrind (`bench:emulate:ab --instructions`): a count the host's load
 * does not move, where a timed A/B on this shared 2-core VM resolves ~10% at best. One checkout's emulator is
 * bundled with esbuild into instructions-driver.ts, which runs warm-up simulations and then `n` counted ones
 * between two calls of the native uv_os_getpriority; callgrind dumps its counts before each call
 * (--dump-before), so the second dump holds the n simulations alone. Node runs --single-threaded (JIT compiles
 * and GC on the main thread, nothing concurrent) with fixed hash and random seeds (V8 draws both per process:
 * without them two counts of the same code differed by 1.6%, with them by 0.035%), and callgrind with
 * --smc-check=all-non-file (V8 writes and rewrites its machine code). About 50x slower than native: 3-10 min
 * per count on this host, as loaded.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const DRIVER = fileURLToPath(new URL('./instructions-driver.ts', import.meta.url));
/** The native function the driver calls (os.getPriority) on each side of the counted simulations. */
const MARKER = 'uv_os_getpriority';
/**
 * Nothing concurrent, and the same hash and random seeds in every count. The young generation fixed at the
 * size it grows to natively (16 MB semi-spaces) and no memory reducer: both are steered by wall time (an
 * allocation rate in bytes per ms), which under callgrind is ~50x slower and moves with the host's load — the
 * same code counted 8.17 M and 8.95 M instructions per h1 simulation in two runs, with a scavenge every 2
 * simulations where natively there is one every ~37.
 */
const NODE_FLAGS = ['--single-threaded', '--hash-seed=1', '--random-seed=1', '--min-semi-space-size=16', '--max-semi-space-size=16', '--no-memory-reducer'];

/** The callgrind processes under way, for a caller that is stopped to end them (bench:emulate:ab's exit handler). */
export const counting = new Set<ChildProcess>();

/**
 * Every event total of one callgrind dump (its `totals:` line, or `summary:` in older formats), by the names of
 * its `events:` line (Ir alone, or with --cache-sim=yes Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw); a column the
 * totals line leaves out is 0, as callgrind writes them.
 */
export function callgrindEvents(dump: string): Record<string, number> {
  const names = /^events:\s+(.+)$/m.exec(dump)?.[1]?.trim().split(/\s+/) ?? ['Ir'];
  const m = /^(?:totals|summary):\s+(\d+(?:\s+\d+)*)\s*$/m.exec(dump);
  if (!m) throw new Error('callgrind dump: no totals or summary line');
  const values = m[1]!.split(/\s+/).map(Number);
  return Object.fromEntries(names.map((n, i) => [n, values[i] ?? 0]));
}

/** The dump callgrind wrote second (`<prefix>.2`) among a directory's files: the counted simulations. */
export function countedDump(files: readonly string[], prefix: string): string | undefined {
  return files.find((f) => f === `${prefix}.2`);
}

/**
 * esbuild heads each module with a `// path` comment relative to the working directory: "emulator/src/x.ts" for
 * this checkout, "../s16/main-base/emulator/src/x.ts" for another. Those lengths move the script's source and
 * V8's heap layout, and with them the simulated L1 misses (identical code from two paths: 70.2 k vs 62.2 k L1
 * data read misses per h1 simulation). Every such comment is reduced to `//`, so two checkouts' bundles differ
 * only in their code.
 */
export function withoutModulePaths(code: string): string {
  return code.replace(/^\/\/ [^\n]*\.(?:ts|js|mjs|cjs|json)$/gm, '//');
}

/** Bundles the driver with `entry` (a checkout's emulator/src/index.ts) as its emulator into `outFile` (module paths left out: withoutModulePaths). */
export async function bundleDriver(entry: string, outFile: string): Promise<void> {
  const out = await build({ entryPoints: [DRIVER], bundle: true, platform: 'node', format: 'esm', target: 'node20', write: false, outfile: outFile, alias: { EMULATOR: entry }, logLevel: 'warning' });
  writeFileSync(outFile, withoutModulePaths(out.outputFiles[0]!.text));
}

export interface CountOptions {
  /** Warm-up simulations before the counted ones (the timed bench's 300). */
  warm: number;
  /** Counted simulations. */
  n: number;
  /** Environment for the driver (PCP_SHARED: a bundle cannot find the shared directory from its own place). */
  env: NodeJS.ProcessEnv;
  /** Simulate the caches too (--cache-sim=yes: L1 and last-level misses, deterministic; about twice as slow). */
  cache?: boolean;
}

/** Runs a bundled driver under callgrind on one configuration: every event count (callgrindEvents) per counted simulation. */
export function eventsPerSimulation(bundle: string, graphFile: string, config: object, o: CountOptions): Promise<Record<string, number>> {
  const dir = mkdtempSync(join(bundle, '..', 'callgrind-'));
  const prefix = 'cg.out';
  const args = ['--tool=callgrind', '--smc-check=all-non-file', `--dump-before=${MARKER}`, `--callgrind-out-file=${join(dir, prefix)}`, ...(o.cache ? ['--cache-sim=yes'] : []),
    process.execPath, ...NODE_FLAGS, bundle, graphFile, JSON.stringify(config), String(o.warm), String(o.n)];
  return new Promise((done, fail) => {
    const p = spawn('valgrind', args, { stdio: ['ignore', 'ignore', 'pipe'], env: o.env });
    counting.add(p);
    let err = '';
    p.stderr.on('data', (d: Buffer) => (err = (err + d.toString()).slice(-4000)));
    p.on('error', (e) => fail(new Error(`valgrind: ${e.message} (is valgrind installed?)`)));
    p.on('close', (code) => {
      counting.delete(p);
      try {
        const dump = countedDump(readdirSync(dir), prefix);
        if (code !== 0 || dump === undefined) throw new Error(`callgrind on ${bundle} failed (exit ${code}): ${err.trim().split('\n').slice(-3).join(' | ')}`);
        const events = callgrindEvents(readFileSync(join(dir, dump), 'utf8'));
        done(Object.fromEntries(Object.entries(events).map(([k, v]) => [k, v / o.n])));
      } catch (e) {
        fail(e as Error);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  });
}

/** The counts `--cache` prints: instructions, data reads and writes, L1 data read and write misses, L1 instruction misses, last-level misses (all three kinds). */
const CACHE_ROWS: readonly [string, (e: Record<string, number>) => number][] = [
  ['Ir', (e) => e.Ir ?? 0],
  ['Dr', (e) => e.Dr ?? 0],
  ['Dw', (e) => e.Dw ?? 0],
  ['D1mr', (e) => e.D1mr ?? 0],
  ['D1mw', (e) => e.D1mw ?? 0],
  ['I1mr', (e) => e.I1mr ?? 0],
  ['LLm', (e) => (e.ILmr ?? 0) + (e.DLmr ?? 0) + (e.DLmw ?? 0)],
];

/** One line per count of CACHE_ROWS: both sides' counts per simulation and their ratio (this / baseline). */
export function cacheRows(name: string, here: Record<string, number>, there: Record<string, number>): string[] {
  const fmt = (v: number): string => (v >= 1e6 ? `${(v / 1e6).toFixed(3)} M` : `${(v / 1e3).toFixed(2)} k`).padStart(10);
  return CACHE_ROWS.map(([label, get]) => {
    const a = get(here);
    const b = get(there);
    return `${name.padEnd(8)} ${label.padEnd(5)} this ${fmt(a)}  baseline ${fmt(b)}  ratio ${b > 0 ? (a / b).toFixed(4) : '-'}`;
  });
}
