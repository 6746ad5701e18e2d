/**
 * Why one extra h2 connection barely helps where Goel's sharding does (root script "emulate:goel:shard"): one
 * page under one loss-frequency profile at a fixed loss scale, seeds 1..N, each way of loading it
 * (variants.ts). Per load, from the result's per-connection 70 ms slices (`retransmissionSlices`): the busiest
 * connection's share of the data segments sent, its segments per slice while it sends, the page's segments
 * per slice over the load, and the share retransmitted; medians over the seeds printed per way.
 */
import { scriptArgs, usageExit } from '@pcp/profiler/script-args';
import { checkedSimulate as simulate, type EmulatorConfig } from '../../src/index.ts';
import { median } from '../../src/stats.ts';
import { cellArgs } from './cell-args.ts';
import { buildPage, PAGE_FAMILIES } from './pages.ts';
import { LINUX_3_13_HOSTS, testbedProfile } from './profiles.ts';
import { SLICE_MS } from './testbed.ts';
import { loadShape, type LoadShape } from './load-shape.ts';
import { ALL_VARIANTS, variantConfig } from './variants.ts';

const HELP = `usage: npm run emulate:goel:shard [-- --page NAME] [--family frequency|quality] [--profile NAME] [--scale X] [--runs N] [--fixed-rwnd | --no-rwnd] [--no-refill]

One cell of Goel's experiment (default: the 8 MB page mixed-12 under Median, loss x0.5, seeds 1-15, Linux 3.13
hosts), loaded as h1, h2, h2 with every large object over one second connection (--shard-large), and Goel's
Types A, C, B (2, 5, 12 large objects one connection each): median PLT, connections, and from each load's
per-connection 70 ms slices the busiest connection's share of the data segments, its segments per slice while
it sends, the page's segments per slice over the load, and the share retransmitted (medians over the seeds).

  --page NAME       one of ${PAGE_FAMILIES.map((p) => p.name).join(', ')} (default mixed-12)
  --family F        the profile family: frequency (Good, Median, Poor; default) or quality (Good, Fair,
                    Passable, Poor)
  --profile NAME    a profile of the family (default Median)
  --scale X         the loss slices' scale (default 0.5, emulate:goel's calibration for Median)
  --runs N          seeds 1..N (default 15)
  --fixed-rwnd      the 65 KB receive windows stay fixed (no autotuning; sessions 11-15)
  --no-rwnd         no 65 KB receive-window cap per connection
  --no-refill       the slice's rate alone: no 64 KiB bucket refill per slice (emulate:goel's --no-refill)
  -h, --help        this help
`;

function main(): number {
  const { values } = scriptArgs('emulate:goel:shard', HELP, { page: { type: 'string' }, family: { type: 'string' }, profile: { type: 'string' }, scale: { type: 'string' }, runs: { type: 'string' }, 'fixed-rwnd': { type: 'boolean' }, 'no-rwnd': { type: 'boolean' }, 'no-refill': { type: 'boolean' } });
  const cell = cellArgs(values, { page: 'mixed-12', profile: 'Median', scale: 0.5 });
  if (typeof cell === 'string') return usageExit('emulate:goel:shard', cell);
  const { page, testbed: tb, scale, runs } = cell;
  const hosts: Partial<EmulatorConfig> = { ...LINUX_3_13_HOSTS, retransmissionSliceMs: SLICE_MS, ...(values['no-rwnd'] ? { receiveWindow: 0, receiveWindowGrowth: false } : values['fixed-rwnd'] ? { receiveWindowGrowth: false } : {}) };
  const profile = testbedProfile(tb, { lossScale: scale, refill: !values['no-refill'] });
  const graph = buildPage(page);
  console.log(`${page.name} under ${tb.name} (${profile.what}), seeds 1-${runs}, Linux 3.13 hosts, ${values['no-rwnd'] ? 'no receive-window cap' : values['fixed-rwnd'] ? '65 KB receive windows, fixed' : '65 KB receive windows at set-up, autotuned'}; medians over the seeds`);
  console.log('  way        PLT s  conns  busiest conn: share of segments, segments/slice while sending   page: segments/slice   retransmitted');
  for (const v of ALL_VARIANTS) {
    if (page.large === 0 && v !== 'h1' && v !== 'h2') continue;
    const plt: number[] = [];
    const shapes: LoadShape[] = [];
    let conns = 0;
    for (let seed = 1; seed <= runs; seed++) {
      const r = simulate(graph, variantConfig(v, profile, seed, hosts));
      plt.push(r.loadTime);
      conns = r.connections;
      shapes.push(loadShape(r.retransmissionSlices ?? [], r.loadTime, SLICE_MS));
    }
    const m = (f: (x: LoadShape) => number): number => median(shapes.map(f));
    console.log(`  ${v.padEnd(9)} ${(median(plt) / 1000).toFixed(2).padStart(6)}  ${String(conns).padStart(5)}  ${(m((x) => x.bulkShare) * 100).toFixed(0).padStart(26)}% ${m((x) => x.bulkRate).toFixed(1).padStart(34)}   ${m((x) => x.pageRate).toFixed(1).padStart(20)}   ${(m((x) => x.retransmittedShare) * 100).toFixed(1).padStart(12)}%`);
  }
  return 0;
}

process.exitCode = main();
