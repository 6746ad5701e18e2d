/**
 * What each connection's set-up cost at the replay server: a TLS connection's handshake, from the TCP
 * accept to the secure connection (the TCP handshake itself is the kernel's, before the accept: 0.2 ms on
 * loopback, not seen here), handed once, to the first request of the connection. Connections are told
 * apart by their peer's address and port (unique while open). A plain http connection costs nothing here.
 */
import type { Socket } from 'node:net';

const keyOf = (s: Pick<Socket, 'remoteAddress' | 'remotePort'>): string => `${s.remoteAddress ?? ''}:${s.remotePort ?? ''}`;

export class ConnectionSetups {
  private readonly acceptedAt = new Map<string, number>();
  private readonly setupMs = new Map<string, number>();

  constructor(private readonly now: () => number = () => performance.now()) {}

  /** A TCP connection accepted (the server's 'connection' event). */
  accepted(sock: Pick<Socket, 'remoteAddress' | 'remotePort'>): void {
    this.acceptedAt.set(keyOf(sock), this.now());
  }

  /** Its TLS handshake done (the server's 'secureConnection' event). */
  secured(sock: Pick<Socket, 'remoteAddress' | 'remotePort'>): void {
    const k = keyOf(sock);
    const at = this.acceptedAt.get(k);
    if (at !== undefined) this.setupMs.set(k, Math.max(0, this.now() - at));
  }

  /** The connection closed: nothing of it is kept. */
  closed(sock: Pick<Socket, 'remoteAddress' | 'remotePort'>): void {
    this.acceptedAt.delete(keyOf(sock));
    this.setupMs.delete(keyOf(sock));
  }

  /** The set-up (ms) of the connection a request came on: its first request gets it, later ones 0. */
  take(sock: Pick<Socket, 'remoteAddress' | 'remotePort'>): number {
    const k = keyOf(sock);
    const ms = this.setupMs.get(k) ?? 0;
    this.setupMs.delete(k);
    return ms;
  }
}
