/**
 * The link-realism part of the emulator's configuration (issue 17): random and bursty loss, latency spikes,
 * Mahimahi link traces, delayed ACKs, PSH, tail-loss probes, loss detection and h2-aware domain sharding — their options, defaults and parsing.
 * config.ts folds them into EmulatorConfig / ResolvedConfig and parseEmulatorOptions; their option names are in
 * config.ts's EMULATOR_OPTIONS.
 */
import { ConfigError, oneOf } from './config.ts';
import { MSS } from './network/bottleneck.ts';
import type { LinkSchedule } from './network/link-schedule.ts';
import { loadTrace, type LinkTrace } from './network/link-trace.ts';
import { parseLoss, parseLossModel, type LossSpec } from './network/loss-model.ts';
import { parseSpikes, type SpikeSpec } from './network/spikes.ts';
import type { DelayedAckPolicy } from './network/tcp.ts';

export interface LinkConfig {
  /** Random (Bernoulli) loss of every packet each way, as a fraction: 0.01 = 1% (the shaper's `--loss`). */
  lossRate?: number;
  /** Bursty loss each way, `gilbert:P_GB,P_BG,LOSS_G,LOSS_B` (or parsed); replaces lossRate. */
  lossModel?: string | LossSpec;
  /** The uplink's own loss model (asymmetric links; `list:` models to lose given packets); default: as the downlink. */
  uplinkLossModel?: string | LossSpec;
  /** Downlink latency spikes, `MEAN_INTERVAL,DURATION` such as `2s,300ms` (or parsed). */
  latencySpikes?: string | SpikeSpec;
  /** Mahimahi trace (a file path, or parsed) for the downlink: replaces bandwidthBps as its rate. */
  downlinkTrace?: string | LinkTrace;
  /** Mahimahi trace for the uplink (ACKs and requests); default: an uplink that never limits. */
  uplinkTrace?: string | LinkTrace;
  /**
   * Rate, extra delay and loss changed every slice on both directions (Goel's bridge; network/link-schedule.ts):
   * replaces bandwidthBps, the queue size, the loss options and the traces. Built in code (`linkSchedule()`).
   */
  linkSchedule?: LinkSchedule;
  /**
   * Delayed ACKs at the client: `true` Linux's, or the parameters (network/tcp.ts `THESIS_DELAYED_ACKS`: the
   * thesis' ns-3, 100 ms, every 2nd segment); default false (every segment ACKed at once).
   */
  delayedAcks?: boolean | DelayedAckPolicy;
  /** The PSH flag ends each response and the client ACKs it at once; on MPTCP with a PSH/ACK on the other subflow (thesis §6.4.5). Default false. */
  psh?: boolean;
  /** Tail-loss probes (RFC 8985, as Linux) on every TCP connection and subflow. Default false. */
  tlp?: boolean;
  /**
   * How a sender learns a segment was lost (network/tcp.ts): `nack`, the thesis' scheme (Appendix B: the ACK
   * of any later segment reveals the hole), or `sack`, ACK clocking as Linux (RFC 6675: lost once 3 segments
   * above it were SACKed, i.e. the third duplicate ACK; else the RFC 6298 timeout). Default `nack`.
   */
  lossDetection?: LossDetection;
  /**
   * With `lossDetection: 'sack'`: early retransmit (RFC 5827, on by default in Linux 3.5-4.x, delayed by a
   * quarter of the RTT): under four segments outstanding, one SACKed segment above a hole is enough. TCP
   * connections and MPTCP subflows (QUIC-lite has none: RFC 9002). Default false.
   */
  earlyRetransmit?: boolean;
  /**
   * With `lossDetection: 'sack'`: Linux's forward acknowledgment (FACK, on by default until 4.15): a segment is
   * lost once a segment three above it is SACKed, and in recovery a retransmission is lost once a segment
   * first sent after it is SACKed (tcp_mark_lost_retrans) instead of waiting for the RTO. TCP and subflows. Default false.
   */
  fack?: boolean;
  /**
   * With `lossDetection: 'sack'` and protocol quic-lite: RFC 9002's probe timeout (SRTT + 4 RTTVAR +
   * max_ack_delay, no 200 ms floor; a probe, not a window collapse; the minimum window after persistent
   * congestion) instead of TCP's RTO. Default false.
   */
  quicPto?: boolean;
  /**
   * F-RTO (RFC 5682, on in Linux since 2.6.24): a timeout that only lost ACKs caused (the data had arrived) is
   * recognised as spurious by the next ACK and its window reduction undone. (A timeout while data is merely
   * delayed is never taken: the model re-arms it.) Default false.
   */
  frto?: boolean;
  /**
   * Window validation after idle as Linux (tcp_cwnd_restart) and RFC 2861: ssthresh = max(ssthresh, 3/4 cwnd),
   * so a connection or subflow that never cut its window keeps an infinite ssthresh and slow-starts again
   * without bound. Default false: the thesis' Algorithm 11 (ssthresh = 3/4 cwnd).
   */
  linuxIdleRestart?: boolean;
  /**
   * Linux's RTO (__tcp_set_rto): SRTT + max(4 RTTVAR, 200 ms), at least 200 ms above SRTT, for the timeouts
   * and the idle check of window validation alike (Linux has one icsk_rto). Default false: RFC 6298's
   * max(200 ms, SRTT + 4 RTTVAR), as ns-3 and the thesis. The accuracy harness sets it: its loads are Linux's.
   */
  linuxRto?: boolean;
  /** HTTP/2: responses larger than this many bytes go over a second connection (Goel's sharding); 0 = off. */
  shardLarge?: number;
  /** Connections the large responses are spread over, round-robin; 0 = one per large response (Goel's Type B). Default 1. */
  shardConnections?: number;
  /**
   * The large responses past the first `shardConnections`: 'round-robin' over the shard connections (default),
   * or 'main': each of the first `shardConnections` large responses on a connection of its own and the rest on
   * the first connection with the small ones (Goel's Types A and C, §VIII: 2 or 5 of 12 isolated).
   */
  shardOverflow?: ShardOverflow;
  /**
   * The client's receive window, bytes, per connection (per subflow over MPTCP): the server sends no new
   * segment past the client's in-order point (as its last ACK told) plus this many bytes. Default unlimited
   * (0); Goel's testbed advertised 65 KB.
   */
  receiveWindow?: number;
  /**
   * The receive window grows after set-up from `receiveWindow` as Linux 3.13's receiver grows it
   * (network/receive-window.ts: 2 segments per in-order segment up to a clamp that follows twice what the
   * application read in the last receiver RTT). Default false: the window stays `receiveWindow` for the
   * connection's life. Needs `receiveWindow`.
   */
  receiveWindowGrowth?: boolean;
  /**
   * Count each connection's sent and retransmitted segments per slice of this many ms from its SYN, as Goel
   * measured its traces (result `retransmissionSlices`; network/retransmission-slices.ts). Default 0: off.
   */
  retransmissionSliceMs?: number;
}

