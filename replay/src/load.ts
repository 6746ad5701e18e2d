/**
 * Real loads of a replayed page: a fresh headless Chromium per run (new profile, cold cache) through
 * the profiler's launcher, told where the replay listens and which certificate to trust; the times
 * come from the page's own Navigation Timing entry, in ms from navigation start.
 */
import { median } from '@pcp/graph-builder';
import { launchChromium, settleBrowserUi, type CdpEvent } from '@pcp/profiler';

type LaunchedBrowser = Awaited<ReturnType<typeof launchChromium>>;

export interface LoadTimes {
  /** loadEventStart of the navigation entry: ms from navigation start to the load event. */
  loadTime: number;
  /** domContentLoadedEventStart: ms from navigation start to DOMContentLoaded. */
  domContentLoadedTime: number;
}

export interface LoadOptions {
  /** Switches from the replay server (host-resolver-rules, the certificate's SPKI). */
  chromiumArgs: string[];
  executablePath?: string;
  /** Cap on one load (default 60 s). */
  timeoutMs?: number;
  /** Start Chromium through this (a shaped link's client namespace). */
  wrap?: (cmd: string, args: string[]) => { cmd: string; args: string[] };
}

export class LoadError extends Error {}

export async function loadOnce(url: string, opts: LoadOptions): Promise<LoadTimes> {
  const browser = await launchChromium({ executablePath: opts.executablePath, extraArgs: opts.chromiumArgs, wrap: opts.wrap });
  const cdp = browser.cdp;
  try {
    await settleBrowserUi(browser);
    const { targetInfos } = await cdp.send<{ targetInfos: { targetId: string; type: string }[] }>('Target.getTargets');
    const page = targetInfos.find((t) => t.type === 'page');
    if (!page) throw new LoadError('Chromium started without a page target');
    const { sessionId } = await cdp.send<{ sessionId: string }>('Target.attachToTarget', { targetId: page.targetId, flatten: true });
    await cdp.send('Page.enable', {}, sessionId);
    await navigateAndAwaitLoad(cdp, sessionId, url, opts.timeoutMs ?? 60_000);
    // loadEventStart is set as the event is dispatched; read it once the entry has it.
    for (let i = 0; i < 50; i++) {
      const r = await cdp.send<{ result: { value?: { loadEventStart: number; domContentLoadedEventStart: number } } }>('Runtime.evaluate', {
        expression: `(() => { const n = performance.getEntriesByType('navigation')[0]; return n && { loadEventStart: n.loadEventStart, domContentLoadedEventStart: n.domContentLoadedEventStart }; })()`,
        returnByValue: true,
      }, sessionId);
      const v = r.result.value;
      if (v && v.loadEventStart > 0) return { loadTime: v.loadEventStart, domContentLoadedTime: v.domContentLoadedEventStart };
      await new Promise((res) => setTimeout(res, 20));
    }
    throw new LoadError('the page has no Navigation Timing entry with a load time');
  } finally {
    await browser.close();
  }
}

/**
 * Navigates the attached page (Page enabled on `sessionId`) to `url` and resolves once its load event
 * fires; a failed navigation, a crashed renderer or `timeoutMs` without the event is a LoadError.
 */
export async function navigateAndAwaitLoad(cdp: LaunchedBrowser['cdp'], sessionId: string, url: string, timeoutMs: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  let onEvent: ((ev: CdpEvent) => void) | undefined;
  const loaded = new Promise<void>((resolve, reject) => {
    onEvent = (ev: CdpEvent): void => {
      if (ev.sessionId === sessionId && ev.method === 'Page.loadEventFired') resolve();
      if (ev.sessionId === sessionId && ev.method === 'Inspector.targetCrashed') reject(new LoadError('the page renderer crashed'));
    };
    cdp.on('event', onEvent);
    timer = setTimeout(() => reject(new LoadError(`the load event did not fire within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    const nav = await cdp.send<{ errorText?: string }>('Page.navigate', { url }, sessionId);
    if (nav.errorText) throw new LoadError(`navigation to ${url} failed: ${nav.errorText}`);
    await loaded;
  } finally {
    clearTimeout(timer);
    if (onEvent) cdp.off('event', onEvent);
  }
}

export interface LoadSummary extends LoadTimes {
  runs: LoadTimes[];
}

/** Medians at the top, each run below (the `--json` layout). Pure. */
export function summarise(runs: readonly LoadTimes[]): LoadSummary {
  // Runs to 0.1 ms (Navigation Timing's own resolution is coarser), medians of the printed values.
  const round = (x: number, to = 10): number => Math.round(x * to) / to;
  const rounded = runs.map((r) => ({ loadTime: round(r.loadTime), domContentLoadedTime: round(r.domContentLoadedTime) }));
  return {
    loadTime: round(median(rounded.map((r) => r.loadTime)), 100),
    domContentLoadedTime: round(median(rounded.map((r) => r.domContentLoadedTime)), 100),
    runs: rounded,
  };
}
