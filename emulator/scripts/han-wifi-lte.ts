/**
 * Han et al. 2015's WiFi + LTE experiment in miniature (han-wifi-lte-setup.ts): the legacy corpus over WiFi
 * alone (single-path TCP) and over WiFi + LTE (MPTCP, LTE a Mahimahi trace or constant), HTTP (h1) and SPDY
 * (h2), 0 / 0.5 / 1% extra WiFi loss, in Han's testbed (HTTP / SPDY proxy, Linux hosts) or straight to each host.
 * Prints median PLTs, the mean PLT reduction of MPTCP, and the median share of bytes over LTE beside Han's. See
 * emulator/README.md ("WiFi + LTE").
 */
import { fileURLToPath } from 'node:url';
import { checkedOption, positiveInt, scriptArgs } from '@pcp/profiler/script-args';
import { simulate } from '../src/index.ts';
import { median } from '../src/stats.ts';
import { reduction } from './chapter6-stats.ts';
import { loadCorpus } from './corpus.ts';
import { subflowTally, type SubflowTally } from './subflow-tally.ts';
import { HAN_LTE_SHARE, HAN_NAME, HAN_PROTOCOLS, HAN_SETUPS, hanConfig, pageHosts, WIFI_LOSSES, type HanSetup, type Lte } from './han-wifi-lte-setup.ts';

const { values } = scriptArgs('han-wifi-lte', `
usage: node --import tsx emulator/scripts/han-wifi-lte.ts [--graphs N] [--seeds N] [--lte-trace FILE] [--setup testbed|direct]

Han et al. 2015 (MPTCP for the web, WiFi + LTE) over the legacy corpus: HTTP (h1) and SPDY (h2) on WiFi
(7.04 Mbit/s, 50 ms) alone and with LTE as a second path (70 ms, a Mahimahi trace; and a constant 9.185
Mbit/s), under 0, 0.5 and 1% extra WiFi loss. Prints median PLT, MPTCP's mean PLT reduction and the median
share of bytes over LTE beside Han's published medians; with LTE constant, the share of MPTCP connections
that sent anything over LTE (Han: 47.4% of HTTP's) and the share of LTE's bytes the min-RTT scheduler sent
there while WiFi's window had room (WiFi's RTT, queueing included, was the higher), pooled over the runs.

  --graphs N       the first N graphs of the corpus (default all 64)
  --seeds N        seeds per graph (RTT jitter, losses) (default 3)
  --lte-trace F    LTE downlink trace (default emulator/traces/cellular-variable.trace)
  --setup S        testbed (default): Han's: the browser behind an HTTP or SPDY proxy (SPDY one TLS connection
                   for the whole page, HTTP 6 connections per origin), Linux 3.14 hosts (SACK, FACK, TLP, early
                   retransmit, F-RTO, Linux's restart after idle and RTO); direct: h1 / h2 to each host, the thesis' TCP
`, { graphs: { type: 'string' }, seeds: { type: 'string', default: '3' }, 'lte-trace': { type: 'string' }, setup: { type: 'string', default: 'testbed' } });

const positive = (name: string, v: string | undefined, dflt: number): number => checkedOption('han-wifi-lte', () => positiveInt(name, v, dflt));
const corpus = loadCorpus();
const graphs = corpus.slice(0, positive('graphs', values.graphs, corpus.length));
const seeds = positive('seeds', values.seeds, 3);
const setup = values.setup as HanSetup;
if (!HAN_SETUPS.includes(setup)) {
  console.error(`han-wifi-lte: --setup expects ${HAN_SETUPS.join(' or ')}, got '${values.setup}'`);
  process.exit(2);
}
const ltePath = values['lte-trace'] ?? fileURLToPath(new URL('../traces/cellular-variable.trace', import.meta.url));

const pct = (x: number): string => `${x.toFixed(1)}%`;
const ms = (x: number): string => `${Math.round(x)}`;
console.log(`Han 2015 WiFi + LTE in miniature (${setup}): ${graphs.length} graphs x ${seeds} seeds; LTE trace ${ltePath}`);
console.log('proto  WiFi loss | PLT ms (median): TCP WiFi  MPTCP+LTE trace  MPTCP+LTE const | MPTCP reduction: trace  const | bytes on LTE (median): trace  const  Han | const: conns using LTE  LTE bytes while WiFi had room');
for (const protocol of HAN_PROTOCOLS) {
  WIFI_LOSSES.forEach((loss, li) => {
    const plt: Record<Lte, number[]> = { none: [], trace: [], constant: [] };
    const share: Record<'trace' | 'constant', number[]> = { trace: [], constant: [] };
    const pooled: SubflowTally = { connections: 0, usingPath2: 0, bytes: [0, 0], path2WhileRoom: 0 };
    for (const { graph } of graphs) {
      const hosts = pageHosts(graph);
      for (let seed = 1; seed <= seeds; seed++) {
        for (const lte of ['none', 'trace', 'constant'] as const) {
          const cfg = hanConfig(protocol, loss, lte, ltePath, seed, setup, hosts);
          let r;
          if (lte === 'constant') {
            const t = subflowTally(graph, cfg);
            r = t.result;
            pooled.connections += t.tally.connections;
            pooled.usingPath2 += t.tally.usingPath2;
            pooled.bytes[1] += t.tally.bytes[1];
            pooled.path2WhileRoom += t.tally.path2WhileRoom;
          } else r = simulate(graph, cfg);
          plt[lte].push(r.loadTime);
          if (lte !== 'none') share[lte].push((100 * r.multipath!.bytesPath2) / Math.max(1, r.bytesDelivered));
        }
      }
    }
    console.log(
      `${HAN_NAME[protocol].padEnd(5)}  ${pct(100 * loss).padStart(9)} | ${ms(median(plt.none)).padStart(24)}  ${ms(median(plt.trace)).padStart(15)}  ${ms(median(plt.constant)).padStart(15)} | ` +
        `${pct(reduction(plt.none, plt.trace)).padStart(22)}  ${pct(reduction(plt.none, plt.constant)).padStart(5)} | ` +
        `${pct(median(share.trace)).padStart(27)}  ${pct(median(share.constant)).padStart(5)}  ${pct(HAN_LTE_SHARE[protocol][li]!)} | ` +
        `${pct((100 * pooled.usingPath2) / Math.max(1, pooled.connections)).padStart(22)}  ${pct((100 * pooled.path2WhileRoom) / Math.max(1, pooled.bytes[1])).padStart(28)}`,
    );
  });
}
