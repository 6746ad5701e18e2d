/**
 * The step `pcp corpus stats` and `publish` share: a corpus' graphs -> table rows (JSON lines, @pcp/corpus)
 * -> Parquet tables, statistics and figures (the pcp_corpus Python package). Pages whose graph cannot be
 * read are reported on stderr, one line each, and left out.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Graph } from '@pcp/graph-builder';
import type { Collected, CorpusPage } from '@pcp/corpus';
import { CliError, Progress, sourceError } from '../../kit.ts';

export interface DescribeOptions {
  /** Where the Parquet tables go. */
  dataDir: string;
  /** Where the statistics and figures go. */
  reportDir: string;
  /** Print the summary table on stdout. */
  print: boolean;
  /** The command's name, for messages. */
  label: string;
  onGraph?: (page: CorpusPage, graph: Graph) => void;
}

/** Runs `python -m pcp_corpus ARGS`; a failure is a one-line CliError. */
export async function runCorpusPython(args: string[]): Promise<void> {
  const { runPythonModule } = await import('@pcp/graph-builder');
  const { code, error } = await runPythonModule('pcp_corpus', 'corpus/python', args);
  if (code === 0) return;
  if (error?.includes('No module named')) {
    throw new CliError(`the pcp_corpus Python package or a dependency is missing (${error}): pip install -e 'corpus/python[dev]'`);
  }
  throw new CliError(error ?? `python -m pcp_corpus exited with ${code}`);
}

/** Also returns the Frictionless fields of the tables (pcp_corpus writes them beside its input). */
export async function describeCorpus(corpusDir: string, opts: DescribeOptions): Promise<Collected & { tableFields: Record<string, unknown> }> {
  const { collectTables, readCorpus, CorpusError } = await import('@pcp/corpus');
  const { readFileSync } = await import('node:fs');
  let total: number;
  try {
    total = readCorpus(corpusDir).pages.length;
  } catch (e) {
    if (e instanceof CorpusError) throw new CliError(e.message);
    throw sourceError(corpusDir, e);
  }
  const work = mkdtempSync(join(tmpdir(), 'pcp-corpus-tables-'));
  try {
    const progress = new Progress(total, opts.label);
    const collected = collectTables(corpusDir, work, { onGraph: opts.onGraph, onPage: (p, ok) => progress.tick(ok, p.id) });
    for (const s of collected.skipped) console.error(`${opts.label}: ${s.id}: ${s.reason} (left out)`);
    if (collected.pages.length === 0) throw new CliError(`${corpusDir}: no finished page with a valid graph (${total} finished, ${collected.corpus.unfinished.length} unfinished)`);
    await runCorpusPython(['describe', work, '--data', opts.dataDir, '--report', opts.reportDir, ...(opts.print ? [] : ['--quiet'])]);
    const tableFields = JSON.parse(readFileSync(join(work, 'schema.json'), 'utf8')) as Record<string, unknown>;
    return { ...collected, tableFields };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
