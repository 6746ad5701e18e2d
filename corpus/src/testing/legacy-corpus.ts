/**
 * Test corpora in the corpus directory layout, made from the 2016 legacy logs (../shared/legacy-corpus)
 * through the graph-builder's public API. A test fixture, not an importer (`pcp corpus import-legacy`
 * is): the server delays of the legacy delay files are merged so the delay statistics have data.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { buildFromLegacyLog, legacySites, mergeServerDelays, readLegacyLogFile, type ServerDelayRecord } from '@pcp/graph-builder';
import { CORPUS_FILES, CORPUS_FORMAT, PAGE_FILES, pageId, type CorpusManifest, type PageStatus } from '../layout.ts';

/** `method hostname url size time mimetype exttype cached` rows (seconds; urls without scheme). */
function legacyDelays(path: string): ServerDelayRecord[] {
  const lines = gunzipSync(readFileSync(path)).toString('utf8').split('\n').slice(1).filter(Boolean);
  return lines.map((line) => {
    const [method, host, url, size, time, mimeType, extType, cached] = line.split(' ');
    return { method: method!, host: host!, url: `http://${url}`, size: Number(size), delayMs: Number(time) * 1000, mimeType: mimeType!, extType: extType!, tls: false, cached: cached === '1', estimated: false };
  });
}

/** Writes `count` legacy sites (the first of index.json) as a finished corpus in `dir`; returns their page ids. */
export function writeLegacyTestCorpus(dir: string, count = Infinity): string[] {
  const sites = legacySites().slice(0, count);
  mkdirSync(join(dir, CORPUS_FILES.pages), { recursive: true });
  const meta: CorpusManifest = { format: CORPUS_FORMAT, source: 'legacy', created: new Date().toISOString(), settings: { chromium: 'patched Chromium (2016 logs)', runs: 1 }, siteList: CORPUS_FILES.siteList };
  writeFileSync(join(dir, CORPUS_FILES.corpus), JSON.stringify(meta, null, 1));
  writeFileSync(join(dir, CORPUS_FILES.siteList), sites.map((s) => `${s.slug}\n`).join(''));
  writeFileSync(join(dir, CORPUS_FILES.failures), '');
  return sites.map((site) => {
    const id = pageId(site.page);
    const pageDir = join(dir, CORPUS_FILES.pages, id);
    mkdirSync(pageDir, { recursive: true });
    const startedAt = new Date().toISOString();
    const built = buildFromLegacyLog(readLegacyLogFile(site.raw).text, { input: site.raw });
    const delays = legacyDelays(site.delays);
    writeFileSync(join(pageDir, PAGE_FILES.graph), JSON.stringify(mergeServerDelays(built.graph, delays).graph));
    writeFileSync(join(pageDir, PAGE_FILES.delays), JSON.stringify({ records: delays }));
    const status: PageStatus = { url: site.page, id, status: 'ok', attempts: 1, startedAt, finishedAt: new Date().toISOString() };
    writeFileSync(join(pageDir, PAGE_FILES.status), JSON.stringify(status));
    writeFileSync(join(pageDir, PAGE_FILES.done), '');
    return id;
  });
}
