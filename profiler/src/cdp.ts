/**
 * A minimal DevTools Protocol client over Chromium's --remote-debugging-pipe (fd 3 in, fd 4 out,
 * NUL-separated JSON). The pipe keeps the protocol traffic off the loopback interface, so a pcap of
 * `lo` holds only the page's own traffic, and it needs no WebSocket library.
 * Sessions are flat (Target.attachToTarget / setAutoAttach with flatten: true): every message names
 * its sessionId, and the browser session has none.
 */
import { EventEmitter } from 'node:events';
import type { Readable, Writable } from 'node:stream';

export interface CdpEvent {
  method: string;
  params: Record<string, unknown>;
  sessionId?: string;
}

interface Pending {
  resolve(v: Record<string, unknown>): void;
  reject(e: Error): void;
  method: string;
}

export class CdpError extends Error {
  constructor(readonly method: string, message: string, readonly code?: number) {
    super(`${method}: ${message}`);
  }
}

/** Emits 'event' (CdpEvent) for every protocol event and 'close' when the pipe ends. */
export class CdpConnection extends EventEmitter {
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private buffer = '';
  closed = false;

  constructor(private readonly out: Writable, input: Readable) {
    super();
    input.setEncoding('utf8');
    input.on('data', (chunk: string) => this.onData(chunk));
    input.on('close', () => this.onClose());
    input.on('error', () => this.onClose());
    out.on('error', () => this.onClose());
  }

  private onData(chunk: string): void {
    this.buffer += chunk;
    let end: number;
    while ((end = this.buffer.indexOf('\0')) >= 0) {
      const text = this.buffer.slice(0, end);
      this.buffer = this.buffer.slice(end + 1);
      let msg: { id?: number; method?: string; params?: Record<string, unknown>; result?: Record<string, unknown>; error?: { message: string; code?: number }; sessionId?: string };
      try {
        msg = JSON.parse(text) as typeof msg;
      } catch {
        continue;
      }
      if (msg.id !== undefined) {
        const p = this.pending.get(msg.id);
        if (!p) continue;
        this.pending.delete(msg.id);
        if (msg.error) p.reject(new CdpError(p.method, msg.error.message, msg.error.code));
        else p.resolve(msg.result ?? {});
      } else if (msg.method) {
        const ev: CdpEvent = { method: msg.method, params: msg.params ?? {} };
        if (msg.sessionId) ev.sessionId = msg.sessionId;
        this.emit('event', ev);
      }
    }
  }

  private onClose(): void {
    if (this.closed) return;
    this.closed = true;
    for (const p of this.pending.values()) p.reject(new CdpError(p.method, 'browser connection closed'));
    this.pending.clear();
    this.emit('close');
  }

  send<T = Record<string, unknown>>(method: string, params: Record<string, unknown> = {}, sessionId?: string): Promise<T> {
    if (this.closed) return Promise.reject(new CdpError(method, 'browser connection closed'));
    const id = this.nextId++;
    const msg: Record<string, unknown> = { id, method, params };
    if (sessionId) msg.sessionId = sessionId;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (v: Record<string, unknown>) => void, reject, method });
      this.out.write(JSON.stringify(msg) + '\0');
    });
  }
}
