/**
 * Benchmark (root script "bench:emulate:ab"): this checkout's emulator against another's, each timed in a process of
 * its own, in pairs that alternate which runs first; prints every pair and the medians. The in-process A/B
 * (`bench:emulate -- --baseline DIR`) shares one heap and JIT between the two and cannot resolve 5% on a
 * loaded host; separate processes can, given enough pairs.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { checkedOption, positiveInt, scriptArgs, usageExit } from '@pcp/profiler/script-args';
import type { EmulatorConfig, simulate as Simulate } from '../src/index.ts';
import { median } from '../src/stats.ts';

/** The configurations of bench:emulate, by name. */
const CONFIGS: Record<string, EmulatorConfig> = {
  h1: { bandwidthBps: 10e6, rttMs: 40, protocol: 'h1' },
  h2: { bandwidthBps: 10e6, rttMs: 40, protocol: 'h2' },
  mptcp: { bandwidthBps: 10e6, rttMs: 40, protocol: 'h2', path2: { bandwidthBps: 10e6, rttMs: 200 } },
  'mp-quic': { bandwidthBps: 10e6, rttMs: 40, protocol: 'quic-lite', mptcpScheduler: 'stream', mptcpCc: 'uncoupled', path2: { bandwidthBps: 10e6, rttMs: 200 } },
};

const { values } = scriptArgs('bench:emulate:ab', `
usage: npm run bench:emulate:ab -- --baseline DIR [--configs h1,h2] [--pairs 10] [--ms 1500]
       npm run bench:emulate:ab -- --baseline DIR --instructions [--cache] [--configs h1,h2] [--sims 50]

Simulations per CPU-second on the median-size reference graph (as bench:emulate), this checkout's emulator
against the one in DIR (another checkout, e.g. \`git worktree add /tmp/base main\`), each run in a process of
its own (300 warm-up simulations, then --ms of timing), in pairs alternating which goes first. Prints each pair
and, per configuration, both medians and the median of the per-pair ratios (a benchmark).

  --baseline DIR   the other checkout (its emulator/src/index.ts is loaded)
  --configs LIST   of ${Object.keys(CONFIGS).join(', ')} (default h1,h2)
  --pairs N        pairs per configuration (default 10)
  --ms N           timed milliseconds per process (default 1500)
  --instructions   instead of timing, count instructions per simulation under valgrind's callgrind (both
                   checkouts bundled with esbuild, module path comments left out, 300 warm-up simulations,
                   then --sims counted; the two sides run at once, fixed seeds, the young generation fixed
                   at its native 16 MB and no memory reducer, whose wall-time heuristics callgrind's slowness
                   and the host's load would move): 5-10 min per configuration here; it sees work, not
                   memory stalls
  --cache          with --instructions, simulate the caches too (callgrind --cache-sim=yes): per simulation
                   instructions, data reads and writes, L1 data read and write misses, L1 instruction
                   misses and last-level misses of both sides, deterministic (memory behaviour apart
                   from the load); about twice as slow
  --sims N         counted simulations per side with --instructions (default 50)
`, { baseline: { type: 'string' }, configs: { type: 'string' }, pairs: { type: 'string' }, ms: { type: 'string' }, instructions: { type: 'boolean' }, cache: { type: 'boolean' }, sims: { type: 'string' }, child: { type: 'string' }, graph: { type: 'string' }, config: { type: 'string' } });

/** Child mode: time one emulator on one configuration and print its rate. */
async function child(entry: string, graphFile: string, name: string, ms: number): Promise<void> {
  const { simulate } = (await import(pathToFileURL(entry).href)) as { simulate: typeof Simulate };
  const graph = JSON.parse(readFileSync(graphFile, 'utf8')) as Parameters<typeof Simulate>[0];
  const config = CONFIGS[name]!;
  for (let i = 0; i < 300; i++) simulate(graph, { ...config, seed: i });
  const cpu = (): number => {
    const u = process.cpuUsage();
    return (u.user + u.system) / 1e6;
  };
  const t0 = performance.now();
  const c0 = cpu();
  let n = 0;
  while (performance.now() - t0 < ms) simulate(graph, { ...config, seed: n++ });
  console.log((n / (cpu() - c0)).toFixed(1));
}

function positive(name: string, v: string | undefined, dflt: number): number {
  return checkedOption('bench:emulate:ab', () => positiveInt(name, v, dflt));
}

const running = new Set<ReturnType<typeof spawn>>();
/** One timed process: its simulations per CPU-second. */
function rate(entry: string, graphFile: string, name: string, ms: number): Promise<number> {
  return new Promise((done, fail) => {
    const p = spawn(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), '--child', entry, '--graph', graphFile, '--config', name, '--ms', String(ms)], { stdio: ['ignore', 'pipe', 'inherit'] });
    running.add(p);
    let out = '';
    p.stdout.on('data', (d: Buffer) => (out += d.toString()));
    p.on('close', (code) => {
      running.delete(p);
      const r = Number(out.trim());
      if (code === 0 && r > 0) done(r);
      else fail(new Error(`timing ${entry} (${name}) failed (exit ${code})`));
    });
  });
}

