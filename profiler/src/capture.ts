/**
 * One page load under the profiler: launch Chromium, trace and log the load in every frame, follow it
 * with the load monitor (load-monitor.ts) until the completion policy (completion.ts) ends it, and
 * write the bundle (see bundle.ts).
 *
 * Defaults: `quietMs` 1000 ms, `stallMs` 10 s, `timeoutMs` 60 s, `timerHorizonMs` 5 s, `timerCapMs` 10 s.
 * The page's single-shot timers are followed as they happen (timer-hook.ts): one due within the
 * horizon, or overdue, keeps the capture open, for at most the cap past the network's own quiet;
 * meta.json lists the timers still pending at the end (from the trace).
 */
import { mkdirSync, statSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import type { CdpEvent } from './cdp.ts';
import { BrowserMissingError, launchChromium, type LaunchedBrowser } from './chromium.ts';
import {
  BUNDLE_FILES, writeFileAtomic,
  type BundleMeta, type NetworkConditions, type CaptureStatus, type DevtoolsLogEntry, type DocumentSource, type EndReason,
} from './bundle.ts';
import { TASK_FLOW_CATEGORIES, TRACE_CATEGORIES } from './trace-config.ts';
import { collectListeners, defaultFrameContext, inProcessFrameRoots, type FrameContext } from './listeners.ts';
import { withTimeout } from './timeout.ts';
import { pickInterface, startPcap, type PcapCapture } from './pcap.ts';
import { buildHar, type RecordedBody } from './archive.ts';
import { collectFrames, iframeSessions } from './frames.ts';
import { saveTrace } from './trace-stream.ts';
import { summariseLog, summariseTrace } from './summary.ts';
import { LoadMonitor } from './load-monitor.ts';
import { completionVerdict, navigationVerdict } from './completion.ts';
import { installTimerHook } from './timer-hook.ts';
import { str, type Params } from './protocol-values.ts';
import { warmHttpCache, type CacheWarmUp } from './cache-warm-up.ts';

export interface CaptureOptions {
  executablePath?: string;
  timeoutMs?: number;
  quietMs?: number;
  /**
   * Quiet ends the capture no earlier than this long (ms) after the navigation was sent: a replayed
   * site whose source is known to be active until then (`pcp profile --replay` of a synthesized site).
   * Absent (the default): as soon as load fired and the page went quiet.
   */
  quietNotBeforeMs?: number;
  stallMs?: number;
  /**
   * A pending single-shot timer of the page due within this (ms; overdue ones included) keeps quiet from
   * ending the capture (default 5000; 0: timers are not followed and the page runs without the hook).
   */
  timerHorizonMs?: number;
  /** Timers keep the capture open at most this long (ms) after the network alone was quiet (default 10000). */
  timerCapMs?: number;
  viewport?: { width: number; height: number };
  userAgent?: string;
  hostResolverRules?: string;
  ignoreCertificateErrors?: boolean;
  pcap?: boolean;
  pcapInterface?: string;
  pcapFilter?: string;
  sslKeyLog?: boolean;
  /** Record no trace (the benchmark's baseline); the bundle then has no trace.json.gz. */
  noTrace?: boolean;
  categories?: readonly string[];
  /** Also record posted-task flows (TASK_FLOW_CATEGORIES): links MessagePort messages to their sender. */
  taskFlows?: boolean;
  /** Also archive every response with its body (archive.har, HAR 1.2) for `pcp replay`. */
  archive?: boolean;
  /**
   * Emulate a focused tab (default true): headless Chromium otherwise dispatches no focus or blur event,
   * and whatever a page does from them (a script's element.focus() handler) never happens.
   */
  focusEmulation?: boolean;
  /**
   * Site isolation (default true, Chromium's own): false runs cross-site iframes in their parent's
   * renderer (chromium.ts NO_SITE_ISOLATION_SWITCH), as the 2016 browser of the legacy corpus did.
   */
  siteIsolation?: boolean;
  /** More Chromium switches (e.g. the replay's --ignore-certificate-errors-spki-list). */
  chromiumArgs?: string[];
  /** Start Chromium through this (a shaped link's client namespace); record the link in `conditions`. */
  wrap?: (cmd: string, args: string[]) => { cmd: string; args: string[] };
  /** The network the page was loaded through, recorded in meta.json (options.conditions). */
  conditions?: NetworkConditions;
  /** Before the measured load, put these responses in the browser's HTTP cache (cache-warm-up.ts). */
  warmCache?: CacheWarmUp;
}

export interface CaptureResult {
  dir: string;
  meta: BundleMeta;
}

const TOOL = { name: 'pcp-profiler', version: '0.1.0' };

/**
 * Protocol events kept in the DevTools log. Runtime.exceptionThrown: an uncaught exception fires the
 * window's error event, which the trace does not show; the builder places it from this report.
 */
const LOGGED = /^(?:(?:Network|Page|Target|Inspector)\.|Runtime\.exceptionThrown$)/;


export async function capturePage(url: string, dir: string, opts: CaptureOptions = {}): Promise<CaptureResult> {
  const t0 = Date.now();
  const since = (): number => Date.now() - t0;
  mkdirSync(dir, { recursive: true });
  const timeoutMs = opts.timeoutMs ?? 60_000;
  const quietMs = opts.quietMs ?? 1000;
  const stallMs = opts.stallMs ?? 10_000;
  const timerHorizonMs = opts.timerHorizonMs ?? 5000;
  const timerCapMs = opts.timerCapMs ?? 10_000;
  const viewport = opts.viewport ?? { width: 1280, height: 800 };
  const focusEmulation = opts.focusEmulation ?? true;
  const siteIsolation = opts.siteIsolation ?? true;
  const categories = [...new Set([...(opts.categories ?? TRACE_CATEGORIES), ...(opts.taskFlows ? TASK_FLOW_CATEGORIES : [])])];
  const warnings: string[] = [];
  const meta: BundleMeta = {
    format: 'pcp-bundle/1',
    tool: TOOL,
    url,
    status: 'failed',
    endReason: 'error',
    message: '',
    warnings,
    options: {
      timeoutMs, quietMs, ...(opts.quietNotBeforeMs !== undefined ? { quietNotBeforeMs: opts.quietNotBeforeMs } : {}), stallMs, timerHorizonMs, timerCapMs, viewport, userAgent: opts.userAgent, hostResolverRules: opts.hostResolverRules,
      ignoreCertificateErrors: Boolean(opts.ignoreCertificateErrors), pcap: Boolean(opts.pcap), sslKeyLog: Boolean(opts.sslKeyLog), categories,
      archive: Boolean(opts.archive),
      focusEmulation,
      siteIsolation,
      conditions: opts.conditions,
    },
    timings: { startedAt: new Date(t0).toISOString(), endMs: 0 },
    counts: { requests: 0, failedRequests: 0, servedFromCache: 0, frames: 0, childTargets: 0 },
    inFlightAtEnd: 0,
    files: [],
  };
  const finish = (status: CaptureStatus, endReason: EndReason, message: string): CaptureResult => {
    meta.status = status;
    meta.endReason = endReason;
    meta.message = message;
    meta.timings.endMs = since();
    meta.files = Object.values(BUNDLE_FILES).filter((f) => f === BUNDLE_FILES.meta || existsSync(join(dir, f)));
    writeFileAtomic(join(dir, BUNDLE_FILES.meta), JSON.stringify(meta, null, 2) + '\n');
    return { dir, meta };
  };

  try {
    new URL(url);
  } catch {
    return finish('failed', 'error', `not a URL: ${url}`);
  }

  let browser: LaunchedBrowser;
  try {
    browser = await launchChromium({
      executablePath: opts.executablePath, viewport, userAgent: opts.userAgent, hostResolverRules: opts.hostResolverRules,
      ignoreCertificateErrors: opts.ignoreCertificateErrors,
      sslKeyLogFile: opts.sslKeyLog ? join(dir, BUNDLE_FILES.tlsKeys) : undefined,
      siteIsolation,
      extraArgs: opts.chromiumArgs,
      wrap: opts.wrap,
    });
  } catch (e) {
    if (e instanceof BrowserMissingError) return finish('failed', 'browser-missing', e.message);
    return finish('failed', 'error', (e as Error).message);
  }
  meta.commandLine = browser.commandLine;
  const cdp = browser.cdp;
  let pcap: PcapCapture | undefined;
  try {
    const version = await cdp.send<{ product: string; revision: string; userAgent: string; jsVersion: string; protocolVersion: string }>('Browser.getVersion');
    meta.browser = { product: version.product, revision: version.revision, userAgent: version.userAgent, jsVersion: version.jsVersion, protocolVersion: version.protocolVersion };
    await settleBrowserUi(browser);
    meta.timings.browserReadyMs = since();
    let warmTarget = '';
    if (opts.warmCache && opts.warmCache.urls.length) {
      const w = await warmHttpCache(cdp, opts.warmCache, timeoutMs);
      warmTarget = w.targetId;
      meta.cacheWarmUp = { urls: opts.warmCache.urls.length, warmed: w.warmed, failed: w.failed.length };
      if (w.failed.length) warnings.push(`cache warm-up: ${w.failed.length} of ${opts.warmCache.urls.length} responses not fetched (first: ${w.failed[0]!.url}: ${w.failed[0]!.error})`);
    }

    // --- state fed by protocol events ---------------------------------------------------------
    const log: DevtoolsLogEntry[] = [];
    const sessions = new Map<string, { targetType: string; targetId: string }>(); // child sessions only
    let pageSession = '';
    let mainFrameId = '';
    const monitor = new LoadMonitor();
    let logging = true;
    const htmlDocs = new Map<string, DocumentSource & { pending?: Promise<void> }>();
    // Each frame's main world, for the listeners of frames that share a renderer (listeners.ts).
    const frameContexts = new Map<string, FrameContext>();
    // Response bodies, asked for as soon as each response finishes (before Chromium evicts them);
    // one request per request id, in the session that saw it finish.
    const bodies = new Map<string, Promise<RecordedBody>>();
    const fetchBody = (requestId: string, sid: string): Promise<RecordedBody> => {
      let b = bodies.get(requestId);
      if (!b) {
        b = cdp.send<{ body: string; base64Encoded: boolean }>('Network.getResponseBody', { requestId }, sid || undefined)
          .then((r): RecordedBody => ({ body: r.body, base64Encoded: r.base64Encoded }), (e: Error): RecordedBody => ({ error: e.message }));
        bodies.set(requestId, b);
      }
      return b;
    };
    const onEvent = (ev: CdpEvent): void => {
      const sid = ev.sessionId ?? '';
      if (!pageSession || (sid !== pageSession && !sessions.has(sid))) {
        if (ev.method === 'Browser.downloadWillBegin') monitor.downloadBegan();
        return;
      }
      // After the capture ended (leaving a page that never loaded), nothing more belongs to it.
      if (!logging) return;
      if (LOGGED.test(ev.method)) {
        const entry: DevtoolsLogEntry = { method: ev.method, params: ev.params };
        const child = sessions.get(sid);
        if (child) {
          entry.sessionId = sid;
          entry.targetType = child.targetType;
        }
        log.push(entry);
      }
      const p = ev.params;
      const key = str(p.requestId);
      switch (ev.method) {
        case 'Network.requestWillBeSent':
          if (sid === pageSession && meta.timings.navigationStartMonotonic === undefined && p.type === 'Document') {
            meta.timings.navigationStartMonotonic = p.timestamp as number;
          }
          break;
        case 'Network.responseReceived':
          if (p.type === 'Document') {
            const r = p.response as Params;
            htmlDocs.set(key, { requestId: key, url: str(r.url), frameId: str(p.frameId), mimeType: str(r.mimeType) });
          }
          break;
        case 'Network.loadingFinished': {
          if (opts.archive) void fetchBody(key, sid);
          const doc = htmlDocs.get(key);
          if (doc && !doc.pending) {
            // Keep each HTML document's source: trace positions (parser initiators, ParseHTML
            // lines) are only meaningful against it, and they lag behind the tags in trickled documents.
            doc.pending = fetchBody(key, sid).then((b) => {
              if ('error' in b) doc.error = b.error;
              else { doc.body = b.body; doc.base64Encoded = b.base64Encoded; }
            });
          }
          break;
        }
        case 'Page.loadEventFired':
          if (sid === pageSession && !monitor.loadFired) {
            meta.timings.loadMs = since();
            meta.timings.loadMonotonic = p.timestamp as number;
          }
          break;
        case 'Page.domContentEventFired':
          if (sid === pageSession && meta.timings.domContentLoadedMs === undefined) meta.timings.domContentLoadedMs = since();
          break;
        case 'Target.attachedToTarget':
          void attachChild(p);
          break;
        case 'Runtime.executionContextCreated': {
          const ctx = defaultFrameContext(p as Parameters<typeof defaultFrameContext>[0]);
          if (ctx) frameContexts.set(ctx.frameId, { sessionId: sid, contextId: ctx.contextId });
          break;
        }
        case 'Target.detachedFromTarget':
          // Keep the mapping: late events of a detached session are dropped by Chromium anyway.
          break;
      }
      const crashLabel = sid === pageSession ? 'the page renderer crashed' : `a child target's renderer crashed (${sessions.get(sid)?.targetType})`;
      monitor.observe(ev.method, p, sid === pageSession, crashLabel, sid);
    };

    const attachChild = async (p: Params): Promise<void> => {
      const sid = str(p.sessionId);
      const info = (p.targetInfo ?? {}) as Params;
      const type = str(info.type);
      sessions.set(sid, { targetType: type, targetId: str(info.targetId) });
      meta.counts.childTargets++;
      const tries: Promise<unknown>[] = [cdp.send('Network.enable', {}, sid)];
      if (type === 'iframe' || type === 'page') {
        tries.push(cdp.send('Page.enable', {}, sid), cdp.send('Inspector.enable', {}, sid), cdp.send('Runtime.enable', {}, sid));
        // An out-of-process frame's renderer keeps its own focus state.
        if (focusEmulation) tries.push(cdp.send('Emulation.setFocusEmulationEnabled', { enabled: true }, sid));
        if (timerHorizonMs > 0) tries.push(installTimerHook(cdp, sid));
      }
      // Nested out-of-process frames and the frames' workers.
      tries.push(cdp.send('Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: true, flatten: true }, sid));
      await Promise.allSettled(tries);
      await cdp.send('Runtime.runIfWaitingForDebugger', {}, sid).catch(() => {});
    };

    cdp.on('event', onEvent);
    cdp.once('close', () => monitor.browserClosed());

    const targets = await cdp.send<{ targetInfos: { targetId: string; type: string }[] }>('Target.getTargets');
    const page = targets.targetInfos.find((t) => t.type === 'page' && t.targetId !== warmTarget);
    if (!page) throw new Error('Chromium started without a page target');
    pageSession = (await cdp.send<{ sessionId: string }>('Target.attachToTarget', { targetId: page.targetId, flatten: true })).sessionId;
    await cdp.send('Browser.setDownloadBehavior', { behavior: 'deny', eventsEnabled: true }).catch(() => {});

    if (opts.pcap) {
      const iface = opts.pcapInterface ?? (await pickInterface(url, opts.hostResolverRules));
      pcap = await startPcap(join(dir, BUNDLE_FILES.pcap), iface, opts.pcapFilter);
    }
    if (!opts.noTrace) {
      // On the page's session, as DevTools' Performance panel does: the browser then writes the frame
      // list into TracingStartedInBrowser (empty when started from the browser target, and the trace
      // engine refuses such a trace: "No frames found") and limits tracing to the browser, the GPU
      // process and the page's renderers (out-of-process iframes included), leaving out the network
      // and storage services and Chromium's WebUI renderer, none of which the graph builder reads.
      await cdp.send('Tracing.start', {
        transferMode: 'ReturnAsStream',
        streamFormat: 'json',
        streamCompression: 'gzip',
        traceConfig: { recordMode: 'recordAsMuchAsPossible', includedCategories: categories, excludedCategories: ['*'] },
      }, pageSession);
    }
    await Promise.all([
      cdp.send('Page.enable', {}, pageSession),
      cdp.send('Network.enable', {}, pageSession),
      cdp.send('Inspector.enable', {}, pageSession),
      cdp.send('Runtime.enable', {}, pageSession),
      cdp.send('Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: true, flatten: true }, pageSession),
      ...(focusEmulation ? [cdp.send('Emulation.setFocusEmulationEnabled', { enabled: true }, pageSession)] : []),
      ...(timerHorizonMs > 0 ? [installTimerHook(cdp, pageSession)] : []),
    ]);

    meta.timings.navigateMs = since();
    const deadline = t0 + meta.timings.navigateMs + timeoutMs;
    const quietFrom = opts.quietNotBeforeMs !== undefined ? t0 + meta.timings.navigateMs + opts.quietNotBeforeMs : undefined;
    type Nav = { frameId: string; loaderId?: string; errorText?: string; isDownload?: boolean };
    // A renderer that dies mid-navigation (or a browser that hangs) never answers Page.navigate.
    let navAnswered = false;
    const nav = await Promise.race([
      cdp.send<Nav>('Page.navigate', { url }, pageSession),
      monitor.until(() => navAnswered || Boolean(monitor.crashed) || monitor.browserGone || Date.now() >= deadline).then(() => undefined),
    ]);
    navAnswered = true;
    mainFrameId = nav?.frameId ?? page.targetId;
    if (nav?.errorText && !nav.isDownload) {
      // A crash or download aborts the navigation (net::ERR_ABORTED) just before it is reported.
      const grace = Date.now() + 1000;
      await monitor.until(() => Boolean(monitor.crashed) || monitor.downloadSeen || monitor.browserGone || Date.now() >= grace);
    }
    const navEnd = navigationVerdict(nav, monitor.state(deadline));
    let endReason: EndReason;
    let timerCap = false;
    const navError = navEnd?.navError ?? '';
    if (navEnd) endReason = navEnd.reason;
    else {
      // Wait for load, then quiet; judged on every event and at least every 100 ms.
      for (;;) {
        const v = completionVerdict(monitor.state(deadline, quietFrom), { quietMs, stallMs, timerHorizonMs, timerCapMs });
        if (v.end) { endReason = v.reason; timerCap = Boolean(v.timerCap); break; }
        if (v.heldByTimers) monitor.timersHeldSince ??= Date.now();
        await monitor.next();
      }
    }
    if (timerHorizonMs > 0) {
      const t = monitor.timers;
      const heldMs = monitor.timersHeldSince === undefined ? 0 : Date.now() - monitor.timersHeldSince;
      meta.timerWait = { installed: t.installed, fired: t.fired, heldMs, capReached: timerCap };
      if (timerCap) warnings.push(`timers kept the page busy for the whole ${timerCapMs} ms timer cap after the network was quiet (a timer re-armed again and again, or one held up); the capture ended there`);
    }
    // The end's instant on the trace clock: timers due before it that ran after it were held up (summary.ts).
    if (endReason === 'quiet' && meta.timings.loadMonotonic !== undefined && meta.timings.loadMs !== undefined) meta.timings.endedMonotonic = meta.timings.loadMonotonic + (since() - meta.timings.loadMs) / 1000;
    meta.inFlightAtEnd = monitor.inFlight.size;
    // --- collect -------------------------------------------------------------------------------
    let traceOk = false;
    const { crashed, loadFired } = monitor;
    if (!monitor.browserGone) {
      // A crashed renderer never answers: do not wait long for its frame tree.
      const frames = await collectFrames(browser, pageSession, sessions, log, mainFrameId, crashed ? 300 : 5000);
      writeFileAtomic(join(dir, BUNDLE_FILES.frames), JSON.stringify(frames, null, 2) + '\n');
      meta.counts.frames = frames.frames.length;
      await withTimeout(Promise.all([...htmlDocs.values()].map((d) => d.pending)), 5000, 'document bodies').catch(() => {});
      const docs: DocumentSource[] = [...htmlDocs.values()].map(({ pending: _pending, ...d }) => d);
      writeFileAtomic(join(dir, BUNDLE_FILES.documents), JSON.stringify(docs) + '\n');
      if (opts.archive) await writeArchive(dir, meta, log, bodies);
      meta.finalUrl = frames.frames.find((f) => f.id === mainFrameId)?.url;
      if (!loadFired) {
        // A document still loading holds up the renderer's trace flush (seen with a main document
        // whose body never ends): leave the page, after freezing the log so the exit is not in it.
        logging = false;
        await withTimeout(cdp.send('Page.navigate', { url: 'about:blank' }, pageSession), 5000, 'about:blank').catch(() => {});
      }
      if (!opts.noTrace) {
        try {
          await saveTrace(browser, pageSession, join(dir, BUNDLE_FILES.trace));
          traceOk = true;
        } catch (e) {
          warnings.push(`trace not saved: ${(e as Error).message}`);
        }
      }
      // After tracing, so that the evaluations it takes stay out of the trace.
      if (loadFired && !crashed) {
        const roots = [
          { sessionId: pageSession, frameId: mainFrameId },
          ...iframeSessions(sessions).map(([sessionId, v]) => ({ sessionId, frameId: v.targetId })),
          ...inProcessFrameRoots(frames.frames, mainFrameId, frameContexts),
        ];
        writeFileAtomic(join(dir, BUNDLE_FILES.listeners), JSON.stringify(await collectListeners(cdp, roots, 2000)) + '\n');
      }
    } else {
      warnings.push('the browser went away: no frame tree and no trace');
    }
    writeFileAtomic(join(dir, BUNDLE_FILES.devtoolsLog), JSON.stringify(log) + '\n');
    summariseLog(meta, log, mainFrameId);
    if (traceOk) summariseTrace(meta, join(dir, BUNDLE_FILES.trace), warnings);
    if (pcap) {
      const r = await pcap.stop();
      const bytes = existsSync(join(dir, BUNDLE_FILES.pcap)) ? statSync(join(dir, BUNDLE_FILES.pcap)).size : 0;
      meta.pcap = { interface: pcap.interface, packets: r.packets, bytes };
      pcap = undefined;
    }
    await browser.close();

    const doc = meta.mainDocument;
    if (doc && doc.status >= 400) warnings.push(`the main document answered HTTP ${doc.status}`);
    switch (endReason) {
      case 'quiet':
        return finish('complete', endReason, `loaded in ${meta.timings.loadMs! - meta.timings.navigateMs} ms, quiet ${quietMs} ms after${opts.quietNotBeforeMs !== undefined ? ` (not before ${opts.quietNotBeforeMs} ms)` : ''}${meta.timerWait?.heldMs ? `, timers held it ${meta.timerWait.heldMs} ms${timerCap ? ' (the cap)' : ''}` : ''}`);
      case 'timeout':
        return finish('complete', endReason, `loaded, but still busy when the ${timeoutMs} ms cap was reached (${meta.inFlightAtEnd} requests in flight)`);
      case 'no-load':
        return finish(traceOk ? 'partial' : 'failed', endReason, `the load event did not fire within ${timeoutMs} ms (${meta.inFlightAtEnd} requests in flight)`);
      case 'renderer-crash':
        return finish(traceOk && meta.counts.requests > 0 ? 'partial' : 'failed', endReason, crashed);
      case 'download':
        return finish('failed', endReason, 'the URL is a download, not a page');
      case 'unreachable':
        return finish('failed', endReason, `navigation failed: ${navError}`);
      default:
        return finish('failed', endReason, `the browser exited during the capture: ${browser.stderrTail().trim().split('\n').slice(-2).join(' | ')}`);
    }
  } catch (e) {
    if (pcap) await pcap.stop().catch(() => {});
    await browser.close().catch(() => {});
    return finish('failed', 'error', (e as Error).message);
  }
}

/** archive.har from the log and the bodies fetched during the load; its counts go to meta.archive. */
async function writeArchive(dir: string, meta: BundleMeta, log: DevtoolsLogEntry[], pending: Map<string, Promise<RecordedBody>>): Promise<void> {
  const bodies = new Map<string, RecordedBody>();
  const all = Promise.all([...pending].map(async ([id, b]) => { bodies.set(id, await b); }));
  await withTimeout(all, 30_000, 'response bodies').catch(() => {});
  for (const id of pending.keys()) if (!bodies.has(id)) bodies.set(id, { error: 'Network.getResponseBody did not answer within 30 s' });
  const navStart = log.find((e) => e.method === 'Network.requestWillBeSent' && !e.sessionId && e.params.type === 'Document');
  const { har, summary } = buildHar(log, bodies, {
    creator: TOOL, browser: meta.browser?.product, pageUrl: meta.url,
    pageStarted: navStart ? new Date(Number(navStart.params.wallTime) * 1000).toISOString() : undefined,
    onContentLoad: meta.timings.domContentLoadedMs !== undefined && meta.timings.navigateMs !== undefined ? meta.timings.domContentLoadedMs - meta.timings.navigateMs : undefined,
    onLoad: meta.timings.loadMs !== undefined && meta.timings.navigateMs !== undefined ? meta.timings.loadMs - meta.timings.navigateMs : undefined,
  });
  writeFileAtomic(join(dir, BUNDLE_FILES.archive), JSON.stringify(har) + '\n');
  meta.archive = summary;
  if (summary.missingBodies) meta.warnings.push(`archive: ${summary.missingBodies} of ${summary.entries} response bodies could not be recorded (see _bodyMissing in ${BUNDLE_FILES.archive})`);
}

/** Let Chromium's own WebUI (the headless omnibox popup) finish loading before we trace, so it does not compete. */
export async function settleBrowserUi(browser: LaunchedBrowser): Promise<void> {
  const cdp = browser.cdp;
  const t0 = Date.now();
  const { targetInfos } = await cdp.send<{ targetInfos: { targetId: string; type: string }[] }>('Target.getTargets', { filter: [{}] });
  for (const t of targetInfos.filter((x) => x.type === 'browser_ui')) {
    try {
      const { sessionId } = await cdp.send<{ sessionId: string }>('Target.attachToTarget', { targetId: t.targetId, flatten: true });
      while (Date.now() - t0 < 5000) {
        const r = await cdp.send<{ result: { value?: unknown } }>('Runtime.evaluate', { expression: 'document.readyState', returnByValue: true }, sessionId);
        if (r.result.value === 'complete') break;
        await new Promise((res) => setTimeout(res, 50));
      }
      await cdp.send('Target.detachFromTarget', { sessionId });
    } catch {
      // Best effort: the capture works without it, only noisier.
    }
  }
}
