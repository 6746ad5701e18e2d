/**
 * Which URLs a bundle's page requested, from its DevTools log: the check that a page's expected
 * resource list is exactly what real Chromium fetched.
 */
import { BUNDLE_FILES, readDevtoolsLog } from '../src/bundle.ts';

export function requestedUrls(bundleDir: string): string[] {
  const found = readDevtoolsLog(bundleDir);
  if (!found) throw new Error(`${bundleDir}: no ${BUNDLE_FILES.devtoolsLog}`);
  const log = found.log;
  const urls = new Set<string>();
  for (const e of log) {
    if (e.method !== 'Network.requestWillBeSent') continue;
    const req = e.params.request as { url?: string } | undefined;
    const redirect = e.params.redirectResponse as { url?: string } | undefined;
    // A redirect re-uses the request id; the first hop is the URL the page asked for.
    if (redirect) continue;
    if (req?.url && !req.url.startsWith('data:')) urls.add(req.url.split('#')[0]!);
  }
  return [...urls].sort();
}
