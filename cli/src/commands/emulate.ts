/**
 * pcp emulate: replay one dependency graph under a chosen network/protocol/server model (thesis §3.7).
 * A thin shell over @pcp/emulator's pure simulate().
 */
import type { SimResult } from '@pcp/emulator';
import { EMULATOR_VALUE_OPTIONS, type EmulatorConfig } from '@pcp/emulator/config';
import type { Graph } from '@pcp/graph-builder';
import { asUsageError, positiveInt, CliError, UsageError, flag, parse, str, type Command, type Options } from '../kit.ts';

const usage = `usage: pcp emulate <graph.json[.gz]> --bandwidth <rate> --rtt <time> [options]

Replays a dependency graph (format v1, or the legacy PCP layout) in the discrete-event emulator and
prints its completion times: DOMContentLoaded, load, and the end of the whole graph.

required:
  --bandwidth <rate>     bottleneck rate, tc units: 500kbit, 2.5mbit, 1gbit
  --rtt <time>           base round-trip time, tc units: 8ms, 0.4s

options:
  --protocol <p>         h1.0 | h1 | h1-pipelined | h2 | quic-lite          (default h1)
  --connections <k>      HTTP/1.x connections per host                        (default 6)
  --server <s>           serial | parallel | out-of-order  (default out-of-order for h2/quic-lite, else parallel)
  --priority <s>         none | mimeType | criticalPath  (HTTP/2 send buffer) (default none)
  --preemption           a more important response may overtake a partly sent one
  --icwnd <n>            initial congestion window, segments                  (default 10)
  --cc <c>               newreno | cubic                                      (default newreno)
  --queue <q>            red | droptail                                       (default red)
  --queue-bdp <x>        bottleneck queue size in bandwidth-delay products    (default 1.5)
  --min-queue <n>        smallest bottleneck queue, packets                   (default 4)
  --dns-rtts <n>         round trips per DNS lookup (once per host)           (default 0)
  --tls-rtts <n>         TLS round trips per new connection                   (default 0)
  --extra-rtt <list>     extra RTT per origin: host=time,host=time
  --unshard <hosts>      comma-separated hosts merged onto the first one's server
  --rtt-jitter <x>       per-run jitter of each server's RTT, +-x times RTT/4 (thesis: 0.1) (default 0)
  --no-preloader         disable the browser's preloader

multipath (emulator/README.md, MPTCP):
  --path2 <b,rtt[,loss]> a second path (own bottleneck): every connection is MPTCP, starting on the first
                         path and joining this one by a handshake (lossless: 2 RTT1 + 1.5 RTT2 after its
                         SYN), e.g. 10mbit,200ms,1% (loss each way, as --loss)
  --path2-loss-model <m> --path2-uplink-loss-model <m> --path2-latency-spikes <i,d>
  --path2-downlink-trace <f> --path2-uplink-trace <f>
                         the second path's own lossy-link options, as the first path's below (none carry over)
  --mptcp-scheduler <s>  minrtt | stream (the thesis' HTTP-aware Stream Scheduler) (default minrtt)
  --mptcp-cc <c>         lia (coupled, RFC 6356) | olia (opportunistic linked increases) | uncoupled (NewReno per subflow) (default lia)
  --mptcp-lookahead <b>  Stream Scheduler lookahead: true | false                  (default true)
  --mptcp-rcvbuf <bytes> connection-level receive buffer                          (default 16 MiB)

lossy and variable links (emulator/README.md, "Lossy links"):
  --loss <p>             random loss each way: 1% or 0.01                       (default 0)
  --loss-model <m>       gilbert:P_GB,P_BG,LOSS_G,LOSS_B (bursty, Gilbert-Elliott), bernoulli:P, or
                         list:N,N (lose exactly those packets), each way; replaces --loss
  --uplink-loss-model <m> the uplink's own loss model (requests, ACKs)        (default: as the downlink)
  --latency-spikes <i,d> downlink stalls of d about every i (Poisson): 2s,300ms
  --downlink-trace <f>   Mahimahi trace for the downlink rate (emulator/traces/README.md)
  --uplink-trace <f>     Mahimahi trace for the uplink (requests, ACKs)
  --delayed-acks         Linux delayed ACKs at the client (quick ACKs, 2 segments, 40 ms)
  --psh                  PSH on each response's last segment: ACKed at once (MPTCP: PSH/ACK on both subflows)
  --tlp                  tail-loss probes (RFC 8985, as Linux), single-path TCP and subflows
  --loss-detection <d>   nack (the thesis' scheme: any later segment's ACK reveals a loss) | sack (as
                         Linux: three duplicate ACKs, else the RTO)                 (default nack)
  --early-retransmit     with sack: early retransmit (RFC 5827, as Linux 3.5-4.x): one SACKed segment
                         above a hole suffices when under four are outstanding
  --fack                 with sack: Linux's forward acknowledgment (to 4.14): lost once a segment 3
                         above is SACKed; a lost retransmission found by later SACKs, not the RTO
  --quic-pto             with sack and quic-lite: RFC 9002's probe timeout instead of the RTO
  --frto                 F-RTO (RFC 5682): undo the window cut of a timeout that lost ACKs caused
  --linux-idle-restart   restart after idle as Linux: an unset (infinite) ssthresh stays unset (thesis: 3/4 cwnd)
  --linux-rto            Linux's RTO, SRTT + max(4 RTTVAR, 200 ms) (default RFC 6298's max(200 ms, SRTT + 4 RTTVAR))
  --shard-large <bytes>  HTTP/2: responses above this size over a second connection (Goel's sharding)
  --shard-connections <k|each> spread those over k connections, or one each       (default 1)
  --shard-overflow <o>   round-robin: every large response over those k | main: the first k one
                         connection each, the rest with the small ones (Goel's Types A, C) (default round-robin)
  --rwnd <bytes>         the client's receive window per connection (e.g. 65kb)   (default unlimited)
  --rwnd-growth          with --rwnd: the window grows after set-up as Linux 3.13's receiver grows it
                         (2 segments per in-order segment, up to twice a receiver RTT's reads) (default fixed)
  --option <k=v>         any emulator option by name, repeatable; e.g. the browser's own recorded time
                         (Chromium graphs), each on by default: browser-delays=false leaves all of it out,
                         or one part: network-read, release-hop, socket-lag, connection-setup,
                         event-dispatch, main-thread-tasks, server-pacing (emulator/README.md);
                         main-thread-order=ready runs ready main-thread work first-ready-first (Blink's
                         order) instead of the thesis's timers/events first (default thesis)
  --seed <n>             random seed (RED drops, losses, spikes, server delays) (default 1)
  --runs <n>             runs with seeds seed..seed+n-1; medians are printed  (default 1)
  --json                 print {loadTime, domContentLoadedTime, endTime, resources, drops, runs} (ms), and
                         navigationStartOffset when the graph records its navigation: ms from navigation
                         start to the emulation's time 0 (the main document's request), so that
                         navigationStartOffset + loadTime compares with the browser's load event
  -h, --help             this help
`;

