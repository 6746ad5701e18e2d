/**
 * What Goel 2017 measured on its traces (§IV): per TCP connection, from the server's receipt of the SYN, in
 * each 70 ms slice "the number of segments exchanged between the client and the server" and "the number of
 * segments retransmitted by the server" (tshark on the server's tcpdump: both directions). Its "loss" and
 * "retransmission rate" are the retransmitted share of a slice's segments (§V): retransmitted / exchanged.
 * Counted when `retransmissionSliceMs` is set: the server's data segments as they leave it, the client's
 * segments (requests, ACKs) as they reach it; the handshake's and TLS flights are a delay in the model, not
 * segments, and are not counted (they precede any data). Read with `retransmissionShares`.
 */
import { mean, median } from '@pcp/graph-builder';

export interface ConnectionSlices {
  /** Per slice from the connection's start: data segments the server sent (first sends and retransmissions). */
  sent: number[];
  /** Per slice: of those, retransmissions. */
  retransmitted: number[];
  /** Per slice: segments the server received from the client (requests, ACKs). */
  received: number[];
}

export class RetransmissionSlices {
  private readonly byConnection = new Map<object, { origin: number; slices: ConnectionSlices }>();
  readonly connections: ConnectionSlices[] = [];

  constructor(readonly sliceMs: number) {}

  /** A connection's SYN reaches its server at `origin`: its first slice starts then. */
  open(conn: object, origin: number): void {
    const slices: ConnectionSlices = { sent: [], retransmitted: [], received: [] };
    this.byConnection.set(conn, { origin, slices });
    this.connections.push(slices);
  }

  /** The server sent a data segment at `t` (a retransmission or not); connections never opened are not counted. */
  record(conn: object, t: number, retransmission: boolean): void {
    const c = this.byConnection.get(conn);
    if (!c) return;
    const k = slotOf(c.slices, c.origin, t, this.sliceMs);
    c.slices.sent[k]!++;
    if (retransmission) c.slices.retransmitted[k]!++;
  }

  /** A segment of the client's (a request, an ACK) reached the server at `t`. */
  receive(conn: object, t: number): void {
    const c = this.byConnection.get(conn);
    if (c) c.slices.received[slotOf(c.slices, c.origin, t, this.sliceMs)]!++;
  }
}

/**
 * Time t's slice of a connection whose first slice starts at `origin`, its slices grown to hold it (a number, not
 * a record: nothing allocated per segment).
 */
export function slotOf(slices: ConnectionSlices, origin: number, t: number, sliceMs: number): number {
  const k = Math.max(0, Math.floor((t - origin) / sliceMs));
  const { sent, retransmitted, received } = slices;
  while (sent.length <= k) {
    sent.push(0);
    retransmitted.push(0);
    received.push(0);
  }
  return k;
}

export interface RetransmissionShares {
  /** Slices in which the server retransmitted at least one segment (Goel's loss clusters). */
  clusterSlices: number;
  /** Mean and median over those slices of retransmitted / exchanged (both directions): Goel's per-slice "retransmission rate". */
  meanClusterShare: number;
  medianClusterShare: number;
  /** Mean over the same slices of retransmitted / the server's data segments alone (this project's reading before session 15). */
  meanClusterShareOfSent: number;
  /** Retransmitted share of every data segment sent, over connections that retransmitted (Goel's lifetime rate). */
  lifetimeShare: number;
}

/** Goel's figures from the slices of one or more simulations. */
export function retransmissionShares(connections: readonly ConnectionSlices[]): RetransmissionShares {
  const shares: number[] = [];
  const ofSent: number[] = [];
  let sent = 0;
  let retx = 0;
  for (const c of connections) {
    let cSent = 0;
    let cRetx = 0;
    c.sent.forEach((n, k) => {
      const r = c.retransmitted[k]!;
      cSent += n;
      cRetx += r;
      if (r === 0) return;
      shares.push(r / (n + (c.received[k] ?? 0)));
      ofSent.push(r / n);
    });
    if (cRetx > 0) {
      sent += cSent;
      retx += cRetx;
    }
  }
  return {
    clusterSlices: shares.length,
    meanClusterShare: shares.length ? mean(shares) : 0,
    medianClusterShare: shares.length ? median(shares) : 0,
    meanClusterShareOfSent: ofSent.length ? mean(ofSent) : 0,
    lifetimeShare: sent ? retx / sent : 0,
  };
}