export type LossDetection = 'nack' | 'sack';
export const LOSS_DETECTIONS: readonly LossDetection[] = ['nack', 'sack'];
export type ShardOverflow = 'round-robin' | 'main';
export const SHARD_OVERFLOWS: readonly ShardOverflow[] = ['round-robin', 'main'];

export interface ResolvedLinkConfig {
  loss: LossSpec | undefined;
  uplinkLoss: LossSpec | undefined;
  latencySpikes: SpikeSpec | undefined;
  downlinkTrace: LinkTrace | undefined;
  uplinkTrace: LinkTrace | undefined;
  linkSchedule: LinkSchedule | undefined;
  delayedAcks: boolean | DelayedAckPolicy;
  psh: boolean;
  tlp: boolean;
  lossDetection: LossDetection;
  earlyRetransmit: boolean;
  fack: boolean;
  quicPto: boolean;
  frto: boolean;
  linuxIdleRestart: boolean;
  linuxRto: boolean;
  shardLarge: number;
  shardConnections: number;
  shardOverflow: ShardOverflow;
  /** Whole segments (MSS) the receive window holds; Infinity: unlimited. */
  receiveWindowSegments: number;
  receiveWindowGrowth: boolean;
  retransmissionSliceMs: number;
}

function trace(v: string | LinkTrace | undefined): LinkTrace | undefined {
  return typeof v === 'string' ? loadTrace(v) : v;
}

