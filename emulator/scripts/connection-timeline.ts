/**
 * A diagnostic: one simulation's TCP events per connection — each segment sent (first time or again, and
 * whether the queue or the loss model dropped it), each ACK, each timeout — with the sender's window, RTO
 * and backoff after it. How issue 17's second pass found why `--loss-detection sack` made HTTP/1.1 faster at
 * low rates (emulator/README.md). It wraps TcpConnection's methods for the duration of one simulate() call
 * and reads the sender's private state: a tool for looking, not an interface.
 */
import type { Graph } from '@pcp/graph-builder';
import { simulate, type EmulatorConfig } from '../src/index.ts';
import { TcpConnection, type Segment } from '../src/network/tcp.ts';

export interface TimelineEvent {
  t: number;
  /** Connections numbered in the order they first sent. */
  conn: number;
  what: 'send' | 'resend' | 'ack' | 'timeout';
  /** The segment's sequence number (send, resend), or how many arrivals the ACK covers. */
  n: number;
  /** The segment was dropped or lost on its way. */
  dropped: boolean;
  cwnd: number;
  rto: number;
  backoff: number;
}

/** The sender's state the events report (TcpConnection's private fields, read for diagnosis). */
interface SenderState {
  cwnd: number;
  rto: number;
  backoff: number;
  rtoGen: number;
  rtoDeadline: number;
  probeArmed: boolean;
  /** Early retransmit's held retransmission (null: early retransmit off). */
  held: { armed: boolean } | null;
  undetected: Segment[];
  udHead: number;
  ackLost(): boolean;
}

type Methods = {
  transmit(s: Segment, now: number): void;
  onAck(s: Segment, now: number, upTo?: number): void;
  onRto(gen: number, now: number): void;
};

/** Simulates `graph` under `config` and returns the TCP events of every connection, in time order. */
export function connectionTimeline(graph: Graph, config: EmulatorConfig): TimelineEvent[] {
  const proto = TcpConnection.prototype as unknown as Methods;
  const saved = { transmit: proto.transmit, onAck: proto.onAck, onRto: proto.onRto };
  const ids = new Map<object, number>();
  const events: TimelineEvent[] = [];
  const push = (c: object, t: number, what: TimelineEvent['what'], n: number, dropped: boolean): void => {
    let id = ids.get(c);
    if (id === undefined) ids.set(c, (id = ids.size));
    const st = c as unknown as SenderState;
    events.push({ t, conn: id, what, n, dropped, cwnd: st.cwnd, rto: st.rto, backoff: st.backoff });
  };
  proto.transmit = function (this: object, s: Segment, now: number): void {
    saved.transmit.call(this, s, now);
    push(this, now, s.retx > 0 ? 'resend' : 'send', s.seq, s.lost);
  };
  proto.onAck = function (this: object, s: Segment, now: number, upTo?: number): void {
    saved.onAck.call(this, s, now, upTo);
    push(this, now, 'ack', upTo ?? s.arrivalIndex + 1, false);
  };
  proto.onRto = function (this: object, gen: number, now: number): void {
    const st = this as unknown as SenderState;
    // A timer that fires with nothing lost and no ACK lost is only re-armed (the stale-RTO rule): not a timeout.
    const fires = gen === st.rtoGen && now >= st.rtoDeadline && !st.probeArmed && !(st.held?.armed ?? false) && (st.udHead < st.undetected.length || st.ackLost());
    saved.onRto.call(this, gen, now);
    if (fires) push(this, now, 'timeout', 0, false);
  };
  try {
    simulate(graph, config);
  } finally {
    Object.assign(proto, saved);
  }
  return events;
}

/** One line per event: time, connection, event, window, RTO × backoff. */
export function formatEvent(e: TimelineEvent): string {
  const what = e.what === 'ack' ? `ack (${e.n} arrivals)` : e.what === 'timeout' ? 'timeout' : `${e.what} ${e.n}${e.dropped ? ' DROPPED' : ''}`;
  return `${e.t.toFixed(1).padStart(10)}  c${e.conn}  ${what.padEnd(20)} cwnd ${e.cwnd.toFixed(2).padStart(6)}  RTO ${e.rto.toFixed(0)} x${e.backoff}`;
}
