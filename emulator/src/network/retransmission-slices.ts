/**
 * What Goel 2017 measured on its traces (§IV): per TCP connection, from the server's receipt of the SYN, the
 * segments the server sent and retransmitted in each 70 ms slice. Its "loss" and "retransmission rate" are
 * the retransmitted share of a slice's segments (§V). Counted when `retransmissionSliceMs` is set; read
 * with `retransmissionShares`.
 */
import { median } from '@pcp/graph-builder';

export interface ConnectionSlices {
  /** Per slice from the connection's start: data segments the server sent (first sends and retransmissions). */
  sent: number[];
  /** Per slice: of those, retransmissions. */
  retransmitted: number[];
}

export class RetransmissionSlices {
  private readonly byConnection = new Map<object, { origin: number; slices: ConnectionSlices }>();
  readonly connections: ConnectionSlices[] = [];

  constructor(readonly sliceMs: number) {}

  /** A connection's SYN reaches its server at `origin`: its first slice starts then. */
  open(conn: object, origin: number): void {
    const slices: ConnectionSlices = { sent: [], retransmitted: [] };
    this.byConnection.set(conn, { origin, slices });
    this.connections.push(slices);
  }

  /** The server sent a data segment at `t` (a retransmission or not); connections never opened are not counted. */
  record(conn: object, t: number, retransmission: boolean): void {
    const c = this.byConnection.get(conn);
    if (!c) return;
    const k = Math.max(0, Math.floor((t - c.origin) / this.sliceMs));
    const { sent, retransmitted } = c.slices;
    while (sent.length <= k) {
      sent.push(0);
      retransmitted.push(0);
    }
    sent[k]!++;
    if (retransmission) retransmitted[k]!++;
  }
}

export interface RetransmissionShares {
  /** Slices in which the server retransmitted at least one segment (Goel's loss clusters). */
  clusterSlices: number;
  /** Mean and median retransmitted share over those slices (Goel's per-slice "retransmission rate"). */
  meanClusterShare: number;
  medianClusterShare: number;
  /** Retransmitted share of every segment sent, over connections that retransmitted (Goel's lifetime rate). */
  lifetimeShare: number;
}

/** Goel's figures from the slices of one or more simulations. */
export function retransmissionShares(connections: readonly ConnectionSlices[]): RetransmissionShares {
  const shares: number[] = [];
  let sent = 0;
  let retx = 0;
  for (const c of connections) {
    let cSent = 0;
    let cRetx = 0;
    c.sent.forEach((n, k) => {
      const r = c.retransmitted[k]!;
      cSent += n;
      cRetx += r;
      if (r > 0) shares.push(r / n);
    });
    if (cRetx > 0) {
      sent += cSent;
      retx += cRetx;
    }
  }
  return {
    clusterSlices: shares.length,
    meanClusterShare: shares.length ? shares.reduce((a, b) => a + b, 0) / shares.length : 0,
    medianClusterShare: shares.length ? median(shares) : 0,
    lifetimeShare: sent ? retx / sent : 0,
  };
}
