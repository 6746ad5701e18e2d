/**
 * A link spec from command-line words (`--bandwidth 10mbit --rtt 40ms --loss 1%`), for every command
 * that takes a shaped link. Rates and times use the emulator's tc-unit parsers.
 */
import { parseRate, parseTime } from '@pcp/emulator/config';
import { parseLoss as parseLossRate } from '@pcp/emulator';
import { ShaperError } from './errors.ts';
import type { LinkSpec } from './link.ts';

/** `1%`, `0.5%` or a fraction `0.01`; 0 ≤ loss < 1 (the emulator's parser, so both read --loss alike). */
export function parseLoss(s: string): number {
  try {
    return parseLossRate(s);
  } catch (e) {
    throw new ShaperError((e as Error).message);
  }
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
