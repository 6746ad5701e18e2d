/**
 * Multipath options (thesis chapter 6): a second path, which turns every connection into an MPTCP connection
 * with one subflow per path, and the switches of §6.4 (scheduler, congestion-control coupling, receive
 * buffer). Out-of-order delivery (§6.4.3) is the protocol: quic-lite over two paths is "MP QUIC", h2 is
 * "MPTCP HTTP/2"; preemption (§6.4.2) is the existing `preemption` option.
 */
import { ConfigError, oneOf, parseRate, parseTime } from '../config.ts';
import { resolveLinkConfig, type LinkConfig, type ResolvedLinkConfig } from '../link-config.ts';

/**
 * A network path: bottleneck rate and base RTT, and the same link options as the first path's (link-config.ts),
 * read and built by the same code (network/path.ts): random loss each way, a loss model, latency spikes,
 * Mahimahi traces. None of the first path's options carry over to the second.
 */
export interface PathSpec extends Pick<LinkConfig, 'lossModel' | 'uplinkLossModel' | 'latencySpikes' | 'downlinkTrace' | 'uplinkTrace'> {
  bandwidthBps: number;
  rttMs: number;
  /** Random (Bernoulli) loss of every packet each way (data, ACKs, the join's handshake), as a fraction in [0, 1), as `--loss`; default 0. */
  loss?: number;
}

/** A second path as the simulator builds it: its link options resolved as the first path's are. */
export type ResolvedPath = { bandwidthBps: number; rttMs: number } & Pick<ResolvedLinkConfig, 'loss' | 'uplinkLoss' | 'latencySpikes' | 'downlinkTrace' | 'uplinkTrace'>;

/** minrtt: the Linux default (lowest smoothed RTT with window space); stream: the HTTP-aware Stream Scheduler (§6.4.1). */
export type MptcpScheduler = 'minrtt' | 'stream';
/** lia: coupled (RFC 6356); olia: opportunistic linked increases (Khalili et al. 2012); uncoupled: NewReno per subflow (§6.4.4). */
export type MptcpCoupling = 'lia' | 'olia' | 'uncoupled';

export const MPTCP_SCHEDULERS: readonly MptcpScheduler[] = ['minrtt', 'stream'];
export const MPTCP_COUPLINGS: readonly MptcpCoupling[] = ['lia', 'olia', 'uncoupled'];

export interface MultipathConfig {
  /** The second path; connections start on the first (bandwidthBps, rttMs) and join this one (§6.4, Fig. 6.14). */
  path2?: PathSpec;
  mptcpScheduler?: MptcpScheduler;
  /** Stream Scheduler lookahead (Algorithm 7): a subflow that cannot send the first resource viably may send a later one. Default true. */
  mptcpLookahead?: boolean;
  mptcpCc?: MptcpCoupling;
  /** Connection-level receive buffer, bytes: the sender keeps at most this many bytes past the client's in-order point. Default 16 MiB. */
  mptcpRcvBuf?: number;
}

export interface ResolvedMultipath {
  path2: ResolvedPath | null;
  mptcpScheduler: MptcpScheduler;
  mptcpLookahead: boolean;
  mptcpCc: MptcpCoupling;
  mptcpRcvBuf: number;
}

export const DEFAULT_RCV_BUF = 16 * 1024 * 1024;

/** Runs f, naming the second path in its ConfigError. */
function path2Error<T>(f: () => T): T {
  try {
    return f();
  } catch (e) {
    if (e instanceof ConfigError) throw new ConfigError(`path2: ${e.message}`);
    throw e;
  }
}

export function resolveMultipath(c: MultipathConfig & { congestionControl?: string }): ResolvedMultipath {
  const p = c.path2;
  let path2: ResolvedPath | null = null;
  if (p !== undefined) {
    if (!(p.bandwidthBps > 0) || !Number.isFinite(p.bandwidthBps)) throw new ConfigError(`path2 bandwidth must be a positive number, got ${p.bandwidthBps}`);
    if (!(p.rttMs >= 0) || !Number.isFinite(p.rttMs)) throw new ConfigError(`path2 RTT must be a non-negative number, got ${p.rttMs}`);
    const loss = p.loss ?? 0;
    if (!(loss >= 0 && loss < 1)) throw new ConfigError(`path2 loss must be in [0, 1), got ${loss}`);
    const link = path2Error(() => resolveLinkConfig({ lossRate: loss, lossModel: p.lossModel, uplinkLossModel: p.uplinkLossModel, latencySpikes: p.latencySpikes, downlinkTrace: p.downlinkTrace, uplinkTrace: p.uplinkTrace }));
    path2 = { bandwidthBps: p.bandwidthBps, rttMs: p.rttMs, loss: link.loss, uplinkLoss: link.uplinkLoss, latencySpikes: link.latencySpikes, downlinkTrace: link.downlinkTrace, uplinkTrace: link.uplinkTrace };
  }
  const scheduler = c.mptcpScheduler ?? 'minrtt';
  if (!MPTCP_SCHEDULERS.includes(scheduler)) throw new ConfigError(`mptcpScheduler must be one of ${MPTCP_SCHEDULERS.join(', ')}, got '${scheduler}'`);
  const cc = c.mptcpCc ?? 'lia';
  if (!MPTCP_COUPLINGS.includes(cc)) throw new ConfigError(`mptcpCc must be one of ${MPTCP_COUPLINGS.join(', ')}, got '${cc}'`);
  if (path2 && cc !== 'uncoupled' && c.congestionControl === 'cubic') throw new ConfigError(`${cc.toUpperCase()} couples NewReno subflows: use mptcpCc uncoupled with cubic`);
  const rcvBuf = c.mptcpRcvBuf ?? DEFAULT_RCV_BUF;
  if (!Number.isInteger(rcvBuf) || rcvBuf < 1500) throw new ConfigError(`mptcpRcvBuf must be an integer of at least 1500 bytes, got ${rcvBuf}`);
  return { path2, mptcpScheduler: scheduler, mptcpLookahead: c.mptcpLookahead ?? true, mptcpCc: cc, mptcpRcvBuf: rcvBuf };
}

