/**
 * One identity comparison: a recorded load's graph emulated at the recording's own conditions — loopback,
 * where bandwidth is high and the round trip ~0.1 ms — with the server delays the graph carries (measured
 * from the capture). Both sides on one clock: ms from navigation start.
 */
import type { Graph } from '@pcp/graph-builder';
import { simulate } from '../src/simulator.ts';
import type { EmulatorConfig } from '../src/config.ts';
import type { IdentityRun } from './identity-stats.ts';

/**
 * Loopback as the emulator sees it. HTTP/1.1: the example site and the suite's main origins serve it; a graph that
 * records its document's protocol (synthesized pages are served over TLS, h2) is emulated with that (`recordedProtocol`).
 * Its queue is a 1,000-packet drop-tail one: Linux's loopback hands each packet to the receiving CPU's backlog
 * (`netdev_max_backlog`, 1,000 by default) and drops nothing a page sends; the thesis' RED queue of 1.5 BDP is 13
 * packets at 1 Gbit/s and 0.1 ms, which a few connections' first windows overflow, each loss then waiting for the
 * 200 ms minimum RTO (synthesized fc2.com: ga.js 200 ms late on two of three kept loads). The hosts are Linux:
 * its RTO (`linuxRto`, SRTT + max(4 RTTVAR, 200 ms)).
 */
export const LOOPBACK: EmulatorConfig = { bandwidthBps: 1e9, rttMs: 0.1, protocol: 'h1', queue: 'droptail', minQueuePackets: 1000, linuxRto: true };

/** The comparison, or why this graph cannot be compared (no recorded navigation or marks). */
export function emulateIdentity(graph: Graph, config: EmulatorConfig = LOOPBACK): IdentityRun | string {
  const nav = graph.navigation;
  if (!nav) return 'the graph records no navigation (built by an older pcp, or not from a Chrome trace)';
  if (nav.load === undefined || nav.domContentLoaded === undefined) return 'the recording has no load or DOMContentLoaded mark';
  const r = simulate(graph, config);
  const offset = r.navigationStartOffset ?? nav.navigationStartOffset;
  return {
    recordedLoad: nav.navigationStartOffset + nav.load,
    recordedDcl: nav.navigationStartOffset + nav.domContentLoaded,
    emulatedLoad: offset + r.loadTime,
    emulatedDcl: offset + r.domContentLoadedTime,
  };
}
