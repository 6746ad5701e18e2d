/**
 * The corpus directory (corpus/README.md): corpus.json, sites.txt, pages/<id>/ with bundle/, graph.json,
 * delays.json, status.json and the DONE marker written last, failures.jsonl. Paths, ids and the small
 * records every builder (profiled sites, legacy import, the Dask driver's tasks) writes the same way.
 */
import { createHash } from 'node:crypto';
import { appendFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeJsonFile } from '@pcp/graph-builder';
import { writeFileAtomic } from '@pcp/profiler/bundle';

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

export function pageDir(corpusDir: string, id: string): string {
  return join(corpusDir, CORPUS_FILES.pages, id);
}

/** A page is finished when its DONE marker exists; anything else is rebuilt from scratch. */
export function isDone(dir: string): boolean {
  return existsSync(join(dir, PAGE_FILES.done));
}

/** Pretty JSON through a temporary name and a rename, so a reader never sees half a file. */
export function writeJson(file: string, data: unknown): void {
  writeJsonFile(file, data, true);
}

export function readStatus(dir: string): PageStatus | undefined {
  try {
    return JSON.parse(readFileSync(join(dir, PAGE_FILES.status), 'utf8')) as PageStatus;
  } catch {
    return undefined;
  }
}

/** status.json, then (when ok) the DONE marker, last. */
export function finishPage(dir: string, status: PageStatus): void {
  writeJson(join(dir, PAGE_FILES.status), status);
  if (status.status === 'ok') writeFileAtomic(join(dir, PAGE_FILES.done), `${status.finishedAt}\n`);
}

/** corpus.json's content, created now. */
export function corpusManifest(m: Omit<CorpusManifest, 'format' | 'created' | 'siteList'>): CorpusManifest {
  return { format: CORPUS_FORMAT, created: new Date().toISOString(), siteList: CORPUS_FILES.siteList, ...m };
}

/**
 * corpus.json and sites.txt: written on the first build into DIR; a resumed build keeps the original
 * creation date and site list.
 */
export function initCorpus(dir: string, manifest: Omit<CorpusManifest, 'format' | 'created' | 'siteList'>, siteListText: string): CorpusManifest {
  mkdirSync(join(dir, CORPUS_FILES.pages), { recursive: true });
  const file = join(dir, CORPUS_FILES.corpus);
  if (existsSync(file)) {
    const old = JSON.parse(readFileSync(file, 'utf8')) as CorpusManifest;
    if (old.format === CORPUS_FORMAT) return old;
  }
  const full = corpusManifest(manifest);
  writeFileAtomic(join(dir, CORPUS_FILES.siteList), siteListText.endsWith('\n') || siteListText === '' ? siteListText : `${siteListText}\n`);
  writeJson(file, full);
  return full;
}

export function appendFailure(dir: string, f: FailureRecord): void {
  appendFileSync(join(dir, CORPUS_FILES.failures), `${JSON.stringify(f)}\n`);
}

/**
 * failures.jsonl rewritten from the pages' own statuses: one line per site of `sites` that is failed
 * now (a site that failed once and was built on resume is no longer listed).
 */
export function rewriteFailures(dir: string, sites: readonly { url: string; id: string }[]): FailureRecord[] {
  const out: FailureRecord[] = [];
  for (const s of sites) {
    const pd = pageDir(dir, s.id);
    if (isDone(pd)) continue;
    const st = readStatus(pd);
    if (st?.status === 'failed') out.push({ url: s.url, id: s.id, reason: st.reason ?? 'unknown', attempts: st.attempts });
  }
  writeFileAtomic(join(dir, CORPUS_FILES.failures), out.map((f) => `${JSON.stringify(f)}\n`).join(''));
  return out;
}