/** `BANDWIDTH,RTT[,LOSS]` in tc units: `10mbit,200ms`, `2mbit,40ms,1%`. */
export function parsePath(s: string): PathSpec {
  const parts = s.split(',').map((x) => x.trim());
  if (parts.length < 2 || parts.length > 3) throw new ConfigError(`a path is BANDWIDTH,RTT[,LOSS] (e.g. 10mbit,200ms,1%), got '${s}'`);
  const spec: PathSpec = { bandwidthBps: parseRate(parts[0]!), rttMs: parseTime(parts[1]!) };
  if (parts[2] !== undefined) {
    const m = /^([0-9]*\.?[0-9]+)(%?)$/.exec(parts[2]);
    if (!m) throw new ConfigError(`path loss must be a fraction or a percentage (0.01 or 1%), got '${parts[2]}'`);
    spec.loss = Number(m[1]) / (m[2] ? 100 : 1);
  }
  return spec;
}

/** The second path's own link options, as the first path's (`--loss-model` ...) with a `path2-` prefix, and their PathSpec field. */
export const PATH2_LINK_OPTIONS = [
  ['path2-loss-model', 'lossModel'],
  ['path2-uplink-loss-model', 'uplinkLossModel'],
  ['path2-latency-spikes', 'latencySpikes'],
  ['path2-downlink-trace', 'downlinkTrace'],
  ['path2-uplink-trace', 'uplinkTrace'],
] as const satisfies readonly (readonly [string, keyof PathSpec])[];

/** Reads the multipath string options (`path2`, `mptcp-scheduler`, ...) into a config. */
export function parseMultipathOptions(opts: Record<string, string | undefined>, bool: (name: string, v: string) => boolean): MultipathConfig {
  const out: MultipathConfig = {};
  if (opts.path2 !== undefined) out.path2 = parsePath(opts.path2);
  const link: LinkConfig = {};
  for (const [option, field] of PATH2_LINK_OPTIONS) if (opts[option] !== undefined) link[field] = opts[option] as never;
  if (Object.keys(link).length > 0) {
    if (!out.path2) throw new ConfigError(`--${PATH2_LINK_OPTIONS.find(([o]) => opts[o] !== undefined)![0]} needs --path2`);
    // Kept as words: resolveMultipath reads them with the first path's parsers (resolveLinkConfig).
    Object.assign(out.path2, link);
  }
  if (opts['mptcp-scheduler'] !== undefined) out.mptcpScheduler = oneOf('mptcp-scheduler', opts['mptcp-scheduler'], MPTCP_SCHEDULERS);
  if (opts['mptcp-cc'] !== undefined) out.mptcpCc = oneOf('mptcp-cc', opts['mptcp-cc'], MPTCP_COUPLINGS);
  if (opts['mptcp-lookahead'] !== undefined) out.mptcpLookahead = bool('mptcp-lookahead', opts['mptcp-lookahead']);
  if (opts['mptcp-rcvbuf'] !== undefined) out.mptcpRcvBuf = Number(opts['mptcp-rcvbuf']);
  return out;
}

/**
 * A sweep grid's `paths` value: one path (`10mbit,40ms`) or two separated by `;` (`10mbit,40ms;10mbit,200ms`),
 * the first being where connections start. Returns the options with `paths` replaced by bandwidth, rtt
 * (and path2); giving `paths` with any of those is an error.
 */
export function expandPaths(opts: Record<string, string>): Record<string, string> {
  const paths = opts.paths;
  if (paths === undefined) return opts;
  const { paths: _, ...rest } = opts;
  for (const k of ['bandwidth', 'rtt', 'path2']) if (k in rest) throw new ConfigError(`give either paths or ${k}, not both`);
  const list = paths.split(';').map((p) => p.trim());
  if (list.length < 1 || list.length > 2) throw new ConfigError(`paths is one or two BANDWIDTH,RTT paths separated by ';', got '${paths}'`);
  const first = list[0]!.split(',').map((x) => x.trim());
  if (first.length !== 2) throw new ConfigError(`the first path is BANDWIDTH,RTT (e.g. 10mbit,40ms), got '${list[0]}'`);
  const out: Record<string, string> = { ...rest, bandwidth: first[0]!, rtt: first[1]! };
  if (list[1] !== undefined) out.path2 = list[1];
  return out;
}
