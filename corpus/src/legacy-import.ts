/**
 * `pcp corpus import-legacy`: the 2016 patched-Chromium logs rebuilt as v1 graphs into the corpus
 * layout (source "legacy"; no bundle). RAW_DIR is either a legacy corpus folder with its index.json
 * (page, slug, raw, delays: ../shared/legacy-corpus) or a folder of `<slug>.log[.gz]` logs, with
 * `<slug>.delays.txt[.gz]` beside them or in ../delays when measured.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import {
  buildFromLegacyLog, mergeServerDelays, readLegacyLogFile, readText, validateGraph, writeJsonFile,
  type Graph, type ServerDelayRecord,
} from '@pcp/graph-builder';
import { appendFailure, initCorpus, isDone, pageDir, pageId, PAGE_FILES, finishPage, readStatus, rewriteFailures, writeJson, type PageStatus } from './layout.ts';

export interface LegacyEntry {
  /** The site id of the 2016 corpus (file names). */
  slug: string;
  /** The page's URL when the index gives it (else the log's own). */
  page?: string;
  raw: string;
  delays?: string;
}

/** The logs of RAW_DIR, in index order or by file name. Throws a one-line error when there are none. */
export function legacyEntries(rawDir: string): LegacyEntry[] {
  const index = join(rawDir, 'index.json');
  if (existsSync(index)) {
    const list = JSON.parse(readFileSync(index, 'utf8')) as Array<{ page?: string; slug: string; raw: string; delays?: string }>;
    return list.map((e) => ({ slug: e.slug, page: e.page, raw: join(rawDir, e.raw), delays: e.delays && existsSync(join(rawDir, e.delays)) ? join(rawDir, e.delays) : undefined }));
  }
  if (!existsSync(rawDir)) throw new Error(`${rawDir}: no such directory`);
  const logs = readdirSync(rawDir).filter((f) => /\.log(\.gz)?$/.test(f)).sort();
  if (logs.length === 0) throw new Error(`${rawDir}: no index.json and no *.log[.gz] files`);
  return logs.map((f) => {
    const slug = f.replace(/\.log(\.gz)?$/, '');
    const delays = [join(rawDir, `${slug}.delays.txt.gz`), join(rawDir, `${slug}.delays.txt`), join(rawDir, '..', 'delays', `${slug}.delays.txt.gz`)].find(existsSync);
    return { slug, raw: join(rawDir, f), delays };
  });
}

const schemeless = (url: string): string => url.replace(/^[a-z]+:\/\//i, '').replace(/#.*$/, '');

/**
 * The corpus' measured delays (`method hostname url size time mimetype exttype cached`, url without its
 * scheme, seconds) as server-delay records, each url given the scheme the graph's resource has.
 */
export function legacyDelayRecords(text: string, graph: Graph): ServerDelayRecord[] {
  const full = new Map<string, string>();
  for (const n of graph.nodes) if (n.kind === 'resource') full.set(schemeless(n.url), n.url);
  const out: ServerDelayRecord[] = [];
  for (const line of text.split('\n').slice(1)) {
    const [method, host, url, size, time, mimeType, extType, cached] = line.trim().split(/\s+/);
    const sec = Number(time);
    if (!url || !Number.isFinite(sec) || sec < 0) continue;
    out.push({
      method: method ?? 'GET', host: host ?? '', url: full.get(schemeless(url)) ?? `http://${url}`, size: Number(size) || 0,
      delayMs: sec * 1000, mimeType: mimeType ?? '', extType: extType ?? 'other', tls: false, cached: cached === '1', estimated: false,
    });
  }
  return out;
}

function importOne(e: LegacyEntry, site: { url: string; id: string }, dir: string): PageStatus {
  const startedAt = new Date().toISOString();
  const log = readLegacyLogFile(e.raw);
  let { graph } = buildFromLegacyLog(log.text, { input: e.raw });
  if (e.delays) {
    const records = legacyDelayRecords(readText(e.delays), graph);
    writeJson(join(dir, PAGE_FILES.delays), records);
    graph = mergeServerDelays(graph, records).graph;
  }
  const v = validateGraph(graph);
  if (!v.ok) throw new Error(`does not match graph format v1: ${v.errors.slice(0, 3).join('; ')}`);
  writeJsonFile(join(dir, PAGE_FILES.graph), graph);
  return { ...site, status: 'ok', attempts: 1, startedAt, finishedAt: new Date().toISOString() };
}

export interface LegacyImportResult {
  imported: number;
  skipped: number;
  failed: number;
}

/** Every log of RAW_DIR (the first `limit`) into DIR (resumable: finished pages skipped); a log that fails is recorded and the rest proceed. */
export function importLegacyCorpus(rawDir: string, dir: string, onPage?: (status: PageStatus, skipped: boolean) => void, limit = Infinity): LegacyImportResult {
  const entries = legacyEntries(rawDir).slice(0, limit);
  initCorpus(dir, { source: 'legacy', settings: { chromium: 'patched Chromium (PCP/WProf, 2016)', runs: 1 } }, entries.map((e) => e.slug).join('\n'));
  const sites = entries.map((e) => ({ url: e.page ?? e.slug, id: pageId(e.page ?? e.slug) }));
  const r: LegacyImportResult = { imported: 0, skipped: 0, failed: 0 };
  entries.forEach((e, i) => {
    const { url, id } = sites[i]!;
    const pd = pageDir(dir, id);
    if (isDone(pd)) {
      r.skipped++;
      onPage?.(readStatus(pd) ?? { url, id, status: 'ok', attempts: 1, startedAt: '', finishedAt: '' }, true);
      return;
    }
    rmSync(pd, { recursive: true, force: true });
    mkdirSync(pd, { recursive: true });
    let status: PageStatus;
    try {
      status = importOne(e, { url, id }, pd);
      r.imported++;
    } catch (err) {
      const now = new Date().toISOString();
      status = { url, id, status: 'failed', reason: `${e.raw}: ${(err as Error).message.split('\n', 1)[0]}`, attempts: 1, startedAt: now, finishedAt: now };
      appendFailure(dir, { url, id, reason: status.reason!, attempts: 1 });
      r.failed++;
    }
    finishPage(pd, status);
    onPage?.(status, false);
  });
  rewriteFailures(dir, sites);
  return r;
}
