/**
 * pcp shaper check: open a shaped link (two network namespaces, see shaper/README.md), measure it with
 * real sockets and print the figures against the targets. A thin shell over @pcp/shaper's runCheck.
 */
import { positiveInt, CliError, UsageError, flag, parse, str, type Command } from '../kit.ts';

const usage = `usage: pcp shaper check --bandwidth <rate> --rtt <time> [--loss <p>] [options]

Opens a shaped link like the one pcp replay and pcp profile load pages through (a client and a server
network namespace joined by a link of the given rate, RTT and loss), measures it with real sockets from
both sides and prints each figure against its target:
  rtt      p50 and p99 of ICMP echoes (kernel timestamps), target: the RTT ± 2 ms (p50)
  goodput  a bulk TCP transfer each way after slow start, target: the rate ± 10% (lossless links only)
  loss     paced UDP probes each way, target: the loss rate within the binomial tolerance
Exits 0 when every target is met, 1 when one is not. Needs root (network namespaces).

required:
  --bandwidth <rate>   rate each way, tc units: 1.6mbit, 10mbit, 1gbit
  --rtt <time>         round-trip time (half each way), tc units: 40ms, 0.15s

options:
  --loss <p>           random loss each way: 1% or 0.01                    (default 0)
  --seed <n>           seed of the loss                                     (default 1)
  --pings <n>          ICMP echoes for the RTT                              (default 60)
  --seconds <s>        length of each bulk transfer after its warm-up        (default 4)
  --probes <n>         UDP probes each way for the loss                     (default 3000)
  --json               print the report as JSON
  -h, --help           this help

Backend: netem over a veth pair where the kernel has both, else a userspace delay line (C, real-time
priority) between two TUN devices; tbf applies the rate either way. PCP_SHAPER_BACKEND=netem|delay-line
forces one.
`;

const OPTIONS = {
  bandwidth: { type: 'string' },
  rtt: { type: 'string' },
  loss: { type: 'string' },
  seed: { type: 'string' },
  pings: { type: 'string' },
  seconds: { type: 'string' },
  probes: { type: 'string' },
  json: { type: 'boolean' },
} as const;

export const command: Command = {
  name: 'shaper',
  summary: 'check the shaped link (rate, RTT, loss) that replay and profile load pages through',
  usage,
  async run(args) {
    const p = parse(args, OPTIONS);
    const [sub, ...extra] = p.positionals;
    if (sub !== 'check' || extra.length) throw new UsageError(sub === undefined ? 'expected a subcommand: check' : `unknown subcommand '${[sub, ...extra].join(' ')}'`);
    const { ShaperError, parseLinkSpec } = await import('@pcp/shaper');
    let spec;
    try {
      spec = parseLinkSpec({ bandwidth: str(p, 'bandwidth'), rtt: str(p, 'rtt'), loss: str(p, 'loss'), seed: str(p, 'seed') });
    } catch (e) {
      throw new UsageError((e as Error).message);
    }
    const options = { pings: positiveInt(p, 'pings'), seconds: positiveInt(p, 'seconds'), udpCount: positiveInt(p, 'probes') };
    const { runCheck, formatReport } = await import('@pcp/shaper');
    try {
      const report = await runCheck(spec, options);
      console.log(flag(p, 'json') ? JSON.stringify(report, null, 2) : formatReport(report));
      return report.ok ? 0 : 1;
    } catch (e) {
      if (e instanceof ShaperError) throw new CliError(e.message);
      throw e;
    }
  },
};
