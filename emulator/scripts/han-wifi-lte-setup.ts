/**
 * Han et al. 2015 ("A Measurement Study of MPTCP for Web", /work/shared/papers/han-2015-mptcp-web-slides.txt) in
 * miniature: its WiFi + LTE testbed as emulator configurations, and its published figures to compare with.
 * Pure: han-wifi-lte.ts runs them over the legacy corpus.
 *
 * Han's Table 2: WiFi 7,040 kbit/s down, 50 ms; LTE 9,185 kbit/s down, 70 ms (uplinks 2.0 / 2.3 Mbit/s, not
 * modelled: the emulator's uplink never limits unless traced). Here WiFi is path 1 at its rate and RTT;
 * LTE is path 2 at 70 ms following a Mahimahi trace (cellular-variable: 0.5-24 Mbit/s, mean 7.18, with
 * outages; emulator/traces/README.md), or at Han's constant 9,185 kbit/s for comparison. Han adds 0, 0.5 and
 * 1% random loss on WiFi (Figures 3-4): here `lossRate` on path 1, each way. MPTCP is Linux's default: min-RTT
 * scheduler, LIA coupling, WiFi the first subflow, every connection joining LTE once its first subflow is
 * fully established (the fullmesh path manager; the emulator's join).
 *
 * Two set-ups:
 * - `testbed` (Han's; the default): the browser talks to a co-located HTTP or SPDY proxy ("HTTP/SPDY Proxy" of
 *   its Figure 1). "SPDY" is then ONE TLS connection for the whole page (h2 with every host of the page merged
 *   onto the proxy, `unshard`; TLS with False Start, 1 round trip); "HTTP" is h1 to the HTTP proxy, which Chrome
 *   still pools per origin (6 persistent connections per host, no pipelining), in the clear. The hosts are
 *   Linux 3.14 (MPTCP v0.89): SACK loss detection with FACK, tail-loss probes, early retransmit, F-RTO, and
 *   window validation after idle that keeps an unset ssthresh (`linuxIdleRestart`), Linux's RTO (`linuxRto`).
 * - `direct`: the first version of this miniature: h1 or h2 straight to each host (one h2 connection per
 *   host), no TLS, the thesis' TCP (NACK loss detection, Algorithm 11's restart).
 */
import type { Graph } from '@pcp/graph-builder';
import { compileGraph, type EmulatorConfig } from '../src/index.ts';
import { LINUX_3_13_HOSTS } from './goel/profiles.ts';

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
export type HanSetup = 'testbed' | 'direct';
export const HAN_SETUPS: readonly HanSetup[] = ['testbed', 'direct'];

/**
 * Linux 3.14 with MPTCP v0.89, Han's client and servers: Goel's Linux 3.13 loss recovery, Linux's restart after
 * idle, and Linux's RTO (3.14's `__tcp_set_rto` is SRTT + rttvar with rttvar kept at least `tcp_rto_min`, 200 ms:
 * the same estimator as today's kernels, so `linuxRto`, per subflow as each subflow is its own socket).
 */
export const HAN_LINUX_HOSTS: Partial<EmulatorConfig> = { ...LINUX_3_13_HOSTS, linuxIdleRestart: true, linuxRto: true };

/** The page's hosts, in resource order (the main document's first): all of them go through the SPDY proxy. */
export function pageHosts(graph: Graph): string[] {
  return [...new Set(compileGraph(graph).res.map((r) => r.host))];
}

/** What the set-up adds for a protocol: the proxy (one TLS connection for SPDY) and the hosts' TCP. */
function setupConfig(setup: HanSetup, protocol: HanProtocol, hosts: readonly string[]): Partial<EmulatorConfig> {
  if (setup === 'direct') return {};
  return protocol === 'h2' ? { ...HAN_LINUX_HOSTS, unshard: [...hosts], tlsRtts: 1 } : { ...HAN_LINUX_HOSTS };
}

/**
 * One configuration of the miniature: protocol, extra WiFi loss, LTE as a trace, constant, or absent (single-path
 * TCP on WiFi), and the set-up (`hosts`: the page's, pageHosts).
 */
export function hanConfig(protocol: HanProtocol, wifiLoss: number, lte: Lte, ltePath: string, seed: number, setup: HanSetup = 'testbed', hosts: readonly string[] = []): EmulatorConfig {
  const base: EmulatorConfig = { ...WIFI, protocol, lossRate: wifiLoss, rttJitter: 0.1, seed, ...setupConfig(setup, protocol, hosts) };
  if (lte === 'none') return base;
  return { ...base, path2: lte === 'trace' ? { ...LTE, downlinkTrace: ltePath } : { ...LTE } };
}
