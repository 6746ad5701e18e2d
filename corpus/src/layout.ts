/**
 * The corpus directory (corpus/README.md): corpus.json, sites.txt, pages/<id>/ with bundle/, graph.json,
 * delays.json, status.json and the DONE marker written last, failures.jsonl. Paths, ids and the small
 * records every builder (profiled sites, legacy import, the Dask driver's tasks) writes the same way.
 * (Names and shapes as the builder's branch has them; the readers are in read.ts.)
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export const CORPUS_FORMAT = 'pcp-corpus/1';

export const CORPUS_FILES = {
  corpus: 'corpus.json',
  siteList: 'sites.txt',
  pages: 'pages',
  failures: 'failures.jsonl',
} as const;

export const PAGE_FILES = {
  bundle: 'bundle',
  graph: 'graph.json',
  delays: 'delays.json',
  status: 'status.json',
  done: 'DONE',
} as const;

export interface CorpusSettings {
  chromium?: string;
  profiler?: Record<string, unknown>;
  conditions?: unknown;
  runs?: number;
}

export interface CorpusManifest {
  format: typeof CORPUS_FORMAT;
  source: 'sites' | 'legacy';
  created: string;
  settings: CorpusSettings;
  siteList: typeof CORPUS_FILES.siteList;
}

export interface PageStatus {
  url: string;
  id: string;
  status: 'ok' | 'failed';
  reason?: string;
  attempts: number;
  startedAt: string;
  finishedAt: string;
  /** With --runs K: the load time (ms) of every complete run; the bundle kept is the median one. */
  runs?: { loadMs: number | null; status: string }[];
}

export interface FailureRecord {
  url: string;
  id: string;
  reason: string;
  attempts: number;
}

/**
 * A stable, filesystem-safe id for a page: host (+ _port) and path, then 8 hex of sha256(url) so that
 * two URLs whose readable parts collide stay apart.
 */
export function pageId(url: string): string {
  let base = url;
  try {
    const u = new URL(url);
    base = `${u.hostname}${u.port ? `_${u.port}` : ''}${u.pathname}${u.search}`;
  } catch {
    // not a URL (a legacy slug): the text itself
  }
  const readable = base.replace(/[^A-Za-z0-9._-]+/g, '_').replace(/^[_.]+|_+$/g, '').slice(0, 80) || 'page';
  return `${readable}-${createHash('sha256').update(url).digest('hex').slice(0, 8)}`;
}

/** A page is finished when its DONE marker exists; anything else is rebuilt from scratch. */
export function isDone(dir: string): boolean {
  return existsSync(join(dir, PAGE_FILES.done));
}

export function readStatus(dir: string): PageStatus | undefined {
  try {
    return JSON.parse(readFileSync(join(dir, PAGE_FILES.status), 'utf8')) as PageStatus;
  } catch {
    return undefined;
  }
}
