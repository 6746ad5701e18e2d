/**
 * The shape of one page load over its connections (emulate:goel:shard): how much of the data the busiest
 * connection carried and how fast, beside the page's rate, from the result's per-connection 70 ms slices.
 */
import type { ConnectionSlices } from '../../src/index.ts';

export interface LoadShape {
  /** The busiest connection's share of the load's data segments. */
  bulkShare: number;
  /** Its segments per slice over the slices from its first send to its last. */
  bulkRate: number;
  /** All connections' segments per slice over the load. */
  pageRate: number;
  retransmittedShare: number;
}

/** The shape of one load from its per-connection slices (each connection's slices count from its own start). */
export function loadShape(conns: readonly ConnectionSlices[], loadTimeMs: number, sliceMs: number): LoadShape {
  if (conns.length === 0) return { bulkShare: 0, bulkRate: 0, pageRate: 0, retransmittedShare: 0 };
  const total = (c: ConnectionSlices): number => c.sent.reduce((a, b) => a + b, 0);
  const all = conns.reduce((a, c) => a + total(c), 0);
  const bulk = conns.reduce((a, c) => (total(c) > total(a) ? c : a));
  const first = bulk.sent.findIndex((n) => n > 0);
  let last = bulk.sent.length - 1;
  while (last > 0 && bulk.sent[last] === 0) last--;
  const retx = conns.reduce((a, c) => a + c.retransmitted.reduce((x, y) => x + y, 0), 0);
  return {
    bulkShare: all ? total(bulk) / all : 0,
    bulkRate: first < 0 ? 0 : total(bulk) / (last - first + 1),
    pageRate: all / Math.max(1, loadTimeMs / sliceMs),
    retransmittedShare: all ? retx / all : 0,
  };
}
