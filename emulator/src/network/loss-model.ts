/**
 * Random packet loss on a link, one model per direction (issue 17): none, Bernoulli (every packet lost with
 * probability p, as netem's `loss random`), or Gilbert–Elliott (a two-state Markov chain per packet, as
 * netem's `loss gemodel p r 1-h 1-k`: in the Good state packets are lost with LOSS_G, in the Bad state with
 * LOSS_B; before each packet the chain moves Good->Bad with P_GB and Bad->Good with P_BG). Bursty cellular
 * loss (Goel 2017 §V: clusters of retransmissions, up to 40% of a 70 ms slice) is the Bad state.
 * Every draw comes from the model's own seeded Rng substream, so runs are reproducible.
 */
import { ConfigError } from '../config.ts';
import type { Rng } from '../rng.ts';

export interface LossModel {
  /** Draws whether the next packet offered to the link is lost; `t`, when known, is when it enters the link (time-driven models). */
  lost(t?: number): boolean;
}

/** Gilbert–Elliott parameters: per-packet transition probabilities and per-state loss rates, all in [0, 1]. */
export interface GilbertParams {
  pGB: number;
  pBG: number;
  lossG: number;
  lossB: number;
}

/** A loss model as configured: `lossRate` alone is Bernoulli; `gilbert` takes precedence. */
export type LossSpec = { kind: 'bernoulli'; p: number } | ({ kind: 'gilbert' } & GilbertParams) | { kind: 'list'; packets: readonly number[] };

export class BernoulliLoss implements LossModel {
  constructor(private readonly p: number, private readonly rng: Rng) {}
  lost(): boolean {
    return this.rng.next() < this.p;
  }
}

/**
 * Loses exactly the listed packets, counted from 1 in the order they meet the model (ns-3's
 * ReceiveListErrorModel): for hand-derived timelines and for targeted what-ifs ("lose the SYN/ACK").
 */
export class ListLoss implements LossModel {
  private n = 0;
  private readonly drop: Set<number>;
  constructor(packets: readonly number[]) {
    this.drop = new Set(packets);
  }
  lost(): boolean {
    return this.drop.has(++this.n);
  }
}

export class GilbertElliottLoss implements LossModel {
  /** The chain starts in Good. */
  bad = false;
  constructor(private readonly g: GilbertParams, private readonly rng: Rng) {}
  lost(): boolean {
    const move = this.rng.next();
    if (this.bad ? move < this.g.pBG : move < this.g.pGB) this.bad = !this.bad;
    return this.rng.next() < (this.bad ? this.g.lossB : this.g.lossG);
  }
}

/** The long-run loss rate of a Gilbert–Elliott chain: the stationary share of Bad times LOSS_B, plus Good's. */
export function gilbertMeanLoss(g: GilbertParams): number {
  const sum = g.pGB + g.pBG;
  const piB = sum > 0 ? g.pGB / sum : 0;
  return piB * g.lossB + (1 - piB) * g.lossG;
}

export function makeLossModel(spec: LossSpec | undefined, rng: Rng): LossModel | undefined {
  if (!spec) return undefined;
  if (spec.kind === 'bernoulli') return spec.p > 0 ? new BernoulliLoss(spec.p, rng) : undefined;
  if (spec.kind === 'list') return new ListLoss(spec.packets);
  return gilbertMeanLoss(spec) > 0 ? new GilbertElliottLoss(spec, rng) : undefined;
}

/** `1%`, `0.5%` or a fraction `0.01`; 0 <= loss < 1. */
export function parseLoss(s: string): number {
  const m = /^\s*([0-9]*\.?[0-9]+(?:e-?\d+)?)\s*(%?)\s*$/i.exec(s);
  const v = m ? Number(m[1]) / (m[2] ? 100 : 1) : NaN;
  if (!(v >= 0 && v < 1)) throw new ConfigError(`not a loss rate: '${s}' (use a percentage like 1% or a fraction like 0.01, below 100%)`);
  return v;
}

/**
 * `gilbert:P_GB,P_BG,LOSS_G,LOSS_B` (each a fraction or a percentage), `bernoulli:P`, or `list:N,N,...`
 * (lose exactly those packets, counted from 1).
 */
export function parseLossModel(s: string): LossSpec {
  const m = /^\s*(gilbert|bernoulli|list)\s*:(.*)$/i.exec(s);
  if (!m) throw new ConfigError(`not a loss model: '${s}' (use gilbert:P_GB,P_BG,LOSS_G,LOSS_B, bernoulli:P or list:N,N,...)`);
  const parts = m[2]!.split(',');
  if (m[1]!.toLowerCase() === 'list') {
    const packets = parts.map((p) => {
      const n = Number(p.trim());
      if (!Number.isInteger(n) || n < 1) throw new ConfigError(`loss model '${s}': '${p.trim()}' is not a packet number (1, 2, ...)`);
      return n;
    });
    return { kind: 'list', packets };
  }
  const nums = parts.map((p) => {
    const t = p.trim();
    const v = t.endsWith('%') ? Number(t.slice(0, -1)) / 100 : Number(t);
    if (t === '' || !(v >= 0 && v <= 1)) throw new ConfigError(`loss model '${s}': '${t}' is not a probability in [0, 1]`);
    return v;
  });
  if (m[1]!.toLowerCase() === 'bernoulli') {
    if (nums.length !== 1 || !(nums[0]! < 1)) throw new ConfigError(`loss model '${s}': bernoulli takes one probability below 1`);
    return { kind: 'bernoulli', p: nums[0]! };
  }
  if (nums.length !== 4) throw new ConfigError(`loss model '${s}': gilbert takes four numbers P_GB,P_BG,LOSS_G,LOSS_B, got ${nums.length}`);
  const [pGB, pBG, lossG, lossB] = nums as [number, number, number, number];
  if (!(gilbertMeanLoss({ pGB, pBG, lossG, lossB }) < 1)) throw new ConfigError(`loss model '${s}': every packet would be lost`);
  return { kind: 'gilbert', pGB, pBG, lossG, lossB };
}

/**
 * A Gilbert–Elliott chain from loss clusters described in time (Goel 2017 §V–VI: a 70 ms slice with up to
 * 40% of segments lost, clusters `gapMs` apart): per-packet transitions for a link carrying `packetsPerMs`
 * packets while busy — Bad lasts badMs (P_BG = 1 / packets in badMs), Good lasts gapMs (P_GB likewise).
 * The chain moves per packet, as netem's does, so the times hold while the link is busy.
 */
export function gilbertFromClusters(o: { packetsPerMs: number; badMs: number; gapMs: number; lossBad: number; lossGood?: number }): GilbertParams {
  const per = (ms: number): number => Math.min(1, 1 / Math.max(1, ms * o.packetsPerMs));
  return { pGB: per(o.gapMs), pBG: per(o.badMs), lossG: o.lossGood ?? 0, lossB: o.lossBad };
}

/** What a model does over n packets: its loss rate and mean run of consecutive losses (for checks). */
export function measureLoss(m: LossModel, n: number): { rate: number; meanRun: number } {
  let lost = 0;
  let runs = 0;
  let prev = false;
  for (let i = 0; i < n; i++) {
    const l = m.lost();
    if (l) {
      lost++;
      if (!prev) runs++;
    }
    prev = l;
  }
  return { rate: lost / n, meanRun: runs ? lost / runs : 0 };
}