export function resolveLinkConfig(c: LinkConfig): ResolvedLinkConfig {
  if (c.lossRate !== undefined && !(c.lossRate >= 0 && c.lossRate < 1)) throw new ConfigError(`lossRate must be in [0, 1), got ${c.lossRate}`);
  const model = typeof c.lossModel === 'string' ? parseLossModel(c.lossModel) : c.lossModel;
  const loss: LossSpec | undefined = model ?? (c.lossRate ? { kind: 'bernoulli', p: c.lossRate } : undefined);
  const spikes = typeof c.latencySpikes === 'string' ? parseSpikes(c.latencySpikes) : c.latencySpikes;
  if (spikes && !(spikes.intervalMs > 0 && spikes.durationMs > 0)) throw new ConfigError('latencySpikes: interval and duration must be positive');
  const shardLarge = c.shardLarge ?? 0;
  if (!(shardLarge >= 0) || !Number.isFinite(shardLarge)) throw new ConfigError(`shardLarge must be a non-negative number of bytes, got ${c.shardLarge}`);
  const upModel = typeof c.uplinkLossModel === 'string' ? parseLossModel(c.uplinkLossModel) : c.uplinkLossModel;
  const shardConnections = c.shardConnections ?? 1;
  if (!Number.isInteger(shardConnections) || shardConnections < 0) throw new ConfigError(`shardConnections must be a non-negative integer (0: one per large response), got ${c.shardConnections}`);
  const shardOverflow = c.shardOverflow ?? 'round-robin';
  if (!SHARD_OVERFLOWS.includes(shardOverflow)) throw new ConfigError(`shardOverflow must be one of ${SHARD_OVERFLOWS.join(', ')}, got '${shardOverflow}'`);
  if (c.linkSchedule && (loss || upModel || c.downlinkTrace || c.uplinkTrace)) throw new ConfigError('linkSchedule carries its own rate and loss: leave out lossRate, lossModel, uplinkLossModel and the link traces');
  const lossDetection = c.lossDetection ?? 'nack';
  if (!LOSS_DETECTIONS.includes(lossDetection)) throw new ConfigError(`lossDetection must be one of ${LOSS_DETECTIONS.join(', ')}, got '${lossDetection}'`);
  const earlyRetransmit = c.earlyRetransmit ?? false;
  if (earlyRetransmit && lossDetection !== 'sack') throw new ConfigError("earlyRetransmit needs lossDetection 'sack' (the NACK scheme finds a hole at the first later ACK already)");
  const fack = c.fack ?? false;
  if (fack && lossDetection !== 'sack') throw new ConfigError("fack needs lossDetection 'sack' (the NACK scheme finds a hole at the first later ACK already)");
  const quicPto = c.quicPto ?? false;
  if (quicPto && lossDetection !== 'sack') throw new ConfigError("quicPto needs lossDetection 'sack' (QUIC's loss detection counts packets: RFC 9002)");
  const sliceMs = c.retransmissionSliceMs ?? 0;
  if (!(sliceMs >= 0) || !Number.isFinite(sliceMs)) throw new ConfigError(`retransmissionSliceMs must be a non-negative number of ms, got ${c.retransmissionSliceMs}`);
  const rwnd = c.receiveWindow ?? 0;
  if (!(rwnd >= 0) || !Number.isFinite(rwnd)) throw new ConfigError(`receiveWindow must be a non-negative number of bytes, got ${c.receiveWindow}`);
  if (rwnd > 0 && rwnd < MSS) throw new ConfigError(`receiveWindow must hold at least one segment (${MSS} bytes), got ${rwnd}`);
  const receiveWindowGrowth = c.receiveWindowGrowth ?? false;
  if (receiveWindowGrowth && rwnd === 0) throw new ConfigError('receiveWindowGrowth needs a receiveWindow (the window offered at set-up, which it grows from)');
  return {
    loss,
    uplinkLoss: upModel ?? loss,
    latencySpikes: spikes,
    downlinkTrace: trace(c.downlinkTrace),
    uplinkTrace: trace(c.uplinkTrace),
    linkSchedule: c.linkSchedule,
    delayedAcks: c.delayedAcks ?? false,
    psh: c.psh ?? false,
    tlp: c.tlp ?? false,
    lossDetection,
    earlyRetransmit,
    fack,
    quicPto,
    frto: c.frto ?? false,
    linuxIdleRestart: c.linuxIdleRestart ?? false,
    linuxRto: c.linuxRto ?? false,
    shardLarge,
    shardConnections,
    shardOverflow,
    receiveWindowSegments: rwnd > 0 ? Math.floor(rwnd / MSS) : Infinity,
    receiveWindowGrowth,
    retransmissionSliceMs: sliceMs,
  };
}

