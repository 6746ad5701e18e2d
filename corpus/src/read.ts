/**
 * Reading a corpus directory (layout.ts) for the describe, publish and view tools: its corpus.json, its
 * finished pages (those with DONE; others are unfinished and not read) and its failures.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CORPUS_FILES, CORPUS_FORMAT, PAGE_FILES, isDone, readStatus, type CorpusManifest, type FailureRecord, type PageStatus } from './layout.ts';

export interface CorpusPage {
  id: string;
  dir: string;
  /** Absolute path of graph.json. */
  graph: string;
  status?: PageStatus;
}

export interface Corpus {
  dir: string;
  meta: CorpusManifest;
  /** Finished pages (with DONE), sorted by id. */
  pages: CorpusPage[];
  /** Page directories without DONE. */
  unfinished: string[];
  failures: FailureRecord[];
}

/** Not a corpus directory, or one whose corpus.json cannot be read: the message names the file. */
export class CorpusError extends Error {}

export function isCorpusDir(dir: string): boolean {
  return existsSync(join(dir, CORPUS_FILES.corpus)) && existsSync(join(dir, CORPUS_FILES.pages));
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
  const metaPath = join(dir, CORPUS_FILES.corpus);
  if (!existsSync(metaPath)) throw new CorpusError(`${dir}: not a corpus directory (no ${CORPUS_FILES.corpus})`);
  const meta = readJson(metaPath) as CorpusManifest;
  if (meta?.format !== CORPUS_FORMAT) throw new CorpusError(`${metaPath}: format is ${JSON.stringify(meta?.format)}, expected "${CORPUS_FORMAT}"`);
  const pagesDir = join(dir, CORPUS_FILES.pages);
  const names = existsSync(pagesDir) ? readdirSync(pagesDir, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name).sort() : [];
  const pages: CorpusPage[] = [];
  const unfinished: string[] = [];
  for (const id of names) {
    const pageDir = join(pagesDir, id);
    if (!isDone(pageDir)) {
      unfinished.push(id);
      continue;
    }
    pages.push({ id, dir: pageDir, graph: join(pageDir, PAGE_FILES.graph), status: readStatus(pageDir) });
  }
  return { dir, meta, pages, unfinished, failures: readJsonLines<FailureRecord>(join(dir, CORPUS_FILES.failures)) };
}
