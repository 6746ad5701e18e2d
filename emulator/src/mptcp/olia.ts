/**
 * MPTCP's Opportunistic Linked Increases Algorithm (Khalili et al., "MPTCP is not Pareto-optimal", CoNEXT
 * 2012; draft-khalili-mptcp-congestion-control): in congestion avoidance an ACK on subflow r grows its window by
 *
 *   (w_r / rtt_r^2) / (sum_p w_p / rtt_p)^2 + alpha_r / w_r   segments,
 *
 * where l_r, the bytes sent between the subflow's last two losses (or since its last loss, if more), marks
 * the presumably best paths B (largest l_r / rtt_r^2) and M is the set with the largest window. When some best
 * paths are not in M, OLIA moves traffic to them: alpha_r = 1 / (n |B \ M|) for r in B \ M, -1 / (n |M|) for r
 * in M, 0 otherwise (n subflows); else every alpha_r is 0. Slow start and the halving on loss stay per
 * subflow, as with LIA. With one subflow the increase is 1/w: plain NewReno.
 */
import type { SubflowWindow } from './coupled-cc.ts';

export interface OliaSubflow extends SubflowWindow {
  /** l_r: bytes between the subflow's last two losses, or since the last one when that is more. */
  interLoss: number;
}

/** alpha_r of subflow i (OLIA's opportunistic term, before dividing by w_i). */
export function oliaAlpha(flows: readonly OliaSubflow[], i: number): number {
  let maxW = 0;
  let best = 0;
  for (const f of flows) {
    maxW = Math.max(maxW, f.cwnd);
    best = Math.max(best, f.interLoss / (f.rtt * f.rtt));
  }
  const isBest = (f: OliaSubflow): boolean => f.interLoss / (f.rtt * f.rtt) === best;
  let inM = 0;
  let bNotM = 0;
  for (const f of flows) {
    if (f.cwnd === maxW) inM++;
    else if (isBest(f)) bNotM++;
  }
  if (bNotM === 0) return 0;
  const me = flows[i]!;
  if (me.cwnd === maxW) return -1 / (flows.length * inM);
  return isBest(me) ? 1 / (flows.length * bNotM) : 0;
}

/** The OLIA increase of subflow i per ACKed segment, in segments (negative for a max-window path giving way). */
export function oliaIncrease(flows: readonly OliaSubflow[], i: number): number {
  let sum = 0;
  for (const f of flows) sum += f.cwnd / f.rtt;
  const me = flows[i]!;
  return me.cwnd / (me.rtt * me.rtt) / (sum * sum) + oliaAlpha(flows, i) / me.cwnd;
}

/**
 * l_r's bookkeeping: marks of a subflow's sent-byte count at its loss events; l_r is the distance between the
 * last two marks, or from the last mark to now when that is larger.
 */
export class InterLossDistance {
  private loss1 = 0;
  private loss2 = 0;

  /** The subflow, having sent `sent` bytes so far, entered loss recovery (or timed out). */
  lossEvent(sent: number): void {
    if (sent === this.loss2) return; // nothing new sent since the last mark (a repeated timeout)
    this.loss1 = this.loss2;
    this.loss2 = sent;
  }

  distance(sent: number): number {
    return Math.max(sent - this.loss2, this.loss2 - this.loss1);
  }
}
