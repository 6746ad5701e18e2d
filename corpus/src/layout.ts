/**
 * The corpus directory (corpus/README.md), as `pcp corpus build` and `import-legacy` write it and the
 * describe/publish/view tools read it: corpus.json, sites.txt, pages/<id>/{graph.json, delays.json,
 * status.json, DONE}, failures.jsonl. A page without DONE is unfinished and is not read.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export const CORPUS_FORMAT = 'pcp-corpus/1';

export const CORPUS_FILES = { meta: 'corpus.json', sites: 'sites.txt', failures: 'failures.jsonl', pages: 'pages' } as const;
export const PAGE_FILES = { graph: 'graph.json', delays: 'delays.json', status: 'status.json', done: 'DONE', bundle: 'bundle' } as const;

export interface CorpusMeta {
  format: typeof CORPUS_FORMAT;
  source: 'sites' | 'legacy';
  created: string;
  settings: Record<string, unknown>;
  siteList: string;
}

export interface PageStatus {
  url: string;
  id: string;
  status: 'ok' | 'failed';
  reason?: string;
  attempts: number;
  startedAt: string;
  finishedAt: string;
}

export interface FailureRecord {
  url: string;
  id: string;
  reason: string;
  attempts: number;
}

export interface CorpusPage {
  id: string;
  dir: string;
  /** Absolute path of graph.json. */
  graph: string;
  status?: PageStatus;
}

export interface Corpus {
  dir: string;
  meta: CorpusMeta;
  /** Finished pages (with DONE), sorted by id. */
  pages: CorpusPage[];
  /** Page directories without DONE. */
  unfinished: string[];
  failures: FailureRecord[];
}

/** Not a corpus directory, or one whose corpus.json cannot be read: the message names the file. */
export class CorpusError extends Error {}

/** A stable, filesystem-safe id for a page: host + path as a slug, then 8 hex of sha256(url). */
export function pageId(url: string): string {
  let hostPath = url;
  try {
    const u = new URL(url);
    hostPath = u.host + decodeURIComponent(u.pathname);
  } catch {
    /* not a URL (a legacy site id): slug it as it is */
  }
  const slug = hostPath.toLowerCase().replace(/[^a-z0-9.]+/g, '_').replace(/^[_.]+|[_.]+$/g, '').slice(0, 80) || 'page';
  return `${slug}-${createHash('sha256').update(url).digest('hex').slice(0, 8)}`;
}

export function isCorpusDir(dir: string): boolean {
  return existsSync(join(dir, CORPUS_FILES.meta)) && existsSync(join(dir, CORPUS_FILES.pages));
}

function readJson(path: string): unknown {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as unknown;
  } catch (e) {
    throw new CorpusError(`${path}: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : `not valid JSON (${(e as Error).message})`}`);
  }
}

/** One JSON object per line; a bad line is skipped and reported through `problems`. */
export function readJsonLines<T>(path: string, problems: string[] = []): T[] {
  if (!existsSync(path)) return [];
  const out: T[] = [];
  readFileSync(path, 'utf8').split('\n').forEach((line, i) => {
    if (!line.trim()) return;
    try {
      out.push(JSON.parse(line) as T);
    } catch {
      problems.push(`${path}:${i + 1}: not a JSON line`);
    }
  });
  return out;
}

export function readCorpus(dir: string): Corpus {
  const metaPath = join(dir, CORPUS_FILES.meta);
  if (!existsSync(metaPath)) throw new CorpusError(`${dir}: not a corpus directory (no ${CORPUS_FILES.meta})`);
  const meta = readJson(metaPath) as CorpusMeta;
  if (meta?.format !== CORPUS_FORMAT) throw new CorpusError(`${metaPath}: format is ${JSON.stringify(meta?.format)}, expected "${CORPUS_FORMAT}"`);
  const pagesDir = join(dir, CORPUS_FILES.pages);
  const names = existsSync(pagesDir) ? readdirSync(pagesDir, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name).sort() : [];
  const pages: CorpusPage[] = [];
  const unfinished: string[] = [];
  for (const id of names) {
    const pageDir = join(pagesDir, id);
    if (!existsSync(join(pageDir, PAGE_FILES.done))) {
      unfinished.push(id);
      continue;
    }
    let status: PageStatus | undefined;
    try {
      status = JSON.parse(readFileSync(join(pageDir, PAGE_FILES.status), 'utf8')) as PageStatus;
    } catch {
      status = undefined;
    }
    pages.push({ id, dir: pageDir, graph: join(pageDir, PAGE_FILES.graph), status });
  }
  return { dir, meta, pages, unfinished, failures: readJsonLines<FailureRecord>(join(dir, CORPUS_FILES.failures)) };
}
