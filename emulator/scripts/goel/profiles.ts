/**
 * Goel et al. 2017's lossy cellular conditions as emulator options. §VI-B classifies connections by the time
 * between retransmission clusters: Good (median 1.15 s), Median (350 ms), Poor (165 ms); a cluster is a
 * 70 ms slice in which up to 40% of segments were retransmitted (§V); the RTT (time to establish TCP
 * connections) has a median of 70 ms (§VI-B). The paper gives throughput only as a figure: we take 5 Mbit/s
 * (its Fig. 19 text implies ~4.4 Mbit/s of goodput for h1 under Good), 20% loss inside a cluster, and
 * Gilbert–Elliott chains on both directions. Two references: no loss, and netem-style random 1% loss
 * (the emulation Goel argues is unrealistic).
 */
import type { EmulatorConfig } from '../../src/config.ts';
import { gilbertFromClusters, gilbertMeanLoss } from '../../src/network/loss-model.ts';

export const GOEL_RATE_BPS = 5e6;
export const GOEL_RTT_MS = 70;
/** Loss inside a 70 ms cluster (Goel: "up to 40%"). */
export const CLUSTER_LOSS = 0.2;
const CLUSTER_MS = 70;

export interface LossProfile {
  name: string;
  what: string;
  config: Partial<EmulatorConfig>;
  /** Long-run loss rate per direction. */
  meanLoss: number;
}

function clusters(name: string, gapMs: number): LossProfile {
  const packetsPerMs = GOEL_RATE_BPS / 8 / 1500 / 1000;
  const g = gilbertFromClusters({ packetsPerMs, badMs: CLUSTER_MS, gapMs, lossBad: CLUSTER_LOSS });
  return { name, what: `clusters every ${gapMs} ms`, config: { lossModel: { kind: 'gilbert', ...g } }, meanLoss: gilbertMeanLoss(g) };
}

export const LOSS_PROFILES: readonly LossProfile[] = [
  { name: 'lossless', what: 'no loss', config: {}, meanLoss: 0 },
  { name: 'random-1%', what: 'Bernoulli 1%', config: { lossRate: 0.01 }, meanLoss: 0.01 },
  clusters('Good', 1150),
  clusters('Median', 350),
  clusters('Poor', 165),
];

/** The receive window Goel's client and server advertised (§VI-C: 65 KB). */
export const GOEL_RWND_BYTES = 65_535;

/** The emulator configuration of one cell: Goel's testbed (TLS, icwnd 10, CUBIC, delayed ACKs, 65 KB receive windows). */
export function goelConfig(profile: LossProfile, protocol: 'h1' | 'h2', extra: Partial<EmulatorConfig> = {}): EmulatorConfig {
  return {
    bandwidthBps: GOEL_RATE_BPS,
    rttMs: GOEL_RTT_MS,
    protocol,
    icwnd: 10,
    congestionControl: 'cubic',
    tlsRtts: 1,
    delayedAcks: true,
    receiveWindow: GOEL_RWND_BYTES,
    ...profile.config,
    ...extra,
  };
}
