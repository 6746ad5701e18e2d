/**
 * One network path between the client and the servers: the downlink bottleneck (rate or trace, queue,
 * loss, spikes) and the uplink (none when it neither loses nor limits; else a loss model, or a traced
 * bottleneck). A second path (MPTCP) builds its own with another `index`, so its random streams differ.
 */
import type { ResolvedConfig } from '../config.ts';
import { Rng, STREAM_LOSS_DOWN, STREAM_LOSS_UP, STREAM_RED, STREAM_SPIKES } from '../rng.ts';
import { BottleneckLink, HEADER_BYTES, LossyWire, MSS, type PacketLink } from './bottleneck.ts';
import { BridgeLink } from './bridge-link.ts';
import { ScheduleLoss } from './link-schedule.ts';
import { makeLossModel } from './loss-model.ts';
import { LatencySpikes } from './spikes.ts';

export interface PathLinks {
  down: BottleneckLink;
  /** A link schedule with `netemPair`: the downlink the transport uses instead of `down` (bridge-link.ts). */
  bridge?: BridgeLink;
  up: PacketLink | undefined;
}

/** The uplink's queue when it follows a trace, in BDPs of that trace: deep, as cellular uplinks are. */
const UPLINK_QUEUE_BDP = 4;

export type PathConfig = Pick<ResolvedConfig, 'bandwidthBps' | 'rttMs' | 'queueBdp' | 'minQueuePackets' | 'queue' | 'seed' | 'loss' | 'uplinkLoss' | 'latencySpikes' | 'downlinkTrace' | 'uplinkTrace' | 'linkSchedule'>;

/**
 * Random stream s of path `index`. A function, not a closure per call of buildPath: under tsx (esbuild's
 * keepNames) a named closure costs a defineProperty each time it is created, once per simulation here.
 */
function pathRng(cfg: PathConfig, index: number, s: number): Rng {
  return new Rng(cfg.seed, s + 16 * index);
}

export function buildPath(cfg: PathConfig, index = 0): PathLinks {
  const schedule = cfg.linkSchedule;
  if (schedule) {
    // Goel's bridge: the same rate, delay and loss on both interfaces, each direction its own loss draws.
    const link = (lossStream: number): BottleneckLink => new BottleneckLink(cfg.bandwidthBps, cfg.rttMs, cfg.queueBdp, cfg.queue === 'red', pathRng(cfg, index, STREAM_RED), {
      minQueuePackets: cfg.minQueuePackets,
      schedule,
      loss: new ScheduleLoss(schedule, pathRng(cfg, index, lossStream)),
    });
    // With `netemPair` the downlink (data) is 3.13's netem/tbf pair, event-driven; the uplink keeps the closed form.
    const down = link(STREAM_LOSS_DOWN);
    if (!schedule.netemPair) return { down, up: link(STREAM_LOSS_UP) };
    const bridge = new BridgeLink(schedule, new ScheduleLoss(schedule, pathRng(cfg, index, STREAM_LOSS_DOWN)), schedule.queueBytes ?? down.maxQueue * (MSS + HEADER_BYTES));
    return { down, bridge, up: link(STREAM_LOSS_UP) };
  }
  const down = new BottleneckLink(cfg.bandwidthBps, cfg.rttMs, cfg.queueBdp, cfg.queue === 'red', pathRng(cfg, index, STREAM_RED), {
    minQueuePackets: cfg.minQueuePackets,
    trace: cfg.downlinkTrace,
    loss: makeLossModel(cfg.loss, pathRng(cfg, index, STREAM_LOSS_DOWN)),
    spikes: cfg.latencySpikes ? new LatencySpikes(cfg.latencySpikes, pathRng(cfg, index, STREAM_SPIKES)) : undefined,
  });
  const upLoss = makeLossModel(cfg.uplinkLoss, pathRng(cfg, index, STREAM_LOSS_UP));
  let up: PacketLink | undefined;
  if (cfg.uplinkTrace) up = new BottleneckLink(cfg.uplinkTrace.meanBps, cfg.rttMs, UPLINK_QUEUE_BDP, false, pathRng(cfg, index, STREAM_RED), { trace: cfg.uplinkTrace, loss: upLoss });
  else if (upLoss) up = new LossyWire(upLoss);
  return { down, up };
}