/** --instructions: both checkouts' instructions per simulation, per configuration (callgrind, instructions.ts). */
async function countInstructions(here: string, there: string, graphFile: string, tmp: string, names: string[], sims: number, cache: boolean): Promise<void> {
  const { bundleDriver, eventsPerSimulation, cacheRows } = await import('./instructions.ts');
  const { sharedDir } = await import('../src/index.ts');
  // Names of one length: the script's URL is in the heap too.
  const bundles = [join(tmp, 'this.mjs'), join(tmp, 'base.mjs')];
  await bundleDriver(here, bundles[0]!);
  await bundleDriver(there, bundles[1]!);
  const env = { ...process.env, PCP_SHARED: sharedDir() };
  const what = cache ? 'instructions and simulated cache misses' : 'instructions';
  console.log(`${what} per simulation (callgrind, 300 warm-up then ${sims} counted, node --single-threaded, fixed seeds)`);
  for (const name of names) {
    const [a, b] = await Promise.all(bundles.map((f) => eventsPerSimulation(f, graphFile, CONFIGS[name]!, { warm: 300, n: sims, env, cache })));
    if (cache) for (const line of cacheRows(name, a!, b!)) console.log(line);
    else console.log(`${name.padEnd(8)} this ${(a!.Ir! / 1e6).toFixed(3)} M  baseline ${(b!.Ir! / 1e6).toFixed(3)} M  ratio ${(a!.Ir! / b!.Ir!).toFixed(4)}`);
  }
}

if (values.child !== undefined) {
  await child(values.child, values.graph!, values.config!, Number(values.ms));
} else {
  if (values.baseline === undefined) {
    usageExit('bench:emulate:ab', '--baseline DIR is required (another checkout of this repository)');
  }
  const here = resolve(fileURLToPath(import.meta.url), '../../src/index.ts');
  const there = resolve(values.baseline, 'emulator/src/index.ts');
  if (!existsSync(there)) {
    usageExit('bench:emulate:ab', `--baseline: no ${there} (a checkout of this repository)`);
  }
  const names = (values.configs ?? 'h1,h2').split(',').map((s) => s.trim());
  for (const n of names) {
    if (!(n in CONFIGS)) {
      usageExit('bench:emulate:ab', `unknown configuration '${n}' (one of ${Object.keys(CONFIGS).join(', ')})`);
    }
  }
  const pairs = positive('pairs', values.pairs, 10);
  const ms = positive('ms', values.ms, 1500);
  const { loadCorpus, medianGraph } = await import('../scripts/corpus.ts');
  const tmp = mkdtempSync(join(tmpdir(), 'pcp-ab-'));
  const { counting } = await import('./instructions.ts');
  const stop = (): void => {
    for (const p of [...running, ...counting]) p.kill('SIGKILL');
    rmSync(tmp, { recursive: true, force: true });
  };
  process.on('exit', stop);
  for (const sig of ['SIGINT', 'SIGTERM'] as const) process.on(sig, () => process.exit(130));
  const med = medianGraph(loadCorpus());
  const graphFile = join(tmp, 'median.json');
  writeFileSync(graphFile, JSON.stringify(med.graph));
  if (values.cache && !values.instructions) {
    usageExit('bench:emulate:ab', '--cache goes with --instructions');
  }
  const how = values.instructions ? (values.cache ? 'instructions and cache misses counted' : 'instructions counted') : `${pairs} pairs of ${ms} ms per configuration`;
  console.log(`median-size reference graph: ${med.slug}; this checkout vs ${values.baseline}, ${how}`);
  try {
    if (values.instructions) await countInstructions(here, there, graphFile, tmp, names, positive('sims', values.sims, 50), values.cache === true);
    else for (const name of names) {
      const a: number[] = [];
      const b: number[] = [];
      for (let i = 0; i < pairs; i++) {
        // Alternate which goes first, so neither always runs right after the other.
        if (i % 2 === 0) {
          a.push(await rate(here, graphFile, name, ms));
          b.push(await rate(there, graphFile, name, ms));
        } else {
          b.push(await rate(there, graphFile, name, ms));
          a.push(await rate(here, graphFile, name, ms));
        }
        console.log(`${name.padEnd(8)} pair ${String(i + 1).padStart(2)}: this ${a[i]!.toFixed(0).padStart(5)}  baseline ${b[i]!.toFixed(0).padStart(5)}  ratio ${(a[i]! / b[i]!).toFixed(3)}`);
      }
      const ratios = a.map((x, i) => x / b[i]!);
      console.log(`${name.padEnd(8)} median this ${median(a).toFixed(0)}  baseline ${median(b).toFixed(0)}  median ratio ${median(ratios).toFixed(3)} (${Math.min(...ratios).toFixed(3)}-${Math.max(...ratios).toFixed(3)})`);
    }
  } catch (e) {
    console.error(`bench:emulate:ab: ${(e as Error).message}`);
    process.exitCode = 1;
  }
}
