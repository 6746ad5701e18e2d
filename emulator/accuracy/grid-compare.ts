/**
 * Two predictions of the same shaped grid side by side (`accuracy:emulator --report --compare FILE`): an
 * earlier run's CSV (as csvRow wrote it, e.g. the base commit's on the same kept loads) against this run's
 * rows. Prints both error summaries to one decimal (the table rounds to whole percents) and the cells whose
 * emulated load moved, largest first: what a model change did, on the same real loads. Pure.
 */
import { csvParse } from 'd3-dsv';
import { isLossy, relError, summarizeGroup, TOOLS, type GridRow } from './grid-stats.ts';
import { cellKey } from './load-log.ts';
import { median } from '../src/stats.ts';

/** The rows of a CSV written by csvRow (CSV_HEADER's columns); a one-line error when a column is missing. */
export function parseGridCsv(text: string): GridRow[] {
  const table = csvParse(text);
  const need = ['page', 'condition', 'runs', 'misses', 'real_load_ms', 'real_load_min_ms', 'real_load_max_ms', 'real_dcl_ms', ...TOOLS.flatMap((t) => [`${t}_load_ms`, `${t}_dcl_ms`])];
  const missing = need.filter((c) => !table.columns.includes(c));
  if (missing.length) throw new Error(`not an accuracy:emulator CSV (no column ${missing.join(', ')})`);
  return table.map((r) => {
    const n = (c: string): number => Number(r[c]);
    return {
      page: r.page!,
      condition: r.condition!,
      real: { load: n('real_load_ms'), dcl: n('real_dcl_ms'), runs: n('runs'), loadMin: n('real_load_min_ms'), loadMax: n('real_load_max_ms'), misses: n('misses') },
      predicted: Object.fromEntries(TOOLS.map((t) => [t, { load: n(`${t}_load_ms`), dcl: n(`${t}_dcl_ms`) }])) as GridRow['predicted'],
    };
  });
}

/** A cell whose emulated load differs between the two runs. */
export interface MovedCell {
  page: string;
  condition: string;
  realLoad: number;
  before: number;
  after: number;
}

/**
 * The cells both runs have whose emulated load moved by more than `minMs` (the CSV keeps 0.1 ms), largest
 * move first.
 */
export function movedCells(before: readonly GridRow[], after: readonly GridRow[], minMs = 0.05): MovedCell[] {
  const old = new Map(before.map((r) => [cellKey(r.page, r.condition), r]));
  const out: MovedCell[] = [];
  for (const r of after) {
    const b = old.get(cellKey(r.page, r.condition));
    if (b && Math.abs(r.predicted.emulator.load - b.predicted.emulator.load) > minMs) {
      out.push({ page: r.page, condition: r.condition, realLoad: r.real.load, before: b.predicted.emulator.load, after: r.predicted.emulator.load });
    }
  }
  return out.sort((x, y) => Math.abs(y.after - y.before) - Math.abs(x.after - x.before));
}

/** Median of the emulator's signed load errors. */
const signedMedian = (rows: readonly GridRow[]): number => median(rows.map((r) => relError(r.predicted.emulator.load, r.real.load)));

/** The comparison's report: lossless and lossy summaries before -> after, then up to `limit` moved cells. */
export function formatComparison(before: readonly GridRow[], after: readonly GridRow[], limit = 20): string {
  const pct = (v: number): string => `${(100 * v).toFixed(1)}%`;
  const signed = (v: number): string => `${v >= 0 ? '+' : ''}${pct(v)}`;
  const lines = ['', `emulator against the earlier run (|error| p50 / p90, one decimal; ${after.length} cells now, ${before.length} then)`];
  for (const [name, lossy] of [['lossless', false], ['lossy', true]] as const) {
    const [b, a] = [before, after].map((rows) => rows.filter((r) => isLossy(r.condition) === lossy));
    if (!a!.length || !b!.length) continue;
    const [sb, sa] = [summarizeGroup(name, b!, lossy).errors.emulator, summarizeGroup(name, a!, lossy).errors.emulator];
    lines.push(
      `  ${name.padEnd(9)} load ${pct(sb.load.p50)} / ${pct(sb.load.p90)} -> ${pct(sa.load.p50)} / ${pct(sa.load.p90)}; ` +
        `DCL ${pct(sb.dcl.p50)} / ${pct(sb.dcl.p90)} -> ${pct(sa.dcl.p50)} / ${pct(sa.dcl.p90)}; signed median ${signed(signedMedian(b!))} -> ${signed(signedMedian(a!))}`,
    );
  }
  const moved = movedCells(before, after);
  lines.push(`cells whose emulated load moved: ${moved.length} of ${after.length}${moved.length > limit ? ` (the ${limit} largest)` : ''}`);
  for (const m of moved.slice(0, limit)) {
    lines.push(
      `  ${m.page.padEnd(28)} ${m.condition.padEnd(18)} ${m.before.toFixed(1).padStart(9)} -> ${m.after.toFixed(1).padStart(9)} ms ` +
        `(${m.after >= m.before ? '+' : ''}${(m.after - m.before).toFixed(1)}); real ${m.realLoad.toFixed(1)}; error ${signed(relError(m.before, m.realLoad))} -> ${signed(relError(m.after, m.realLoad))}`,
    );
  }
  return lines.join('\n');
}
