/**
 * A server's pacing of one response body, from the pieces the browser recorded (graph `arrivals`).
 *
 * A recorded gap between two pieces is the network's or the server's. While a response flows, the network
 * alone holds the next piece back by at most one round trip of the recording (TCP waiting for ACKs to open
 * its window; loss aside), plus the piece's own serialisation, which on the recording's link is already in
 * that round trip's measure at loopback and negligible at the rates pages are recorded at. So a gap counts as
 * the server's by what it exceeds the recorded round trip (`networkBound`): at loopback (0.1 ms) every
 * trickle is the server's; on a 100 ms recording, slow-start rounds are not. Pieces whose gap the network
 * explains join the step before them.
 *
 * The result is the server's schedule: `after[k]` ms after the response is ready, it has produced `upTo[k]`
 * bytes of the body (cumulative; the last step is the whole body). Null when the server did not pace.
 */
import type { BodyArrival } from '@pcp/graph-builder';

export interface ServerPace {
  after: number[];
  upTo: number[];
}

export function serverPacing(arrivals: readonly BodyArrival[] | undefined, networkBound: number, bodyBytes: number): ServerPace | null {
  if (!arrivals || arrivals.length < 2) return null;
  const bound = Math.max(0, networkBound);
  const after = [0];
  const upTo = [0];
  let total = 0;
  for (let k = 0; k < arrivals.length; k++) {
    const a = arrivals[k]!;
    const share = k === 0 ? 0 : Math.max(0, a.at - arrivals[k - 1]!.at - bound);
    if (share > 0) {
      after.push(after[after.length - 1]! + share);
      upTo.push(total);
    }
    total += Math.max(0, a.bytes);
    upTo[upTo.length - 1] = total;
  }
  if (after.length < 2) return null;
  // The body the emulator sends may differ from the pieces' sum (a size from elsewhere): scale to it.
  const scale = total > 0 ? bodyBytes / total : 1;
  return { after, upTo: upTo.map((b, k) => (k === upTo.length - 1 ? bodyBytes : Math.min(bodyBytes, Math.round(b * scale)))) };
}

/** The recorded round trip of an exchange: from its request on the socket to its first byte, less the server's time. */
export function recordedRoundTrip(requestOnSocket: number | undefined, firstByte: number | undefined, serverDelay: number | undefined): number {
  if (requestOnSocket === undefined || firstByte === undefined || !Number.isFinite(requestOnSocket) || !Number.isFinite(firstByte)) return 0;
  return Math.max(0, firstByte - requestOnSocket - (serverDelay ?? 0));
}

/** One exchange's recorded times, as `recordedRoundTrip` takes them. */
export interface RecordedExchange {
  host: string;
  requestOnSocket: number | undefined;
  firstByte: number | undefined;
  serverDelay: number | undefined;
}

/**
 * The recording's network round trip to each host: the least round trip any of its exchanges took. An
 * exchange's own round trip also holds what delayed it on the recording host (a new connection's TCP and
 * TLS handshakes, a starved browser): r03-parse-chunks' document took 117 ms from its navigation's request
 * to its first byte less its 1.7 ms server delay, over a loopback path its images crossed in 3 ms. A bound
 * of 117 ms would pass its 150 ms trickle off as network. Exchanges without both times are left out.
 */
export function hostRoundTrips(exchanges: Iterable<RecordedExchange>): Map<string, number> {
  const out = new Map<string, number>();
  for (const x of exchanges) {
    const known = (v: number | undefined): v is number => v !== undefined && Number.isFinite(v);
    if (!known(x.requestOnSocket) || !known(x.firstByte)) continue;
    const rtt = recordedRoundTrip(x.requestOnSocket, x.firstByte, x.serverDelay);
    out.set(x.host, Math.min(out.get(x.host) ?? Infinity, rtt));
  }
  return out;
}
