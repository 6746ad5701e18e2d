/**
 * Goel's "loss" is the share of a 70 ms slice's segments the server retransmitted (§V), and its bridge used
 * those shares as netem's loss (§VI-C). Read that way, a profile's loss is right when the emulator's own
 * retransmitted share per slice matches the paper's figure for the profile: the mean of its Fig. 8
 * distribution (testbed.ts). `calibrate` scales every loss slice's probability by each of LOSS_SCALES, runs a
 * fixed workload (the 2 MB page, h1 and h2, seeds 1..CALIBRATION_SEEDS) counting Goel's slices, and keeps
 * the scale whose mean share is closest. The share is not monotone in the scale (more loss slices also mean
 * more fast retransmits among new data), hence a grid rather than a bisection. The share moves little with the
 * scale (1-5 points across the grid in most profiles) and much with the seeds (three disjoint 5-seed batches of
 * one point differ by up to 12 points; emulator/README.md, session 17): scales whose shares lie within
 * CALIBRATION_TOLERANCE of the closest are not told apart, and of those the one nearest the paper's own rates
 * (×1, as Goel's bridge applied them) is kept, so that a pick does not flip on a point of seed noise.
 */
import { checkedSimulate as simulate, retransmissionShares, type ConnectionSlices, type EmulatorConfig, type RetransmissionShares } from '../../src/index.ts';
import { buildPage, PAGE_FAMILIES } from './pages.ts';
import { goelConfig, testbedProfile } from './profiles.ts';
import { quantileMean, SLICE_MS, type BridgeOptions, type TestbedProfile } from './testbed.ts';

export const LOSS_SCALES: readonly number[] = [0, 0.1, 0.25, 0.5, 1, 2];
export const CALIBRATION_SEEDS = 15;
/** Shares this close (fraction) to the closest point's distance from the target are within the seeds' noise. */
export const CALIBRATION_TOLERANCE = 0.03;
const CALIBRATION_PAGE = 'mixed-3';

export interface CalibrationPoint {
  scale: number;
  shares: RetransmissionShares;
}

export interface Calibration {
  profile: TestbedProfile['name'];
  /** The paper's figure: mean retransmitted share of a loss slice (fraction). */
  target: number;
  points: CalibrationPoint[];
  /** The chosen point. */
  chosen: CalibrationPoint;
}

/** How far a scale lies from the paper's own rates (×1), by ratio; scale 0 (no loss slices) is farthest. */
export function distanceFromPaper(scale: number): number {
  return scale > 0 ? Math.abs(Math.log(scale)) : Infinity;
}

/**
 * The point whose mean per-slice share is closest to the target, where points within `tolerance` of the closest
 * one's distance count as equally close: of those, the scale nearest ×1 (the smaller on a tie).
 */
export function closestPoint(points: readonly CalibrationPoint[], target: number, tolerance = CALIBRATION_TOLERANCE): CalibrationPoint {
  const miss = (p: CalibrationPoint): number => Math.abs(p.shares.meanClusterShare - target);
  const least = Math.min(...points.map(miss));
  let best: CalibrationPoint | undefined;
  for (const p of points) {
    if (miss(p) > least + tolerance + 1e-12) continue;
    if (!best || distanceFromPaper(p.scale) < distanceFromPaper(best.scale) || (distanceFromPaper(p.scale) === distanceFromPaper(best.scale) && p.scale < best.scale)) best = p;
  }
  return best!;
}

/** Goel's per-slice shares of the calibration workload at one loss scale. */
export function sharesAt(p: TestbedProfile, scale: number, seeds = CALIBRATION_SEEDS, bridge: BridgeOptions = {}, hosts: Partial<EmulatorConfig> = {}): RetransmissionShares {
  const graph = buildPage(PAGE_FAMILIES.find((f) => f.name === CALIBRATION_PAGE)!);
  const profile = testbedProfile(p, { ...bridge, lossScale: scale });
  const slices: ConnectionSlices[] = [];
  for (const protocol of ['h1', 'h2'] as const) {
    for (let seed = 1; seed <= seeds; seed++) {
      const r = simulate(graph, goelConfig(profile, protocol, seed, { ...hosts, retransmissionSliceMs: SLICE_MS }));
      slices.push(...r.retransmissionSlices!);
    }
  }
  return retransmissionShares(slices);
}

export function calibrate(p: TestbedProfile, bridge: BridgeOptions = {}, hosts: Partial<EmulatorConfig> = {}): Calibration {
  const target = quantileMean(p.lossPct) / 100;
  const points = LOSS_SCALES.map((scale) => ({ scale, shares: sharesAt(p, scale, CALIBRATION_SEEDS, bridge, hosts) }));
  return { profile: p.name, target, points, chosen: closestPoint(points, target) };
}
