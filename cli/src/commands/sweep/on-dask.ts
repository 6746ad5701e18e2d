/**
 * `pcp sweep --scheduler`: the grid's cells (a graph under one configuration, all its runs) as Dask tasks,
 * each running `pcp sweep GRAPH --grid CELL --workers 1` on a worker (corpus/python/pcp_corpus/dask_sweep.py).
 * Only this process writes the CSV: rows come back to it and only rows still missing are appended.
 */
import { appendFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { CliError, type Progress } from '../../kit.ts';

const PCP_BIN = fileURLToPath(new URL('../../../bin/pcp.js', import.meta.url));

export interface CellPlan {
  graph: string;
  key: string;
  /** A one-point grid: the cell's option values, and runs. */
  grid: Record<string, string | number>;
  /** Resume keys (rowKey) of the rows still wanted from this cell. */
  wanted: Set<string>;
}

type CellEvent = { event: 'cell'; graph: string; key: string; rows?: string[]; error?: string } | { event: 'done' };

export async function sweepOnDask(
  scheduler: string, cells: CellPlan[], out: string, progress: Progress, rowKeyOf: (row: string) => string,
): Promise<{ written: number; failed: string[] }> {
  const { runDaskDriver, checkScheduler } = await import('@pcp/corpus');
  checkScheduler(scheduler);
  const byCell = new Map(cells.map((c) => [`${c.graph}\u0000${c.key}`, c]));
  const failed: string[] = [];
  let written = 0;
  const job = { scheduler, pcp: [process.execPath, PCP_BIN], cwd: process.cwd(), cells: cells.map(({ graph, key, grid }) => ({ graph, key, grid })) };
  try {
    await runDaskDriver<CellEvent>('pcp_corpus.dask_sweep', job, (e) => {
      if (e.event !== 'cell') return;
      const cell = byCell.get(`${e.graph}\u0000${e.key}`);
      if (!cell) return;
      if (e.error !== undefined) {
        failed.push(`${e.graph} [${e.key}]: ${e.error}`);
        for (let k = 0; k < cell.wanted.size; k++) progress.tick(false);
        cell.wanted.clear();
        return;
      }
      for (const row of e.rows ?? []) {
        if (!cell.wanted.delete(rowKeyOf(row))) continue;
        appendFileSync(out, `${row}\n`);
        written++;
        progress.tick(true);
      }
    });
  } catch (e) {
    throw new CliError((e as Error).message);
  }
  return { written, failed };
}
