/**
 * The program `bench:emulate:ab --instructions` bundles (esbuild, with EMULATOR aliased to one checkout's
 * emulator/src/index.ts) and runs under callgrind: the warm-up simulations, then `n` timed ones between two
 * calls of os.getPriority(), whose native uv_os_getpriority is where callgrind dumps its counts
 * (--dump-before), so the second dump holds the n simulations alone.
 * Arguments: graph JSON file, configuration JSON, warm-up count, n. Prints the last counted simulation's load
 * time and packets (seed n - 1), so a test can check the bundle computes what the sources do.
 */
import { readFileSync } from 'node:fs';
import { getPriority } from 'node:os';
// @ts-expect-error resolved by the bundler's alias to the checkout under test
import { simulate } from 'EMULATOR';

const [graphFile, configJson, warm, n] = process.argv.slice(2);
const graph: unknown = JSON.parse(readFileSync(graphFile!, 'utf8'));
const config = JSON.parse(configJson!) as Record<string, unknown>;
for (let i = 0; i < Number(warm); i++) simulate(graph, { ...config, seed: i });
getPriority();
let last: { loadTime: number; packets: number } | undefined;
for (let i = 0; i < Number(n); i++) last = simulate(graph, { ...config, seed: i });
getPriority();
console.log(JSON.stringify({ loadTime: last?.loadTime, packets: last?.packets }));
