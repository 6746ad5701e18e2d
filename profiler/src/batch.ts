/**
 * Profiling a list of pages: one bundle per page under an output directory (named by slugForUrl),
 * N pages at a time, each in its own browser. One page failing never stops the others; bundles
 * already complete are skipped, so an interrupted batch resumes where it stopped.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { capturePage, type CaptureOptions } from './capture.ts';
import { isComplete, readMeta, slugForUrl, writeFileAtomic, type BundleMeta } from './bundle.ts';

export interface BatchItem {
  url: string;
  dir: string;
  /** True when an existing complete bundle was kept. */
  skipped: boolean;
  meta?: BundleMeta;
}

export interface BatchOptions extends CaptureOptions {
  concurrency?: number;
  /** Re-capture pages even when their bundle is complete. */
  force?: boolean;
  onItem?(item: BatchItem): void;
}

export function bundleDirFor(outDir: string, url: string): string {
  return join(outDir, slugForUrl(url));
}

export async function profileMany(urls: string[], outDir: string, opts: BatchOptions = {}): Promise<BatchItem[]> {
  mkdirSync(outDir, { recursive: true });
  const items: BatchItem[] = urls.map((url) => ({ url, dir: bundleDirFor(outDir, url), skipped: false }));
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const item = items[next++]!;
      if (!opts.force && isComplete(item.dir)) {
        item.skipped = true;
        item.meta = readMeta(item.dir);
      } else {
        item.meta = (await capturePage(item.url, item.dir, opts)).meta;
      }
      opts.onItem?.(item);
    }
  };
  const n = Math.max(1, Math.min(opts.concurrency ?? 1, items.length));
  await Promise.all(Array.from({ length: n }, worker));
  const index = items.map((i) => ({
    url: i.url, bundle: i.dir.slice(outDir.length + 1), status: i.meta?.status, endReason: i.meta?.endReason, message: i.meta?.message,
  }));
  writeFileAtomic(join(outDir, 'index.json'), JSON.stringify(index, null, 2) + '\n');
  return items;
}
