/**
 * An HTTP exchange (one request/response) and the server's socket send buffer (§3.7.7.7).
 * FIFO for HTTP/1.x and unprioritised HTTP/2; a priority queue otherwise. Without preemption, a response
 * whose first packet has left keeps the wire until it is done (HTTP/2 cannot take back what it wrote to the
 * socket); with preemption a more important response overtakes its remaining bytes.
 */
import { removeAt } from '../remove-at.ts';

export interface Exchange {
  node: number;
  bytes: number;
  /** Bytes handed to TCP / delivered to the client application. */
  sent: number;
  received: number;
  prio: number;
  order: number;
  serverDelay: number;
  // Timeline, ms (NaN until reached).
  tIssue: number;
  tSent: number;
  tAtServer: number;
  tReady: number;
  tFirstByte: number;
  tEnd: number;
  handshake: number;
  /** The HttpConnection carrying it (opaque here). */
  conn: unknown;
  /** A paced body (server-pacing.ts): bytes the server has produced so far; absent: all of them. */
  avail?: number;
  pace?: ServerPace;
}

import type { ServerPace } from './server-pacing.ts';

export class SendBuffer {
  private entries: Exchange[] = [];
  private current: Exchange | null = null;
  private orderSeq = 0;

  constructor(
    private readonly prioritised: boolean,
    private readonly preempt: boolean,
  ) {}

  push(x: Exchange): void {
    if (this.entries.includes(x)) return;
    x.order = this.orderSeq++;
    this.entries.push(x);
    if (this.prioritised && (this.preempt || (this.current !== null && this.current.sent === 0))) this.current = null;
  }

  hasData(): boolean {
    return this.entries.length > 0;
  }

  /** The exchange whose bytes go in the next segment, or null when the buffer is empty. */
  peek(): Exchange | null {
    if (this.entries.length === 0) return null;
    if (!this.prioritised) return this.entries[0]!;
    if (this.current !== null) return this.current;
    let best = this.entries[0]!;
    for (let i = 1; i < this.entries.length; i++) {
      const e = this.entries[i]!;
      if (e.prio < best.prio || (e.prio === best.prio && e.order < best.order)) best = e;
    }
    this.current = best;
    return best;
  }

  /** The buffered exchanges in the order their bytes would leave: peek()'s first, then by priority (FIFO unprioritised). */
  inSendOrder(): readonly Exchange[] {
    const first = this.peek();
    if (first === null || !this.prioritised) return this.entries;
    const rest = this.entries.filter((e) => e !== first).sort((a, b) => a.prio - b.prio || a.order - b.order);
    rest.unshift(first);
    return rest;
  }

  /**
   * Takes up to max bytes of an exchange in the buffer (peek()'s, or a later one an MPTCP scheduler chose);
   * drops it from the buffer when all it has produced is sent (a paced body returns with its next piece).
   */
  take(x: Exchange, max: number): number {
    const produced = x.avail ?? x.bytes;
    const len = Math.min(max, produced - x.sent);
    x.sent += len;
    if (x.sent >= produced) {
      const i = this.entries.indexOf(x);
      if (i >= 0) removeAt(this.entries, i);
      if (this.current === x) this.current = null;
    }
    return len;
  }
}
