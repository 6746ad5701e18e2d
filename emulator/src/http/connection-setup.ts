/**
 * What opening a connection cost the recording host beyond the network's round trips. A new connection
 * is a TCP handshake (one round trip) and, over TLS 1.3, one more; on loopback those are ~0.1 ms, yet
 * Chromium's recorded `connectStart` to `connectEnd` takes 6-25 ms (median 13 ms on a calm 2-core host):
 * the key exchange, the server's certificate and its verification (CertVerifier), the socket pool's
 * connect job — work of the two ends, not of the link. The emulator models the round trips; this is the
 * rest, replayed as a fixed time beside them on every connection it opens (graph `browserDelay.connect`).
 * Pure.
 */
import { median } from '../stats.ts';

/** One recorded connection set-up: the request that opened it, its host, and its round trip on the recording's path. */
export interface RecordedSetup {
  host: string;
  /** The handshakes as recorded (`browserDelay.connect`), ms. */
  connect: number;
  /** TLS: one round trip more than TCP's (TLS 1.3, which Chromium and the servers here negotiate). */
  tls: boolean;
  /** The recording's network round trip to the host, ms (http/server-pacing.ts `hostRoundTrips`). */
  roundTrip: number;
}

/** The part of one set-up that was not the network's: its recorded time less its round trips. */
export function setupWork(s: RecordedSetup): number {
  return Math.max(0, s.connect - (s.tls ? 2 : 1) * Math.max(0, s.roundTrip));
}

export interface SetupCosts {
  /** Per host, the median of its recorded set-ups' work, ms. */
  byHost: Map<string, number>;
  /** The median over every recorded set-up, for a host the recording opened no connection to; 0 with none. */
  otherwise: number;
}

export function setupCosts(setups: Iterable<RecordedSetup>): SetupCosts {
  const per = new Map<string, number[]>();
  const all: number[] = [];
  for (const s of setups) {
    if (!Number.isFinite(s.connect) || s.connect <= 0) continue;
    const w = setupWork(s);
    all.push(w);
    (per.get(s.host) ?? per.set(s.host, []).get(s.host)!).push(w);
  }
  return { byHost: new Map([...per].map(([h, ws]) => [h, median(ws)])), otherwise: all.length ? median(all) : 0 };
}
