/**
 * The two-path network (thesis §6.2.1, Figure 6.2): the first path is the simulator's bottleneck
 * (bandwidthBps, rttMs); the second has its own bottleneck queue (sized in its own BDPs, same discipline),
 * its own one-way delays (RTT_2/4 on each side of it, RTT_2/2 back) and optional random loss. Every server
 * keeps its per-origin extra RTT and jitter on both paths. Opens MPTCP connections over the two.
 */
import type { ResolvedConfig } from '../config.ts';
import type { EventQueue } from '../event-queue.ts';
import type { HostPool, Transport, TransportFactory } from '../http/connection-pool.ts';
import type { SendBuffer } from '../http/send-buffer.ts';
import { BottleneckLink } from '../network/bottleneck.ts';
import type { NetContext } from '../network/tcp.ts';
import { Rng, STREAM_PATH2_LOSS, STREAM_PATH2_RED } from '../rng.ts';
import { MptcpConnection, type MptcpStats } from './connection.ts';
import type { PathSpec } from './options.ts';

/** A bottleneck that also drops each data packet with a fixed probability before it is queued. */
export class LossyLink extends BottleneckLink {
  constructor(
    path: Required<PathSpec>,
    queueBdp: number,
    red: boolean,
    rng: Rng,
    private readonly lossRng: Rng,
  ) {
    super(path.bandwidthBps, path.rttMs, queueBdp, red, rng);
    this.loss = path.loss;
  }

  private readonly loss: number;

  override offer(t: number, wireBytes: number): number {
    if (this.loss > 0 && this.lossRng.next() < this.loss) {
      this.packets++;
      this.drops++;
      return -1;
    }
    return super.offer(t, wireBytes);
  }
}

export class MultipathNetwork implements TransportFactory {
  readonly link2: LossyLink;
  private readonly path2: NetContext;
  readonly stats: MptcpStats = { retransmissions: 0, bytesDelivered: 0, bytesPath2: 0, maxReorderBytes: 0 };

  constructor(
    private readonly cfg: ResolvedConfig,
    private readonly net: NetContext,
    private readonly q: EventQueue,
  ) {
    const p = cfg.path2!;
    this.link2 = new LossyLink(p, cfg.queueBdp, cfg.queue === 'red', new Rng(cfg.seed, STREAM_PATH2_RED), new Rng(cfg.seed, STREAM_PATH2_LOSS));
    this.path2 = { ...net, link: this.link2, dS: p.rttMs / 4, dC: p.rttMs / 4, arrivalLane: q.addLane() };
  }

  open(pool: HostPool, buffer: SendBuffer, perSegmentDelivery: boolean, now: number): Transport {
    const dRtt = this.cfg.path2!.rttMs - this.cfg.rttMs;
    return new MptcpConnection(this.q, this.cfg, buffer, perSegmentDelivery, this.net, this.stats, [
      { ctx: this.net, up: pool.up, rtt: pool.rtt },
      { ctx: this.path2, up: pool.up + dRtt / 2, rtt: pool.rtt + dRtt },
    ], now);
  }
}
