/**
 * The identity test's arithmetic (pure): each load of a page recorded in Chromium and the same load's graph
 * emulated at the recording's own conditions, both on one clock (ms from navigation start); per page the
 * median of the recorded loads against the median of the emulations, and over pages the median and p90 of
 * the absolute relative errors.
 */
import { median, quantile } from '../src/stats.ts';

/** One recorded load of a page and its emulation; times in ms from navigation start. */
export interface IdentityRun {
  recordedLoad: number;
  recordedDcl: number;
  emulatedLoad: number;
  emulatedDcl: number;
}

export interface PageIdentity {
  page: string;
  runs: number;
  recordedLoad: number;
  recordedLoadMin: number;
  recordedLoadMax: number;
  emulatedLoad: number;
  /** (emulated - recorded) / recorded, medians of the runs. */
  loadError: number;
  recordedDcl: number;
  emulatedDcl: number;
  dclError: number;
}

export function pageIdentity(page: string, runs: readonly IdentityRun[]): PageIdentity {
  if (runs.length === 0) throw new Error(`${page}: no runs`);
  const rl = median(runs.map((r) => r.recordedLoad));
  const el = median(runs.map((r) => r.emulatedLoad));
  const rd = median(runs.map((r) => r.recordedDcl));
  const ed = median(runs.map((r) => r.emulatedDcl));
  return {
    page,
    runs: runs.length,
    recordedLoad: rl,
    recordedLoadMin: Math.min(...runs.map((r) => r.recordedLoad)),
    recordedLoadMax: Math.max(...runs.map((r) => r.recordedLoad)),
    emulatedLoad: el,
    loadError: (el - rl) / rl,
    recordedDcl: rd,
    emulatedDcl: ed,
    dclError: (ed - rd) / rd,
  };
}

export interface IdentitySummary {
  pages: number;
  loadMedian: number;
  loadP90: number;
  dclMedian: number;
  dclP90: number;
  /** Median signed load error: the emulator's bias. */
  loadBias: number;
}

export function summarize(pages: readonly PageIdentity[]): IdentitySummary {
  const load = pages.map((p) => Math.abs(p.loadError));
  const dcl = pages.map((p) => Math.abs(p.dclError));
  return {
    pages: pages.length,
    loadMedian: median(load),
    loadP90: quantile(load, 0.9),
    dclMedian: median(dcl),
    dclP90: quantile(dcl, 0.9),
    loadBias: median(pages.map((p) => p.loadError)),
  };
}

export const CSV_HEADER = 'page,runs,recorded_load_ms,recorded_load_min_ms,recorded_load_max_ms,emulated_load_ms,load_error,recorded_dcl_ms,emulated_dcl_ms,dcl_error';

export function csvRow(p: PageIdentity): string {
  const f = (v: number): string => v.toFixed(1);
  const e = (v: number): string => v.toFixed(4);
  const name = /[",\n]/.test(p.page) ? `"${p.page.replace(/"/g, '""')}"` : p.page;
  return [name, p.runs, f(p.recordedLoad), f(p.recordedLoadMin), f(p.recordedLoadMax), f(p.emulatedLoad), e(p.loadError), f(p.recordedDcl), f(p.emulatedDcl), e(p.dclError)].join(',');
}
