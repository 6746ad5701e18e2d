/**
 * Real loads without a Chromium start per load: one headless Chromium (in a shaped link's client
 * namespace) for many loads, each in a fresh incognito browser context (`Target.createBrowserContext`),
 * which has its own network context — its own in-memory HTTP cache, socket pools, TLS session cache and
 * HTTP/2 sessions — disposed after the load. Each load checks from the page's own Resource Timing that it
 * was cold: the document opened a new connection (TCP and TLS handshakes) and no resource came from a
 * cache; and which protocol it spoke. Times: the navigation entry, ms from navigation start.
 */
import { launchChromium, settleBrowserUi } from '@pcp/profiler';
import { navigateAndAwaitLoad, LoadError } from '@pcp/replay';

type LaunchedBrowser = Awaited<ReturnType<typeof launchChromium>>;

/** What the page's Resource Timing says about one load's state. */
export interface Coldness {
  /** The document's request opened a new connection (connectEnd > connectStart). */
  newConnection: boolean;
  /** ... with a TLS handshake (secureConnectionStart > 0, before connectEnd); false for cleartext http. */
  tlsHandshake: boolean;
  /**
   * Resources of the main frame served from a cache (transferSize 0 with a body) that the load did not
   * also fetch over the network: a page using one URL twice reuses its own copy, which is no state
   * carried over from an earlier load.
   */
  cachedResources: number;
  /** The document's nextHopProtocol ('http/1.1', 'h2'). */
  protocol: string;
}

export interface ContextLoad {
  loadTime: number;
  domContentLoadedTime: number;
  cold: Coldness;
}

/** The fields of Resource Timing entries the check reads. */
export interface TimingEntry {
  name: string;
  connectStart: number;
  connectEnd: number;
  secureConnectionStart: number;
  transferSize: number;
  decodedBodySize: number;
  nextHopProtocol: string;
}

/** Coldness of a load from its navigation entry and the main frame's resource entries. Pure. */
export function coldness(nav: TimingEntry, resources: readonly TimingEntry[]): Coldness {
  const fetched = new Set(resources.filter((r) => r.transferSize > 0).map((r) => r.name));
  return {
    newConnection: nav.connectEnd > nav.connectStart,
    tlsHandshake: nav.secureConnectionStart > 0 && nav.connectEnd > nav.secureConnectionStart,
    cachedResources: resources.filter((r) => r.transferSize === 0 && r.decodedBodySize > 0 && !fetched.has(r.name)).length,
    protocol: nav.nextHopProtocol,
  };
}

/** Why a load was not cold, or undefined when it was. `tls`: the page is served over https. Pure. */
export function warmReason(c: Coldness, tls: boolean): string | undefined {
  if (!c.newConnection) return 'the document reused a connection';
  if (tls && !c.tlsHandshake) return 'the document skipped the TLS handshake';
  if (c.cachedResources > 0) return `${c.cachedResources} resource(s) came from a cache`;
  return undefined;
}

const FIELDS = ['name', 'connectStart', 'connectEnd', 'secureConnectionStart', 'transferSize', 'decodedBodySize', 'nextHopProtocol'];

/** Page-side: the navigation entry's load marks and timing fields, and the resource entries' fields. */
const READ_TIMING = `(() => {
  const pick = (e) => Object.fromEntries(${JSON.stringify(FIELDS)}.map((k) => [k, e[k]]));
  const n = performance.getEntriesByType('navigation')[0];
  if (!n || !(n.loadEventStart > 0)) return null;
  return { load: n.loadEventStart, dcl: n.domContentLoadedEventStart, nav: pick(n), resources: performance.getEntriesByType('resource').map(pick) };
})()`;

export interface LoadBrowser {
  load(url: string, timeoutMs?: number): Promise<ContextLoad>;
  close(): Promise<void>;
}

/** Starts Chromium (with the replay's switches, through `wrap`) for loads in fresh contexts. */
export async function openLoadBrowser(opts: { chromiumArgs: string[]; wrap?: (cmd: string, args: string[]) => { cmd: string; args: string[] } }): Promise<LoadBrowser> {
  const browser = await launchChromium({ extraArgs: opts.chromiumArgs, wrap: opts.wrap });
  try {
    await settleBrowserUi(browser);
  } catch (e) {
    await browser.close();
    throw e;
  }
  return { load: (url, timeoutMs = 60_000) => loadInContext(browser, url, timeoutMs), close: () => browser.close() };
}

async function loadInContext(browser: LaunchedBrowser, url: string, timeoutMs: number): Promise<ContextLoad> {
  const cdp = browser.cdp;
  const { browserContextId } = await cdp.send<{ browserContextId: string }>('Target.createBrowserContext', { disposeOnDetach: true });
  try {
    const { targetId } = await cdp.send<{ targetId: string }>('Target.createTarget', { url: 'about:blank', browserContextId, width: 1280, height: 800 });
    const { sessionId } = await cdp.send<{ sessionId: string }>('Target.attachToTarget', { targetId, flatten: true });
    await cdp.send('Page.enable', {}, sessionId);
    await navigateAndAwaitLoad(cdp, sessionId, url, timeoutMs);
    // loadEventStart is set as the event is dispatched: poll briefly until the entry has it.
    for (let i = 0; i < 50; i++) {
      const r = await cdp.send<{ result: { value?: { load: number; dcl: number; nav: TimingEntry; resources: TimingEntry[] } | null } }>('Runtime.evaluate', { expression: READ_TIMING, returnByValue: true }, sessionId);
      const v = r.result.value;
      if (v) return { loadTime: v.load, domContentLoadedTime: v.dcl, cold: coldness(v.nav, v.resources) };
      await new Promise((res) => setTimeout(res, 20));
    }
    throw new LoadError('the page has no Navigation Timing entry with a load time');
  } finally {
    await cdp.send('Target.disposeBrowserContext', { browserContextId }).catch(() => undefined);
  }
}
