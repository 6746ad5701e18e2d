/**
 * The local pool: every site of a list built into a corpus directory, N at a time (each load in its own
 * browser), finished pages (DONE) skipped, a failing site retried up to R times and then recorded in
 * failures.jsonl; one site failing never stops the others.
 */
import { appendFailure, isDone, pageDir, readStatus, rewriteFailures, type FailureRecord, type PageStatus } from './layout.ts';
import { buildSite, type SiteBuildOptions } from './build-site.ts';
import type { Site } from './site-list.ts';

export interface PoolOptions {
  concurrency?: number;
  /** Extra attempts after a failed one (default 1). */
  retries?: number;
  site: SiteBuildOptions;
  onSite?(status: PageStatus, skipped: boolean): void;
}

export interface PoolResult {
  built: number;
  skipped: number;
  failures: FailureRecord[];
}

/** Builds one site with bounded retries; the status of the last attempt. */
export async function buildWithRetries(site: Pick<Site, 'url' | 'id'>, dir: string, opts: Pick<PoolOptions, 'retries' | 'site'>): Promise<PageStatus> {
  const tries = 1 + Math.max(0, opts.retries ?? 1);
  let status: PageStatus | undefined;
  for (let attempt = 1; attempt <= tries && status?.status !== 'ok'; attempt++) {
    status = (await buildSite(site.url, site.id, pageDir(dir, site.id), opts.site, attempt)).status;
  }
  return status!;
}

export async function buildCorpus(sites: readonly Site[], dir: string, opts: PoolOptions): Promise<PoolResult> {
  let next = 0;
  let built = 0;
  let skipped = 0;
  const worker = async (): Promise<void> => {
    while (next < sites.length) {
      const site = sites[next++]!;
      const pd = pageDir(dir, site.id);
      if (isDone(pd)) {
        skipped++;
        opts.onSite?.(readStatus(pd) ?? { url: site.url, id: site.id, status: 'ok', attempts: 1, startedAt: '', finishedAt: '' }, true);
        continue;
      }
      const status = await buildWithRetries(site, dir, opts);
      if (status.status === 'ok') built++;
      else appendFailure(dir, { url: site.url, id: site.id, reason: status.reason ?? 'unknown', attempts: status.attempts });
      opts.onSite?.(status, false);
    }
  };
  const n = Math.max(1, Math.min(opts.concurrency ?? 1, sites.length));
  await Promise.all(Array.from({ length: n }, worker));
  return { built, skipped, failures: rewriteFailures(dir, sites) };
}
