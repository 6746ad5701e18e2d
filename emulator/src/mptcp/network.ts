/**
 * The two-path network (thesis §6.2.1, Figure 6.2): the first path is the simulator's (bandwidthBps, rttMs,
 * and whatever loss, spikes or traces the config gives it); the second is another `Path`
 * (network/path.ts, `buildPath(cfg, 1)`: its own bottleneck queue sized in its own BDPs, same discipline,
 * its own random streams) with its own one-way delays (RTT_2/4 on each side of it, RTT_2/2 back) and its
 * own link options, built by the same code as the first path's: random or Gilbert-Elliott loss of data,
 * ACKs and handshakes, latency spikes, Mahimahi traces each way. Every server keeps its per-origin extra
 * RTT and jitter on both paths. Opens MPTCP connections over the two.
 */
import type { ResolvedConfig } from '../config.ts';
import type { EventQueue } from '../event-queue.ts';
import type { HostPool, Transport, TransportFactory } from '../http/connection-pool.ts';
import type { SendBuffer } from '../http/send-buffer.ts';
import type { BottleneckLink, PacketLink } from '../network/bottleneck.ts';
import { buildPath, type PathConfig } from '../network/path.ts';
import type { NetContext } from '../network/tcp.ts';
import { MptcpConnection, type MptcpStats } from './connection.ts';
import type { ResolvedPath } from './options.ts';

/** The second path's configuration as a `Path`: its own rate, RTT and link options; the queue as the first path's. */
export function path2Config(cfg: ResolvedConfig, p: ResolvedPath): PathConfig {
  return {
    bandwidthBps: p.bandwidthBps,
    rttMs: p.rttMs,
    queueBdp: cfg.queueBdp,
    minQueuePackets: cfg.minQueuePackets,
    queue: cfg.queue,
    seed: cfg.seed,
    loss: p.loss,
    uplinkLoss: p.uplinkLoss,
    latencySpikes: p.latencySpikes,
    downlinkTrace: p.downlinkTrace,
    uplinkTrace: p.uplinkTrace,
    linkSchedule: undefined,
  };
}

export class MultipathNetwork implements TransportFactory {
  readonly link2: BottleneckLink;
  readonly up2: PacketLink | undefined;
  /** Each path's context for subflows (MptcpConnection.subflowContext), built once per simulation. */
  private readonly subflowCtx: readonly [NetContext, NetContext];
  readonly stats: MptcpStats = { retransmissions: 0, bytesDelivered: 0, bytesPath2: 0, maxReorderBytes: 0 };

  constructor(
    private readonly cfg: ResolvedConfig,
    private readonly net: NetContext,
    private readonly q: EventQueue,
  ) {
    const p = cfg.path2!;
    const path = buildPath(path2Config(cfg, p), 1);
    this.link2 = path.down;
    this.up2 = path.up;
    const path2: NetContext = { ...net, link: this.link2, uplink: this.up2, dS: p.rttMs / 4, dC: p.rttMs / 4, arrivalLane: q.addLane() };
    this.subflowCtx = [MptcpConnection.subflowContext(net, this.stats, cfg), MptcpConnection.subflowContext(path2, this.stats, cfg)];
  }

  /** Packets the second path lost at random (its queue's drops are link2.drops). */
  get losses(): number {
    return this.link2.losses + (this.up2?.losses ?? 0);
  }

  open(pool: HostPool, buffer: SendBuffer, perSegmentDelivery: boolean, now: number): Transport {
    const dRtt = this.cfg.path2!.rttMs - this.cfg.rttMs;
    return new MptcpConnection(this.q, this.cfg, buffer, perSegmentDelivery, this.net, this.stats, [
      { ctx: this.subflowCtx[0], up: pool.up, rtt: pool.rtt },
      { ctx: this.subflowCtx[1], up: pool.up + dRtt / 2, rtt: pool.rtt + dRtt },
    ], now);
  }
}
