/**
 * What tail-loss probes and re-ordering do in one cell of Goel's experiment (root script "emulate:goel:trace"):
 * one page under one testbed profile at a fixed loss scale, h1 and h2, seeds 1..N, each host setting given.
 * Every connection's counters (network/tcp.ts: probes by kind, the window cuts their ACKs made, timeouts, late
 * segments deemed lost and cuts undone) are summed as the connection ends, and printed beside the median PLT.
 */
import { checkedOption, scriptArgs, usageExit } from '@pcp/profiler/script-args';
import { LOSS_DETECTIONS, oneOf, simulate, type EmulatorConfig } from '../../src/index.ts';
import { TcpConnection } from '../../src/network/tcp.ts';
import { median } from '../../src/stats.ts';
import { cellArgs } from './cell-args.ts';
import { buildPage, PAGE_FAMILIES } from './pages.ts';
import { goelConfig, testbedProfile } from './profiles.ts';

const HELP = `usage: npm run emulate:goel:trace [-- --page NAME] [--family frequency|quality] [--profile NAME] [--scale X] [--runs N]
                                  [--loss-detection nack|sack] [--tlp] [--early-retransmit] [--fack] [--frto] [--linux-rto] [--no-reorder]

One cell of Goel's experiment (default: the 2 MB page mixed-3 under Poor, loss x0.25, seeds 1-15), h1 and
h2, with the hosts' loss detection as given: median PLT, and summed over the connections: tail-loss probes
(new data / refilling a real loss / a duplicate), window cuts by the probes' ACKs, the mean window at a probe,
timeouts, late segments deemed lost on the re-ordering link, the window cuts they alone caused and cuts undone.

  --page NAME       one of ${PAGE_FAMILIES.map((p) => p.name).join(', ')}
  --family F        the profile family: frequency (Good, Median, Poor; default) or quality (Good, Fair,
                    Passable, Poor)
  --profile NAME    a profile of the family (default Poor)
  --scale X         the loss slices' scale (default 0.25)
  --runs N          seeds 1..N (default 15)
  --no-reorder      the bridge keeps packets in order
  --linux-rto       Linux's RTO, SRTT + max(4 RTTVAR, 200 ms) (emulate:goel's Linux 3.13 hosts)
  (the host switches as emulate:goel's)
  -h, --help        this help
`;

interface Counts {
  probes: number;
  probesNew: number;
  probesRepairing: number;
  probeCuts: number;
  probeCwndSum: number;
  timeouts: number;
  spuriousLosses: number;
  lateCuts: number;
  undoneCuts: number;
  dsackUndos: number;
}
const KEYS = ['probes', 'probesNew', 'probesRepairing', 'probeCuts', 'probeCwndSum', 'timeouts', 'spuriousLosses', 'lateCuts', 'undoneCuts', 'dsackUndos'] as const;
const zero = (): Counts => ({ probes: 0, probesNew: 0, probesRepairing: 0, probeCuts: 0, probeCwndSum: 0, timeouts: 0, spuriousLosses: 0, lateCuts: 0, undoneCuts: 0, dsackUndos: 0 });

/** Sums every connection's counters as it is recycled at the end of a simulation. */
let sink = zero();
const recycle = TcpConnection.prototype.recycle;
TcpConnection.prototype.recycle = function (this: TcpConnection): void {
  for (const k of KEYS) sink[k] += this[k];
  recycle.call(this);
};

function main(): number {
  const { values } = scriptArgs('emulate:goel:trace', HELP, {
    page: { type: 'string' }, family: { type: 'string' }, profile: { type: 'string' }, scale: { type: 'string' }, runs: { type: 'string' }, 'no-reorder': { type: 'boolean' },
    'loss-detection': { type: 'string' }, tlp: { type: 'boolean' }, 'early-retransmit': { type: 'boolean' }, fack: { type: 'boolean' }, frto: { type: 'boolean' }, 'linux-rto': { type: 'boolean' },
  });
  const cell = cellArgs(values, { page: 'mixed-3', profile: 'Poor', scale: 0.25 });
  if (typeof cell === 'string') return usageExit('emulate:goel:trace', cell);
  const { page, testbed: tb, scale, runs } = cell;
  const ld = values['loss-detection'] === undefined ? undefined : checkedOption('emulate:goel:trace', () => oneOf('loss-detection', values['loss-detection']!, LOSS_DETECTIONS));
  const hosts: Partial<EmulatorConfig> = {
    lossDetection: ld, tlp: values.tlp, earlyRetransmit: values['early-retransmit'], fack: values.fack, frto: values.frto, linuxRto: values['linux-rto'],
  };
  const profile = testbedProfile(tb, { lossScale: scale, reorder: !values['no-reorder'] });
  const graph = buildPage(page);
  console.log(`${page.name} under ${tb.name} (${profile.what}), seeds 1-${runs}, hosts: ${Object.entries(hosts).filter(([, v]) => v).map(([k, v]) => (v === true ? k : `${k} ${v}`)).join(', ') || 'the NACK scheme'}`);
  for (const protocol of ['h1', 'h2'] as const) {
    sink = zero();
    const loads: number[] = [];
    for (let seed = 1; seed <= runs; seed++) loads.push(simulate(graph, goelConfig(profile, protocol, seed, hosts)).loadTime);
    const c = sink;
    const dup = c.probes - c.probesNew - c.probesRepairing;
    console.log(`  ${protocol}: median PLT ${(median(loads) / 1000).toFixed(2)} s; probes ${c.probes} (new data ${c.probesNew}, refilling a loss ${c.probesRepairing}, duplicates ${dup}), cuts by probe ACKs ${c.probeCuts}, mean window at a probe ${c.probes ? (c.probeCwndSum / c.probes).toFixed(1) : '-'}; timeouts ${c.timeouts}; late segments deemed lost ${c.spuriousLosses}, window cuts they alone caused ${c.lateCuts}, cuts undone ${c.undoneCuts} (by D-SACK ${c.dsackUndos})`);
  }
  return 0;
}

process.exitCode = main();
