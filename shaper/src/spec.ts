/**
 * A link spec from command-line words (`--bandwidth 10mbit --rtt 40ms --loss 1%`), for every command
 * that takes a shaped link. Rates and times use the emulator's tc-unit parsers.
 */
import { parseRate, parseTime } from '@pcp/emulator/config';
import { ShaperError } from './errors.ts';
import type { LinkSpec } from './link.ts';

/** `1%`, `0.5%` or a fraction `0.01`; 0 ≤ loss < 1. */
export function parseLoss(s: string): number {
  const m = /^\s*([0-9]*\.?[0-9]+)\s*(%?)\s*$/.exec(s);
  const v = m ? Number(m[1]) / (m[2] ? 100 : 1) : NaN;
  if (!(v >= 0 && v < 1)) throw new ShaperError(`not a loss rate: '${s}' (use a percentage like 1% or a fraction like 0.01, below 100%)`);
  return v;
}

export function parseLinkSpec(o: { bandwidth?: string; rtt?: string; loss?: string; seed?: string }): LinkSpec {
  if (o.bandwidth === undefined) throw new ShaperError('--bandwidth is required (e.g. 10mbit)');
  if (o.rtt === undefined) throw new ShaperError('--rtt is required (e.g. 40ms)');
  let bandwidthBps: number;
  let rttMs: number;
  try {
    bandwidthBps = parseRate(o.bandwidth);
    rttMs = parseTime(o.rtt);
  } catch (e) {
    throw new ShaperError((e as Error).message);
  }
  const spec: LinkSpec = { bandwidthBps, rttMs };
  if (o.loss !== undefined) spec.lossRate = parseLoss(o.loss);
  if (o.seed !== undefined) {
    const seed = Number(o.seed);
    if (!Number.isSafeInteger(seed) || seed < 0) throw new ShaperError(`--seed expects a non-negative integer, got '${o.seed}'`);
    spec.seed = seed;
  }
  return spec;
}
