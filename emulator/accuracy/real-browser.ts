/**
 * What the emulator must be told about the real loads of the shaped grid, beyond the link: the browser and
 * servers they ran on (accuracy/real-loads.ts, accuracy/context-load.ts, replay's servers).
 */
import type { EmulatorConfig } from '../src/config.ts';
import type { LossDetection } from '../src/link-config.ts';
import type { Condition } from './grid-stats.ts';

/**
 * TLS round trips per new connection: every origin is replayed over TLS 1.3 (one round trip after TCP's;
 * the cold check sees a handshake on every load).
 */
export const TLS_RTTS = 1;

/**
 * The shaper's link as the emulator's bottleneck (`--queue shaper`, the harness' default): drop-tail, 8,192 packets (the delay line's
 * own limit per direction). The shaper rate-limits at the sender (tbf, max(1 BDP, 32 packets)), where Linux's
 * TCP Small Queues keep a connection from overflowing it: the real links do not drop, while the thesis' RED
 * queue of 1.5 BDP drops a page's first windows at low BDPs (34 drops for synthesized google-accounts at
 * 1.6 Mbit/s, 150 ms, h2, each lost tail an RTO: emulator/README.md, session 13).
 */
export const SHAPER_QUEUE: Pick<EmulatorConfig, 'queue' | 'queueBdp' | 'minQueuePackets'> = { queue: 'droptail', queueBdp: 1, minQueuePackets: 8192 };

/** The bottleneck queue the emulator predicts with: the shaper's (the harness' default) or the thesis' RED. */
export const PREDICTION_QUEUES = ['shaper', 'red'] as const;
export type PredictionQueue = (typeof PREDICTION_QUEUES)[number];

export interface RealBrowser {
  congestionControl: 'newreno' | 'cubic';
  /** A fresh Chromium (regular profile) per load, `--fresh-browser`; else a fresh incognito context per load. */
  freshBrowser: boolean;
  /** How the emulated senders detect loss (`--loss-detection`; the real ones are Linux: SACK); default the emulator's. */
  lossDetection?: LossDetection;
  /** The emulated bottleneck queue (`--queue`); default the thesis' RED. */
  queue?: PredictionQueue;
}

/**
 * The emulator config that predicts a real load under condition c. `preconnect`: Chromium's LoadingPredictor,
 * which preconnects to the document's origin at navigation start, is off in off-the-record profiles
 * (predictors::IsLoadingPredictorEnabled: "Disabled for off-the-record"), and a context made by
 * Target.createBrowserContext is off the record.
 */
export function predictionConfig(c: Condition, browser: RealBrowser, seed: number): EmulatorConfig {
  return {
    bandwidthBps: c.bandwidthBps,
    rttMs: c.rttMs,
    lossRate: c.lossRate,
    protocol: c.protocol,
    congestionControl: browser.congestionControl,
    tlsRtts: TLS_RTTS,
    preconnect: browser.freshBrowser,
    // The servers are Linux: its RTO (SRTT + max(4 RTTVAR, 200 ms)), for timeouts and the idle check alike.
    linuxRto: true,
    ...(browser.lossDetection ? { lossDetection: browser.lossDetection } : {}),
    ...(browser.queue === 'shaper' ? SHAPER_QUEUE : {}),
    seed,
  };
}