/** A size in bytes: 30000, 30kb, 1.5mb (decimal units). */
function parseBytes(name: string, v: string): number {
  const m = /^\s*([0-9]*\.?[0-9]+)\s*(b|kb|k|mb|m)?\s*$/i.exec(v);
  if (!m) throw new ConfigError(`--${name} expects a size in bytes (e.g. 30000, 30kb), got '${v}'`);
  const unit = (m[2] ?? 'b').toLowerCase();
  return Number(m[1]) * (unit.startsWith('k') ? 1e3 : unit.startsWith('m') ? 1e6 : 1);
}

/** The link options among string options (CLI flags, query strings) into `config`; `bool` parses switches. */
export function parseLinkOptions(opts: Record<string, string | undefined>, config: LinkConfig, bool: (name: string, v: string) => boolean): void {
  if (opts.loss !== undefined) config.lossRate = parseLoss(opts.loss);
  if (opts['loss-model'] !== undefined) config.lossModel = parseLossModel(opts['loss-model']);
  if (opts['uplink-loss-model'] !== undefined) config.uplinkLossModel = parseLossModel(opts['uplink-loss-model']);
  if (opts['latency-spikes'] !== undefined) config.latencySpikes = parseSpikes(opts['latency-spikes']);
  if (opts['downlink-trace'] !== undefined) config.downlinkTrace = opts['downlink-trace'];
  if (opts['uplink-trace'] !== undefined) config.uplinkTrace = opts['uplink-trace'];
  if (opts['delayed-acks'] !== undefined) config.delayedAcks = bool('delayed-acks', opts['delayed-acks']);
  if (opts.psh !== undefined) config.psh = bool('psh', opts.psh);
  if (opts.tlp !== undefined) config.tlp = bool('tlp', opts.tlp);
  if (opts['loss-detection'] !== undefined) config.lossDetection = oneOf('loss-detection', opts['loss-detection'], LOSS_DETECTIONS);
  if (opts['early-retransmit'] !== undefined) config.earlyRetransmit = bool('early-retransmit', opts['early-retransmit']);
  if (opts.fack !== undefined) config.fack = bool('fack', opts.fack);
  if (opts['quic-pto'] !== undefined) config.quicPto = bool('quic-pto', opts['quic-pto']);
  if (opts.frto !== undefined) config.frto = bool('frto', opts.frto);
  if (opts['linux-idle-restart'] !== undefined) config.linuxIdleRestart = bool('linux-idle-restart', opts['linux-idle-restart']);
  if (opts['linux-rto'] !== undefined) config.linuxRto = bool('linux-rto', opts['linux-rto']);
  if (opts['shard-large'] !== undefined) config.shardLarge = parseBytes('shard-large', opts['shard-large']);
  if (opts.rwnd !== undefined) config.receiveWindow = parseBytes('rwnd', opts.rwnd);
  if (opts['rwnd-growth'] !== undefined) config.receiveWindowGrowth = bool('rwnd-growth', opts['rwnd-growth']);
  const sc = opts['shard-connections'];
  if (sc !== undefined) config.shardConnections = sc === 'each' ? 0 : Number(/^\d+$/.test(sc) ? sc : NaN);
  // Checked once, by resolveLinkConfig (parseEmulatorOptions resolves what it parsed), as shard-connections.
  if (opts['shard-overflow'] !== undefined) config.shardOverflow = opts['shard-overflow'] as ShardOverflow;
}
