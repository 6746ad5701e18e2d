/**
 * QUIC's probe timeout (RFC 9002 §6.2): instead of TCP's RTO (200 ms floor, window collapse), a QUIC sender
 * whose ack-eliciting packets go unacknowledged for PTO = SRTT + max(4 RTTVAR, kGranularity) + max_ack_delay
 * sends a probe (new data, else data again) and doubles the period (pto_count); the window is left alone
 * unless losses then declared span persistent congestion (§7.6: three PTO periods, kPersistentCongestionThreshold),
 * when it drops to the minimum of two packets.
 */

/** RFC 9002's kGranularity, ms. */
export const K_GRANULARITY_MS = 1;
/** RFC 9002's kPersistentCongestionThreshold: periods of PTO without an acknowledgment. */
export const PERSISTENT_CONGESTION_PTOS = 3;
/** RFC 9002's kMinimumWindow, packets. */
export const MINIMUM_WINDOW = 2;

/** The probe timeout after `ptoCount` consecutive expirations, ms. */
export function probeTimeout(srtt: number, rttvar: number, maxAckDelay: number, ptoCount: number): number {
  return (srtt + Math.max(4 * rttvar, K_GRANULARITY_MS) + maxAckDelay) * 2 ** ptoCount;
}

/**
 * Whether losses declared after `ptoCount` consecutive expirations span persistent congestion: the PTOs that
 * expired cover 1 + 2 + ... periods, at least three from two expirations on (RFC 9002 §7.6, approximated by the
 * time since the last acknowledgment rather than by the lost packets' send times).
 */
export function persistentCongestion(ptoCount: number): boolean {
  return 2 ** ptoCount - 1 >= PERSISTENT_CONGESTION_PTOS;
}
