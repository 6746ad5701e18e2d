/**
 * Han et al. 2015 ("A Measurement Study of MPTCP for Web", /work/shared/papers/han-2015-mptcp-web-slides.txt) in
 * miniature: its WiFi + LTE testbed as emulator configurations, and its published figures to compare with.
 * Pure: han-wifi-lte.ts runs them over the legacy corpus.
 *
 * Han's Table 2: WiFi 7,040 kbit/s down, 50 ms; LTE 9,185 kbit/s down, 70 ms (uplinks 2.0 / 2.3 Mbit/s, not
 * modelled: the emulator's uplink never limits unless traced). Here WiFi is path 1 at its rate and RTT;
 * LTE is path 2 at 70 ms following a Mahimahi trace (cellular-variable: 0.5-24 Mbit/s, mean 7.18, with
 * outages; emulator/traces/README.md), or at Han's constant 9,185 kbit/s for comparison. Han adds 0, 0.5 and
 * 1% random loss on WiFi (Figures 3-4): here `lossRate` on path 1, each way. "HTTP" is h1 (6 connections per
 * host), "SPDY" h2 (one). MPTCP is Linux's default: min-RTT scheduler, LIA coupling, WiFi the first subflow.
 */
import type { EmulatorConfig } from '../src/index.ts';

export const WIFI = { bandwidthBps: 7.04e6, rttMs: 50 } as const;
export const LTE = { bandwidthBps: 9.185e6, rttMs: 70 } as const;
export const WIFI_LOSSES = [0, 0.005, 0.01] as const;
export type HanProtocol = 'h1' | 'h2';
export const HAN_PROTOCOLS: readonly HanProtocol[] = ['h1', 'h2'];
/** Han's name for each protocol. */
export const HAN_NAME: Record<HanProtocol, string> = { h1: 'HTTP', h2: 'SPDY' };

/**
 * Han's median share of TCP payload delivered over LTE (MPTCP, WiFi the primary subflow) under 0, 0.5 and 1%
 * extra WiFi loss (slides, "Packet losses (MPTCP)"), %.
 */
export const HAN_LTE_SHARE: Record<HanProtocol, readonly [number, number, number]> = { h1: [35.5, 36.4, 37.0], h2: [62.2, 66.3, 69.2] };

export type Lte = 'trace' | 'constant' | 'none';

/** One configuration of the miniature: protocol, extra WiFi loss, and LTE as a trace, constant, or absent (single-path TCP on WiFi). */
export function hanConfig(protocol: HanProtocol, wifiLoss: number, lte: Lte, ltePath: string, seed: number): EmulatorConfig {
  const base: EmulatorConfig = { ...WIFI, protocol, lossRate: wifiLoss, rttJitter: 0.1, seed };
  if (lte === 'none') return base;
  return { ...base, path2: lte === 'trace' ? { ...LTE, downlinkTrace: ltePath } : { ...LTE } };
}
