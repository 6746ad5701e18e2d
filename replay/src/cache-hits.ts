/**
 * The responses the recorded browser took from its HTTP cache (`_fromCache` in archive.har: a disk-cache
 * answer in a recorded load, a cache hit of a legacy 2016 capture in a synthesized site) and never from
 * the network: the replay's browser has them in its cache before the measured load (`warmCache` of the
 * profiler's capture). Pure.
 */
import type { ReplayArchive } from './archive.ts';

/** The well-known path of the page's origin the warm-up tab fetches from (the server answers it 404). */
export const WARM_UP_PATH = '/.pcp-cache-warm-up';

/**
 * URLs every recorded response of which came from the cache (a URL also fetched from the network is
 * left to the network, as recorded), GET with a 2xx status. On an https page, http URLs are left out: a
 * fetch of them there is mixed content, and the page's own requests of them are upgraded to their https
 * twins (synth's upgrades), which are warmed instead when the archive marks them too.
 */
export function cacheHitUrls(archive: Pick<ReplayArchive, 'pageUrl' | 'entries'>): string[] {
  const fromNetwork = new Set(archive.entries.filter((e) => !e.fromCache).map((e) => e.url));
  const httpsPage = archive.pageUrl.startsWith('https:');
  const urls = archive.entries
    .filter((e) => e.fromCache && e.method === 'GET' && e.status >= 200 && e.status < 300 && !fromNetwork.has(e.url) && !(httpsPage && e.url.startsWith('http:')))
    .map((e) => e.url);
  return [...new Set(urls)];
}

/** The warm-up document for a page: its origin's WARM_UP_PATH. */
export function warmUpDocumentUrl(pageUrl: string): string {
  return new URL(WARM_UP_PATH, pageUrl).href;
}
