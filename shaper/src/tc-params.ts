/**
 * The qdisc parameters of a shaped link, as pure functions of the link's spec.
 *
 * Rate: a token bucket (tbf) on each side's egress. The bucket (burst) holds max(2 MTU-sized packets,
 * 1 ms at the rate): tbf needs at least one MTU, two let a data packet and an ACK pass together, and
 * 1 ms keeps the kernel's timer from becoming the limit at 100 Mbit/s. The queue (limit) holds
 * max(1 bandwidth-delay product, 32 full packets): a single TCP flow then keeps the link busy after a
 * loss (a droptail buffer of one BDP is the classic rule), and the floor covers low-BDP links with
 * several connections. Both are in bytes of IP packets (a TUN device carries no link-layer header).
 */
export const MTU = 1500;

export interface TbfParams {
  rateBps: number;
  burstBytes: number;
  limitBytes: number;
}

export function tbfParams(bandwidthBps: number, rttMs: number): TbfParams {
  const bytesPerSec = bandwidthBps / 8;
  const burstBytes = Math.max(2 * MTU, Math.ceil(bytesPerSec * 0.001));
  const bdp = Math.ceil(bytesPerSec * (rttMs / 1000));
  const limitBytes = Math.max(bdp, 32 * MTU);
  return { rateBps: Math.round(bandwidthBps), burstBytes, limitBytes };
}

/** `tc qdisc add dev DEV root ...` arguments for the rate alone (delay-line backend). */
export function tbfArgs(dev: string, p: TbfParams): string[] {
  return ['qdisc', 'add', 'dev', dev, 'root', 'handle', '1:', 'tbf', 'rate', `${p.rateBps}bit`, 'burst', String(p.burstBytes), 'limit', String(p.limitBytes)];
}

/**
 * netem under the tbf (the netem documentation's rate-control layout): netem delays and drops, tbf
 * paces what netem releases. netem's queue (in packets) must hold everything in flight during the
 * delay plus the tbf backlog, counted in small packets (ACKs): 1000 more than that.
 */
export function netemArgs(dev: string, p: TbfParams, oneWayMs: number, lossRate: number): string[] {
  const inFlight = Math.ceil(((p.rateBps / 8) * (oneWayMs / 1000) + p.limitBytes) / 64);
  const args = ['qdisc', 'add', 'dev', dev, 'parent', '1:1', 'handle', '10:', 'netem', 'delay', `${Math.round(oneWayMs * 1000)}us`, 'limit', String(1000 + inFlight)];
  if (lossRate > 0) args.push('loss', `${lossRate * 100}%`);
  return args;
}

/** Half the RTT each way, in microseconds (what the delay line takes). */
export function oneWayDelayUs(rttMs: number): number {
  return Math.round((rttMs / 2) * 1000);
}
