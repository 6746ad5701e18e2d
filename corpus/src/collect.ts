/**
 * Reads every finished page of a corpus, validates its graph and appends its rows to the table files
 * (`<table>.jsonl` in a work directory, one JSON object a line) that the Python side turns into
 * Parquet. A page whose graph cannot be read or fails the schema is reported and skipped; the rest
 * proceeds.
 */
import { closeSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { loadGraph, type Graph } from '@pcp/graph-builder';
import { readCorpus, type Corpus, type CorpusPage } from './read.ts';
import { pageTables, TABLE_NAMES, type TableName } from './tables.ts';

export interface SkippedPage {
  id: string;
  url: string;
  reason: string;
}

export interface Collected {
  corpus: Corpus;
  /** Pages whose rows were written. */
  pages: CorpusPage[];
  skipped: SkippedPage[];
  rows: Record<TableName, number>;
}

export interface CollectOptions {
  /** Called with each valid graph (publish writes it into the release). */
  onGraph?: (page: CorpusPage, graph: Graph) => void;
  /** Called after each page, valid or not. */
  onPage?: (page: CorpusPage, ok: boolean) => void;
}

function oneLine(e: unknown): string {
  return (e instanceof Error ? e.message : String(e)).split('\n', 1)[0]!;
}

export function collectTables(corpusDir: string, workDir: string, opts: CollectOptions = {}): Collected {
  const corpus = readCorpus(corpusDir);
  mkdirSync(workDir, { recursive: true });
  const fds = Object.fromEntries(TABLE_NAMES.map((t) => [t, openSync(join(workDir, `${t}.jsonl`), 'w')])) as Record<TableName, number>;
  const rows = Object.fromEntries(TABLE_NAMES.map((t) => [t, 0])) as Record<TableName, number>;
  const pages: CorpusPage[] = [];
  const skipped: SkippedPage[] = [];
  const write = (table: TableName, list: object[]): void => {
    if (list.length === 0) return;
    writeSync(fds[table], `${list.map((r) => JSON.stringify(r)).join('\n')}\n`);
    rows[table] += list.length;
  };
  try {
    for (const page of corpus.pages) {
      let graph: Graph;
      let tables;
      try {
        graph = loadGraph(page.graph);
        tables = pageTables(page.id, graph);
      } catch (e) {
        skipped.push({ id: page.id, url: page.status?.url ?? '', reason: oneLine(e) });
        opts.onPage?.(page, false);
        continue;
      }
      opts.onGraph?.(page, graph);
      write('pages', [tables.page]);
      write('nodes', tables.nodes);
      write('edges', tables.edges);
      write('resources', tables.resources);
      pages.push(page);
      opts.onPage?.(page, true);
    }
  } finally {
    for (const fd of Object.values(fds)) closeSync(fd);
  }
  return { corpus, pages, skipped, rows };
}