const OPTIONS = {
  ...Object.fromEntries(EMULATOR_VALUE_OPTIONS.map((k) => [k, { type: 'string' } as const])),
  preemption: { type: 'boolean' },
  'no-preloader': { type: 'boolean' },
  'delayed-acks': { type: 'boolean' },
  psh: { type: 'boolean' },
  tlp: { type: 'boolean' },
  'early-retransmit': { type: 'boolean' },
  fack: { type: 'boolean' },
  'quic-pto': { type: 'boolean' },
  frto: { type: 'boolean' },
  'linux-idle-restart': { type: 'boolean' },
  'linux-rto': { type: 'boolean' },
  'rwnd-growth': { type: 'boolean' },
  runs: { type: 'string' },
  option: { type: 'string', multiple: true },
  json: { type: 'boolean' },
} satisfies Options;

export const command: Command = {
  name: 'emulate',
  summary: 'replay a dependency graph under chosen network, protocol and server models',
  usage,
  async run(args) {
    const p = parse(args, OPTIONS);
    if (p.positionals.length !== 1) throw new UsageError('expected exactly one graph file');
    const runs = positiveInt(p, 'runs', 1);
    const { parseEmulatorOptions, optionPairs, simulate, summarizeRuns, median, ConfigError } = await import('@pcp/emulator');
    const { loadGraph } = await import('@pcp/graph-builder');
    const opts: Record<string, string | undefined> = {};
    for (const k of EMULATOR_VALUE_OPTIONS) opts[k] = str(p, k);
    if (flag(p, 'preemption')) opts.preemption = 'true';
    if (flag(p, 'no-preloader')) opts.preloader = 'false';
    if (flag(p, 'delayed-acks')) opts['delayed-acks'] = 'true';
    if (flag(p, 'psh')) opts.psh = 'true';
    if (flag(p, 'tlp')) opts.tlp = 'true';
    if (flag(p, 'early-retransmit')) opts['early-retransmit'] = 'true';
    if (flag(p, 'fack')) opts.fack = 'true';
    if (flag(p, 'quic-pto')) opts['quic-pto'] = 'true';
    if (flag(p, 'frto')) opts.frto = 'true';
    if (flag(p, 'linux-idle-restart')) opts['linux-idle-restart'] = 'true';
    if (flag(p, 'linux-rto')) opts['linux-rto'] = 'true';
    if (flag(p, 'rwnd-growth')) opts['rwnd-growth'] = 'true';
    const config: EmulatorConfig = asUsageError(ConfigError, () => parseEmulatorOptions(optionPairs((p.values.option as string[] | undefined) ?? [], opts)));
    let graph: Graph;
    try {
      graph = loadGraph(p.positionals[0]!);
    } catch (e) {
      throw new CliError((e as Error).message);
    }
    const seed0 = config.seed ?? 1;
    const results: SimResult[] = [];
    for (let i = 0; i < runs; i++) {
      try {
        results.push(simulate(graph, { ...config, seed: seed0 + i }));
      } catch (e) {
        throw new CliError(`${p.positionals[0]}: ${(e as Error).message}`);
      }
    }
    const sum = summarizeRuns(results);
    // Per-resource timings: the median of each field over runs (runs share the graph, so resources align).
    const first = results[0]!;
    const resources = first.resources.map((r, idx) => {
      if (results.length === 1) return r;
      const pick = (f: 'queued' | 'handshake' | 'request' | 'serverDelay' | 'serverBuffer' | 'transfer' | 'browser' | 'start' | 'end'): number =>
        median(results.map((x) => x.resources.find((y) => y.id === r.id)?.[f] ?? NaN).filter((v) => !Number.isNaN(v)));
      void idx;
      return { id: r.id, url: r.url, queued: pick('queued'), handshake: pick('handshake'), request: pick('request'), serverDelay: pick('serverDelay'), serverBuffer: pick('serverBuffer'), transfer: pick('transfer'), browser: pick('browser'), start: pick('start'), end: pick('end') };
    });
    if (flag(p, 'json')) {
      const offset = first.navigationStartOffset !== undefined ? { navigationStartOffset: first.navigationStartOffset } : {};
      const mp = first.multipath ? { multipath: first.multipath } : {};
      console.log(JSON.stringify({ ...offset, ...mp, loadTime: sum.loadTime, domContentLoadedTime: sum.domContentLoadedTime, endTime: sum.endTime, resources, drops: sum.drops, losses: median(results.map((r) => r.losses)), retransmissions: sum.retransmissions, runs }));
      return 0;
    }
    const f = (v: number): string => `${v.toFixed(1)} ms`;
    const label = runs > 1 ? ` (median of ${runs} runs)` : '';
    console.log(`${p.positionals[0]}: ${config.protocol} at ${opts.bandwidth}, ${opts.rtt}${label}`);
    console.log(`  DOMContentLoaded  ${f(sum.domContentLoadedTime)}`);
    console.log(`  load              ${f(sum.loadTime)}`);
    console.log(`  end of graph      ${f(sum.endTime)}`);
    if (first.navigationStartOffset !== undefined) console.log(`  (times from the main document's request; navigation start is ${f(first.navigationStartOffset)} earlier)`);
    console.log(`  resources ${first.resources.length}, connections ${first.connections}, packets ${first.packets}, drops ${sum.drops}, losses ${median(results.map((r) => r.losses))}, retransmissions ${sum.retransmissions}`);
    if (first.multipath) console.log(`  two paths: ${(100 * first.multipath.bytesPath2 / Math.max(1, first.bytesDelivered)).toFixed(1)}% of bytes on the second (${opts.path2}), its drops ${first.multipath.drops2}, losses ${first.multipath.losses2}, most bytes held for reordering ${first.multipath.maxReorderBytes}`);
    for (const w of first.warnings ?? []) console.error(`warning: ${w}`);
    return 0;
  },
};
