/**
 * The A/B check that goes with bench:emulate: a change made for speed must not change any result. Simulates
 * the 64 reference graphs under configurations covering every protocol and option family (lossy, bursty,
 * CUBIC, delayed ACKs, TLP, sharding, jitter, MPTCP with each scheduler and coupling, lossy second paths), two seeds each,
 * and prints a hash of every result's JSON per configuration. Run it on two checkouts and compare the lines.
 *
 *   node --import tsx emulator/bench/results-hash.ts [--baseline DIR]
 */
import { createHash } from 'node:crypto';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { scriptArgs } from '@pcp/profiler/script-args';
import { simulate, type EmulatorConfig } from '../src/index.ts';
import { loadCorpus } from '../scripts/corpus.ts';

const { values } = scriptArgs('results-hash', `
usage: node --import tsx emulator/bench/results-hash.ts [--baseline DIR]

A hash of every simulation result (64 reference graphs x 12 configurations x 2 seeds) per configuration, to
show that a change made for speed changed no result.

  --baseline DIR   also hash another checkout's emulator (e.g. a git worktree of main) and compare
`, { baseline: { type: 'string' } });

const CONFIGS: Record<string, EmulatorConfig> = {
  h2: { bandwidthBps: 10e6, rttMs: 40, protocol: 'h2' },
  h1: { bandwidthBps: 5e6, rttMs: 100, protocol: 'h1' },
  'h1.0': { bandwidthBps: 2.5e6, rttMs: 8, protocol: 'h1.0' },
  pipelined: { bandwidthBps: 1e6, rttMs: 40, protocol: 'h1-pipelined' },
  'quic-lite': { bandwidthBps: 50e6, rttMs: 20, protocol: 'quic-lite', priority: 'criticalPath' },
  jitter: { bandwidthBps: 1e6, rttMs: 200, protocol: 'h2', rttJitter: 0.1, icwnd: 4 },
  lossy: { bandwidthBps: 10e6, rttMs: 70, protocol: 'h2', lossRate: 0.02, delayedAcks: true, tlp: true, congestionControl: 'cubic' },
  gilbert: { bandwidthBps: 5e6, rttMs: 70, protocol: 'h1', lossModel: 'gilbert:0.005,0.2,0,1', shardLarge: 20000 },
  mptcp: { bandwidthBps: 10e6, rttMs: 40, protocol: 'h2', path2: { bandwidthBps: 10e6, rttMs: 200 } },
  'mp-quic': { bandwidthBps: 10e6, rttMs: 40, protocol: 'quic-lite', mptcpScheduler: 'stream', mptcpCc: 'uncoupled', path2: { bandwidthBps: 2e6, rttMs: 8, loss: 0.01 } },
  'mp-olia': { bandwidthBps: 5e6, rttMs: 40, protocol: 'h2', mptcpCc: 'olia', delayedAcks: true, psh: true, path2: { bandwidthBps: 2e6, rttMs: 100, loss: 0.005 } },
  'mp-lossy': { bandwidthBps: 1e6, rttMs: 8, protocol: 'h2', lossRate: 0.01, psh: true, delayedAcks: true, tlp: true, path2: { bandwidthBps: 0.2e6, rttMs: 8 } },
};

type Simulate = typeof simulate;
let other: Simulate | undefined;
if (values.baseline !== undefined) {
  const entry = resolve(values.baseline, 'emulator/src/index.ts');
  try {
    other = ((await import(pathToFileURL(entry).href)) as { simulate: Simulate }).simulate;
  } catch (e) {
    console.error(`results-hash: --baseline: cannot load ${entry}: ${(e as Error).message.split('\n')[0]}`);
    process.exit(2);
  }
}

const corpus = loadCorpus();
function hash(sim: Simulate, config: EmulatorConfig): string {
  const h = createHash('sha256');
  for (const { graph } of corpus) for (const seed of [1, 2]) h.update(JSON.stringify(sim(graph, { ...config, seed })));
  return h.digest('hex').slice(0, 16);
}

let differ = 0;
for (const [name, config] of Object.entries(CONFIGS)) {
  const a = hash(simulate, config);
  if (!other) {
    console.log(`${name.padEnd(10)} ${a}`);
    continue;
  }
  const b = hash(other, config);
  if (a !== b) differ++;
  console.log(`${name.padEnd(10)} ${a}  baseline ${b}  ${a === b ? 'same' : 'DIFFERENT'}`);
}
if (other) console.log(differ === 0 ? 'every result identical' : `${differ} configuration(s) differ`);
process.exitCode = differ === 0 ? 0 : 1;
