/**
 * The browser's DNS cache (§3.7.2): the first request to a host pays `dnsRtts` round trips to the resolver
 * (at the base RTT: the resolver is not the origin); requests arriving meanwhile wait for the same lookup;
 * later ones hit the cache. With dnsRtts = 0 (the thesis' setting) every lookup is a hit.
 */
import type { EventQueue } from '../event-queue.ts';
import { EV_DNS_DONE } from '../events.ts';

export interface DnsEntry {
  host: string;
  resolved: boolean;
  /** Lookup interval, ms (NaN when no lookup was made). */
  start: number;
  end: number;
}

export class DnsCache {
  private entries = new Map<string, DnsEntry>();

  constructor(
    private readonly q: EventQueue,
    private readonly lookupMs: number,
  ) {}

  /**
   * The host's entry; starts a lookup (an EV_DNS_DONE event carrying `token`) when there is none.
   * Returns true when the name is already resolved.
   */
  resolve(host: string, now: number, token: unknown): boolean {
    let e = this.entries.get(host);
    if (!e) {
      e = { host, resolved: this.lookupMs <= 0, start: NaN, end: NaN };
      this.entries.set(host, e);
      if (!e.resolved) {
        e.start = now;
        this.q.schedule(now + this.lookupMs, EV_DNS_DONE, token);
      }
    }
    return e.resolved;
  }

  /** The lookup for host finished. */
  done(host: string, now: number): void {
    const e = this.entries.get(host);
    if (e) {
      e.resolved = true;
      e.end = now;
    }
  }

  entry(host: string): DnsEntry | undefined {
    return this.entries.get(host);
  }
}
