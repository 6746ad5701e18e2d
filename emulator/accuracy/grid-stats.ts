/**
 * The shaped-grid comparison's arithmetic (pure): network conditions as words, one row per page and
 * condition (the real loads' median and spread beside the emulator's and Lantern's predictions, all in
 * ms from navigation start), and per condition and overall the p50/p90 of |predicted - real| / real.
 */
import { median, quantile } from '../src/stats.ts';
import { parseRate, parseTime } from '../src/config.ts';
import { parseLoss } from '../src/network/loss-model.ts';

export interface Condition {
  /** As written: `5mbit/40ms/h2`, `5mbit/40ms/h1/1%`. */
  name: string;
  bandwidthBps: number;
  rttMs: number;
  lossRate: number;
  protocol: 'h1' | 'h2';
}

/** Issue 12's grid: four links × HTTP/1.1 and HTTP/2, and one lossy link. */
export const DEFAULT_GRID: readonly string[] = [
  ...['1.6mbit/150ms', '5mbit/40ms', '10mbit/80ms', '50mbit/20ms'].flatMap((l) => [`${l}/h1`, `${l}/h2`]),
  '5mbit/40ms/h1/1%',
];

/** `RATE/RTT/PROTOCOL[/LOSS]` in tc units; throws a one-line Error on anything else. */
export function parseCondition(s: string): Condition {
  const parts = s.split('/');
  const [bw, rtt, protocol, loss] = parts;
  if (parts.length < 3 || parts.length > 4 || !bw || !rtt) throw new Error(`condition '${s}': expected RATE/RTT/h1|h2[/LOSS], e.g. 5mbit/40ms/h2 or 5mbit/40ms/h1/1%`);
  if (protocol !== 'h1' && protocol !== 'h2') throw new Error(`condition '${s}': protocol must be h1 or h2, got '${protocol}'`);
  try {
    return { name: s, bandwidthBps: parseRate(bw), rttMs: parseTime(rtt), lossRate: loss === undefined ? 0 : parseLoss(loss), protocol };
  } catch (e) {
    throw new Error(`condition '${s}': ${(e as Error).message}`);
  }
}

/** Load and DOMContentLoaded, ms from navigation start. */
export interface Times {
  load: number;
  dcl: number;
}

export const TOOLS = ['emulator', 'lantern', 'lanternNoDns'] as const;
export type Tool = (typeof TOOLS)[number];

export interface GridRow {
  page: string;
  condition: string;
  /** The real loads' medians, and the spread of their load times. */
  real: Times & { runs: number; loadMin: number; loadMax: number; misses: number };
  predicted: Record<Tool, Times>;
}

export function gridRow(page: string, condition: string, runs: readonly Times[], misses: number, predicted: Record<Tool, Times>): GridRow {
  if (runs.length === 0) throw new Error(`${page} at ${condition}: no real loads`);
  const loads = runs.map((r) => r.load);
  return {
    page,
    condition,
    real: { load: median(loads), dcl: median(runs.map((r) => r.dcl)), runs: runs.length, loadMin: Math.min(...loads), loadMax: Math.max(...loads), misses },
    predicted,
  };
}

/** (predicted - real) / real. */
export function relError(predicted: number, real: number): number {
  return (predicted - real) / real;
}

export interface ErrorStats {
  p50: number;
  p90: number;
}

export interface GroupSummary {
  /** A condition's name, or 'overall' (the lossless conditions). */
  group: string;
  /** A lossy condition: reported apart, never in 'overall'. */
  lossy: boolean;
  rows: number;
  /** p50/p90 of |error| per tool and metric. */
  errors: Record<Tool, { load: ErrorStats; dcl: ErrorStats }>;
  /** Run-to-run spread of the real loads: the largest (max - min) / median over the group's rows. */
  spread: number;
}

function errorStats(xs: number[]): ErrorStats {
  const a = xs.map(Math.abs);
  return { p50: median(a), p90: quantile(a, 0.9) };
}

export function summarizeGroup(group: string, rows: readonly GridRow[], lossy = false): GroupSummary {
  const errors = Object.fromEntries(
    TOOLS.map((t) => [t, {
      load: errorStats(rows.map((r) => relError(r.predicted[t].load, r.real.load))),
      dcl: errorStats(rows.map((r) => relError(r.predicted[t].dcl, r.real.dcl))),
    }]),
  ) as GroupSummary['errors'];
  return { group, lossy, rows: rows.length, errors, spread: Math.max(...rows.map((r) => (r.real.loadMax - r.real.loadMin) / r.real.load)) };
}

/** A condition name with a loss rate above 0. */
export function isLossy(condition: string): boolean {
  return parseCondition(condition).lossRate > 0;
}

/**
 * One summary per lossless condition (in the order first seen), 'overall' over those, then each lossy
 * condition apart: the emulator has no loss model yet, so a lossy row measures the lossless prediction
 * against a lossy link and must not be averaged in.
 */
export function summarizeGrid(rows: readonly GridRow[]): GroupSummary[] {
  const conditions = [...new Set(rows.map((r) => r.condition))];
  const clean = conditions.filter((c) => !isLossy(c));
  const lossless = rows.filter((r) => !isLossy(r.condition));
  return [
    ...clean.map((c) => summarizeGroup(c, rows.filter((r) => r.condition === c))),
    ...(lossless.length ? [summarizeGroup('overall', lossless)] : []),
    ...conditions.filter(isLossy).map((c) => summarizeGroup(c, rows.filter((r) => r.condition === c), true)),
  ];
}

export const CSV_HEADER = [
  'page', 'condition', 'runs', 'misses', 'real_load_ms', 'real_load_min_ms', 'real_load_max_ms', 'real_dcl_ms',
  ...TOOLS.flatMap((t) => [`${t}_load_ms`, `${t}_load_error`, `${t}_dcl_ms`, `${t}_dcl_error`]),
].join(',');

export function csvRow(r: GridRow): string {
  const f = (v: number): string => v.toFixed(1);
  const e = (v: number): string => v.toFixed(4);
  const q = (s: string): string => (/[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s);
  return [
    q(r.page), q(r.condition), r.real.runs, r.real.misses, f(r.real.load), f(r.real.loadMin), f(r.real.loadMax), f(r.real.dcl),
    ...TOOLS.flatMap((t) => [f(r.predicted[t].load), e(relError(r.predicted[t].load, r.real.load)), f(r.predicted[t].dcl), e(relError(r.predicted[t].dcl, r.real.dcl))]),
  ].join(',');
}
