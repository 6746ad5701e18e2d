/**
 * Warming the browser's HTTP cache before a measured load: a replayed page whose recorded browser
 * took some responses from its cache (the 2016 legacy captures' cache hits) is loaded by a browser
 * that has exactly those responses in its cache, so it answers them from there as the recorded one did.
 *
 * How: a second tab of the same browser (same profile, same HTTP cache) opens a document of the
 * page's origin (the cache is partitioned by the top-level site, so the entries must be made under the
 * page's site), fetches every URL there (`no-cors`, credentials included: the request an element
 * makes, which Chromium's HTTP cache keys the same way), reads each body to its end so the entry is
 * complete, and closes. The capture attaches to its own page only after this, and starts tracing after
 * it: nothing of the warm-up is in the measured bundle. The responses must be cacheable (a fresh
 * `Cache-Control: max-age`), which the replay serves them as.
 */
import type { CdpConnection, CdpEvent } from './cdp.ts';
import { withTimeout } from './timeout.ts';

export interface CacheWarmUp {
  /** A document of the page's origin to fetch from (any URL of it the server answers; its body is not used). */
  documentUrl: string;
  /** The URLs to have in the cache. */
  urls: readonly string[];
  /** Called once the warm-up tab is closed, before the measured load (e.g. to reset the server's counts). */
  done?: () => Promise<void>;
}

export interface CacheWarmUpResult {
  /** URLs fetched to their end. */
  warmed: number;
  /** URLs whose fetch failed, with why. */
  failed: { url: string; error: string }[];
  /** The warm-up tab's target id (closed; a stale listing of it is not the page). */
  targetId: string;
}

/** The expression run in the warm-up document: every fetch settled, '' for a complete body, else the error. */
export function warmUpExpression(urls: readonly string[]): string {
  return `Promise.allSettled(${JSON.stringify(urls)}.map((u) => fetch(u, { mode: 'no-cors', credentials: 'include' }).then((r) => r.arrayBuffer())))` +
    `.then((rs) => rs.map((r) => r.status === 'fulfilled' ? '' : String(r.reason)))`;
}

export async function warmHttpCache(cdp: CdpConnection, w: CacheWarmUp, timeoutMs = 60_000): Promise<CacheWarmUpResult> {
  const { targetId } = await cdp.send<{ targetId: string }>('Target.createTarget', { url: 'about:blank' });
  try {
    const { sessionId } = await cdp.send<{ sessionId: string }>('Target.attachToTarget', { targetId, flatten: true });
    await cdp.send('Page.enable', {}, sessionId);
    let onEvent: ((ev: CdpEvent) => void) | undefined;
    const loaded = new Promise<void>((resolve) => {
      onEvent = (ev: CdpEvent): void => {
        if (ev.sessionId === sessionId && ev.method === 'Page.loadEventFired') resolve();
      };
      cdp.on('event', onEvent);
    });
    let errors: string[];
    try {
      const nav = await cdp.send<{ errorText?: string }>('Page.navigate', { url: w.documentUrl }, sessionId);
      if (nav.errorText) throw new Error(`the cache warm-up document ${w.documentUrl} did not load: ${nav.errorText}`);
      await withTimeout(loaded, timeoutMs, `the cache warm-up document ${w.documentUrl} did not load within ${timeoutMs} ms`);
      const r = await withTimeout(
        cdp.send<{ result: { value?: string[] }; exceptionDetails?: { text?: string } }>('Runtime.evaluate', { expression: warmUpExpression(w.urls), awaitPromise: true, returnByValue: true }, sessionId),
        timeoutMs, `the cache warm-up fetches did not end within ${timeoutMs} ms`);
      if (r.exceptionDetails || !Array.isArray(r.result.value)) throw new Error(`the cache warm-up fetches failed: ${r.exceptionDetails?.text ?? 'no result'}`);
      errors = r.result.value;
    } finally {
      if (onEvent) cdp.off('event', onEvent);
    }
    const failed = w.urls.flatMap((url, i) => (errors[i] ? [{ url, error: errors[i]! }] : []));
    return { warmed: w.urls.length - failed.length, failed, targetId };
  } finally {
    await cdp.send('Target.closeTarget', { targetId }).catch(() => {});
    await w.done?.();
  }
}
