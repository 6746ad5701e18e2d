/**
 * LIA vs OLIA vs uncoupled congestion control over two paths on the 64 reference graphs (h2, measured server
 * delays): per (paths, first-path loss) the median load time of each coupling and, per graph and seed, the
 * median ratio to LIA and how often each is faster / slower than LIA.
 *
 *   node --import tsx emulator/scripts/mptcp-cc.ts [--runs N]
 */
import { checkedOption, positiveInt, scriptArgs } from '@pcp/profiler/script-args';
import { median, simulate, MPTCP_COUPLINGS, type EmulatorConfig, type MptcpCoupling } from '../src/index.ts';
import { loadCorpus } from './corpus.ts';

const { values } = scriptArgs('mptcp-cc', `
usage: node --import tsx emulator/scripts/mptcp-cc.ts [--runs N]

Simulates the 64 reference graphs (h2) over a 10 Mbit/s 40 ms first path, with 0 or 1% random loss, and a
10 Mbit/s second path at 200 or 40 ms, under each MPTCP coupling (lia, olia, uncoupled), and prints per
setting the median load time and each coupling's median ratio to LIA.

  --runs N   seeds per graph (default 3)
`, { runs: { type: 'string' } });

const runs = checkedOption('mptcp-cc', () => positiveInt('runs', values.runs, 3));
const SETTINGS: Array<[string, EmulatorConfig]> = [];
for (const rtt2 of [200, 40]) {
  for (const loss of [0, 0.01]) {
    SETTINGS.push([`40 ms + ${rtt2} ms, loss ${loss * 100}%`, { bandwidthBps: 10e6, rttMs: 40, protocol: 'h2', lossRate: loss, path2: { bandwidthBps: 10e6, rttMs: rtt2 } }]);
  }
}

const corpus = loadCorpus();
const t0 = performance.now();
let sims = 0;
console.log(`${corpus.length} graphs x ${runs} seeds; median load time (ms), median ratio to LIA, faster / slower than LIA`);
for (const [label, cfg] of SETTINGS) {
  const load: Record<MptcpCoupling, number[]> = { lia: [], olia: [], uncoupled: [] };
  for (const { graph } of corpus) {
    for (let seed = 1; seed <= runs; seed++) {
      for (const mptcpCc of MPTCP_COUPLINGS) load[mptcpCc].push(simulate(graph, { ...cfg, mptcpCc, seed }).loadTime);
      sims += MPTCP_COUPLINGS.length;
    }
  }
  const cells = MPTCP_COUPLINGS.map((cc) => {
    const ratios = load[cc].map((t, k) => t / load.lia[k]!);
    const faster = load[cc].filter((t, k) => t < load.lia[k]!).length;
    const slower = load[cc].filter((t, k) => t > load.lia[k]!).length;
    return cc === 'lia' ? `LIA ${median(load.lia).toFixed(0)}` : `${cc} ${median(load[cc]).toFixed(0)} (x${median(ratios).toFixed(3)}, ${faster}/${slower})`;
  });
  console.log(`${label.padEnd(26)} ${cells.join('  ')}`);
}
console.log(`${sims} simulations in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
