/**
 * Subflow set-up on the second path (thesis §6.3.4, Figure 6.14; RFC 8684 §3.2), as real handshakes on the
 * paths' links rather than a fixed delay:
 *
 * - the client may send the join only once a DSS option came back on the first subflow, i.e. once its first
 *   data (the request riding the handshake's last ACK, or TLS's first flight) was ACKed: one RTT_1 after the
 *   first subflow's SYN exchange ended, however long that took (a lost SYN or TLS flight delays it);
 * - the join's SYN and SYN/ACK (MP_JOIN) are lost and resent as the first subflow's (TcpConnection's
 *   handshakeTime: 1 s, 2 s, 4 s ... backoff);
 * - the subflow carries data once the server has the third ACK (MP_JOIN with the HMAC), which the server
 *   must acknowledge: while the uplink loses it, it is resent after the client's RTO, doubling (as a request:
 *   TcpConnection's requestTrip).
 *
 * Lossless: 2 RTT_1 + RTT_2 + the second path's client->server delay after the first SYN.
 */
import { ACK_WIRE_BYTES, type TcpConnection } from '../network/tcp.ts';

/**
 * When (ms after the first SYN) the client may send the join: the first subflow's handshake took
 * `handshake` ms including `tlsRtts` TLS round trips of `rtt1`; its first data flight was ACKed one RTT_1
 * after the SYN exchange. (A lost later TLS flight, past the first, delays the join too: the time is not
 * split by flight. A lost request, without TLS, does not: its retries are drawn later, as it is sent.)
 */
export function joinStart(handshake: number, tlsRtts: number, rtt1: number): number {
  return handshake + rtt1 * (1 - Math.min(tlsRtts, 1)) - rtt1 * Math.max(tlsRtts - 1, 0);
}

/** How long, from `start` (the join's SYN leaves), until the server has the join's third ACK: the subflow may carry data. */
export function joinDuration(subflow: TcpConnection, start: number): number {
  const syn = subflow.handshakeTime(0, start);
  return syn + subflow.requestTrip(start + syn, ACK_WIRE_BYTES);
}
