/**
 * The server model (§3.7.6, Figure 3.15). Each request waits its processing delay; then, by architecture:
 * - serial: one request at a time per connection (a thread per connection), so a request also waits for the
 *   processing of the ones before it;
 * - parallel: requests are processed at once, but HTTP/1.x responses must leave in request order, so a ready
 *   response waits in the server's memory behind unfinished earlier ones (FIFO head-of-line blocking);
 * - out-of-order: a framed protocol (HTTP/2, QUIC-lite) sends each response as soon as it is ready.
 * A ready response is written to the connection's socket send buffer (send-buffer.ts) and TCP takes over.
 */
import type { ServerModel } from '../config.ts';
import type { EventQueue } from '../event-queue.ts';
import { EV_RESPONSE_MORE, EV_RESPONSE_READY } from '../events.ts';
import type { SendBuffer, Exchange } from './send-buffer.ts';

/** The server's side of one connection. */
export class ServerSession {
  /** Responses in request order (serial and parallel servers). */
  private fifo: Exchange[] = [];
  private head = 0;
  /** When a serial server's thread for this connection is next free. */
  private freeAt = 0;
  /** A paced HTTP/1.x response still being produced: the responses after it wait (they leave in order). */
  private held: Exchange | null = null;

  constructor(
    private readonly model: ServerModel,
    private readonly q: EventQueue,
    readonly buffer: SendBuffer,
  ) {}

  /** A request arrived: schedule its response's readiness (EV_RESPONSE_READY). */
  requestArrived(x: Exchange, now: number): void {
    x.tAtServer = now;
    if (this.model !== 'out-of-order') this.fifo.push(x);
    let ready = now + x.serverDelay;
    if (this.model === 'serial') {
      ready = Math.max(now, this.freeAt) + x.serverDelay;
      this.freeAt = ready;
    }
    this.q.schedule(ready, EV_RESPONSE_READY, x);
  }

  /** A response finished processing: write it, and any FIFO successors it was holding back, to the socket. */
  responseReady(x: Exchange, now: number): void {
    x.tReady = now;
    if (x.pace) {
      x.avail = x.pace.upTo[0]!;
      for (let k = 1; k < x.pace.after.length; k++) this.q.schedule(now + x.pace.after[k]!, EV_RESPONSE_MORE, x, k);
    }
    if (this.model === 'out-of-order') {
      this.buffer.push(x);
      return;
    }
    this.release();
  }

  /** A paced response's server produced step k of its body: it goes back to the socket. */
  moreProduced(x: Exchange, k: number): void {
    x.avail = x.pace!.upTo[k]!;
    if (x.sent < x.avail && (this.model === 'out-of-order' || this.fifo.indexOf(x) < this.head)) this.buffer.push(x);
    if (this.held === x && x.avail >= x.bytes) {
      this.held = null;
      this.release();
    }
  }

  /** Writes the ready responses at the head of the FIFO to the socket. */
  private release(): void {
    while (this.held === null && this.head < this.fifo.length && !Number.isNaN(this.fifo[this.head]!.tReady)) {
      const x = this.fifo[this.head++]!;
      this.buffer.push(x);
      if ((x.avail ?? x.bytes) < x.bytes) this.held = x;
    }
  }
}
