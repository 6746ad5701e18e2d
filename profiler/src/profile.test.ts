/**
 * The profiler against real Chromium and the test server on loopback. Expectations come from the
 * test pages' construction (profiler/test-sites/*): which URLs they request, which origin is a
 * cross-site iframe, which requests redirect or fail.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, statSync, existsSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { capturePage } from './capture.ts';
import { profileMany, bundleDirFor } from './batch.ts';
import { BUNDLE_FILES, isComplete, readBundleMeta, readDevtoolsLog, readDocuments, readFramesFile, readListeners, type DevtoolsLogEntry, type BundleMeta } from './bundle.ts';
import { listSuite, startSuiteServer, SITES_DIR } from '../fidelity/suite.ts';
import { requestedUrls } from '../fidelity/requests.ts';
import type { TestServer } from '../test-server/server.ts';
import { holdRefusedUrl } from './testing/refused.ts';

let server: TestServer;
let work: string;
before(async () => {
  server = await startSuiteServer();
  work = mkdtempSync(join(tmpdir(), 'pcp-profile-test-'));
});
after(async () => {
  await server.close();
  rmSync(work, { recursive: true, force: true });
});

const opts = () => ({ hostResolverRules: server.hostResolverRules, ignoreCertificateErrors: true, quietMs: 500 });
/** Through the contract's validating reader: a real capture proves writer and readers agree. */
const readLog = (dir: string): DevtoolsLogEntry[] => readDevtoolsLog(dir)!.log;

test('a page with a cross-site HTTP/2 iframe: complete bundle, every frame logged, pcap and TLS keys', async () => {
  const page = listSuite().find((p) => p.name === 'mix-cross-origin-iframe')!;
  const url = server.urls.a + page.path.slice(1);
  const dir = join(work, 'xo');
  const { meta } = await capturePage(url, dir, { ...opts(), pcap: true, sslKeyLog: true });
  assert.equal(meta.status, 'complete', meta.message);
  assert.equal(meta.endReason, 'quiet');
  assert.match(meta.browser!.product, /Chrome\/\d+/);
  assert.ok(meta.commandLine!.includes('--disable-background-networking'));
  assert.ok(meta.timings.loadMs! > meta.timings.navigateMs!);

  // The trace is a standard Chrome trace with the builder's events, from both renderers.
  const trace = JSON.parse(gunzipSync(readFileSync(join(dir, BUNDLE_FILES.trace))).toString('utf8')) as { traceEvents: { name: string; pid: number; args?: { data?: { url?: string } } }[] };
  assert.ok(Array.isArray(trace.traceEvents));
  const names = new Set(trace.traceEvents.map((e) => e.name));
  for (const n of ['TracingStartedInBrowser', 'ParseHTML', 'EvaluateScript', 'ResourceSendRequest', 'ResourceFinish', 'TimerInstall', 'TimerFire', 'MarkDOMContent', 'MarkLoad', 'ParseAuthorStyleSheet']) {
    assert.ok(names.has(n), `trace has ${n}`);
  }
  const sendPids = (suffix: string): Set<number> => new Set(trace.traceEvents.filter((e) => e.name === 'ResourceSendRequest' && e.args?.data?.url?.endsWith(suffix)).map((e) => e.pid));
  const mainPid = [...sendPids('/main.png')][0];
  const framePid = [...sendPids('/widget-logo.png')][0];
  assert.ok(mainPid !== undefined && framePid !== undefined && mainPid !== framePid, 'the cross-site iframe ran in its own renderer and is traced');

  // The DevTools log holds a requestWillBeSent for every resource the page's source declares,
  // the iframe's under its own session.
  const want = page.expected.resources.map((r) => new URL(server.expand(r.url), url).href);
  const got = requestedUrls(dir);
  for (const u of [url, ...want]) assert.ok(got.includes(u), `requested ${u}`);
  const log = readLog(dir);
  const logo = log.find((e) => e.method === 'Network.requestWillBeSent' && (e.params.request as { url: string }).url.endsWith('/widget-logo.png'))!;
  assert.equal(logo.targetType, 'iframe');
  assert.ok(logo.sessionId);
  assert.ok(log.some((e) => e.method === 'Page.loadEventFired' && !e.sessionId));
  const h2 = log.find((e) => e.method === 'Network.responseReceived' && (e.params.response as { url: string }).url.endsWith('/widget.js'))!;
  assert.equal((h2.params.response as { protocol: string }).protocol, 'h2');

  const frames = readFramesFile(dir)!;
  assert.equal(frames.frames.length, 2);
  const child = frames.frames.find((f) => f.parentId === frames.mainFrameId)!;
  assert.equal(child.url, server.expand('{{origin:c}}/mix-cross-origin-iframe/widget.html'));
  assert.equal(child.outOfProcess, true);

  // documents.json: the source of both HTML documents, exactly as served (placeholders expanded).
  const docs = readDocuments(dir)!;
  assert.ok(readListeners(dir), 'listeners.json is written and passes its reader');
  assert.equal(readBundleMeta(dir)?.status, 'complete');
  const source = (f: string): string => server.expand(readFileSync(join(SITES_DIR, 'mix-cross-origin-iframe', f), 'utf8'));
  assert.equal(docs.find((d) => d.url === url)?.body, source('index.html'));
  assert.equal(docs.find((d) => d.url === child.url)?.body, source('widget.html'));

  // pcap: a real capture file (pcap magic) with packets; the key log has TLS 1.3 secrets for origin c.
  const pcap = readFileSync(join(dir, BUNDLE_FILES.pcap));
  assert.ok(pcap.length > 1000);
  assert.equal(pcap.readUInt32LE(0), 0xa1b2c3d4);
  assert.equal(meta.pcap!.interface, 'lo');
  assert.match(readFileSync(join(dir, BUNDLE_FILES.tlsKeys), 'utf8'), /^CLIENT_HANDSHAKE_TRAFFIC_SECRET /m);
});

test('redirects, disk-cache hits, 404s and failed requests are in the DevTools log', async () => {
  const url = `${server.urls.a}profiler-network-cases/`;
  const dir = join(work, 'net');
  const { meta } = await capturePage(url, dir, opts());
  assert.equal(meta.status, 'complete', meta.message);
  const log = readLog(dir);
  const sent = log.filter((e) => e.method === 'Network.requestWillBeSent');
  const redirect = sent.find((e) => e.params.redirectResponse);
  assert.ok(redirect, 'the redirect hop is recorded');
  assert.equal((redirect.params.redirectResponse as { status: number }).status, 302);
  assert.match((redirect.params.request as { url: string }).url, /\/target\.png$/);
  const failed = log.filter((e) => e.method === 'Network.loadingFailed');
  assert.ok(failed.length >= 1 && meta.counts.failedRequests >= 1, 'refused.js failed');
  const responses = log.filter((e) => e.method === 'Network.responseReceived').map((e) => e.params.response as { url: string; status: number; fromDiskCache: boolean });
  assert.ok(responses.some((r) => r.url.endsWith('/not-there.png') && r.status === 404));
  // same.png again by XHR and by script after load: answered from cache, not the server.
  assert.ok(responses.some((r) => r.url.endsWith('/same.png') && r.fromDiskCache));
  assert.equal(server.requests.filter((r) => r.path === '/profiler-network-cases/same.png').length, 1);
});

test('focus emulation (the default): element.focus() fires focus and blur, in the page and in a cross-site frame', async () => {
  const url = `${server.urls.a}profiler-focus/`;
  const names = (dir: string): string[] => requestedUrls(dir).map((u) => u.slice(u.lastIndexOf('/') + 1));
  const on = join(work, 'focus-on');
  const { meta } = await capturePage(url, on, opts());
  assert.equal(meta.status, 'complete', meta.message);
  assert.equal(meta.options.focusEmulation, true);
  assert.equal(readBundleMeta(on)?.options.focusEmulation, true);
  const got = names(on);
  for (const f of ['focused.png', 'blurred.png', 'frame-focused.png']) assert.ok(got.includes(f), `${f} requested: ${got.join(' ')}`);
  // Without it, headless Chromium dispatches none of them: the handlers never run.
  const off = join(work, 'focus-off');
  const without = await capturePage(url, off, { ...opts(), focusEmulation: false });
  assert.equal(without.meta.options.focusEmulation, false);
  const gotOff = names(off);
  for (const f of ['focused.png', 'blurred.png', 'frame-focused.png']) assert.ok(!gotOff.includes(f), `${f} not requested: ${gotOff.join(' ')}`);
  assert.ok(gotOff.includes('frame.html'), 'the frame loaded');
});

test('a page that never fires load ends at the cap with a partial bundle', async () => {
  const dir = join(work, 'noload');
  const { meta } = await capturePage(`${server.urls.a}profiler-never-loads/`, dir, { ...opts(), timeoutMs: 5000 });
  assert.equal(meta.status, 'partial');
  assert.equal(meta.endReason, 'no-load');
  assert.equal(meta.inFlightAtEnd, 1);
  assert.ok(existsSync(join(dir, BUNDLE_FILES.trace)), `trace saved (${meta.warnings.join('; ')})`);
  assert.equal(meta.timings.loadMs, undefined);
});

test('completion reasons: busy at the cap, a stalled long poll, a renderer crash', async () => {
  // Polls every 200 ms after load: never quiet for 2 s (ten poll intervals, so a busy machine's late
  // timers cannot make it look quiet), so the 6 s cap ends it, load having fired.
  const busy = await capturePage(`${server.urls.a}profiler-busy/`, join(work, 'busy'), { ...opts(), quietMs: 2000, timeoutMs: 6000 });
  assert.equal(busy.meta.status, 'complete');
  assert.equal(busy.meta.endReason, 'timeout');
  assert.ok(busy.meta.counts.requests >= 3, `polled ${busy.meta.counts.requests} times`);
  // A fetch that never answers, after load: it stops counting once stalled (1 s here), then quiet.
  const hung = await capturePage(`${server.urls.a}profiler-hung-poll/`, join(work, 'hung'), { ...opts(), stallMs: 1000, timeoutMs: 20_000 });
  assert.equal(hung.meta.endReason, 'quiet');
  assert.equal(hung.meta.inFlightAtEnd, 1);
  assert.ok(hung.meta.timings.endMs - hung.meta.timings.loadMs! < 10_000);
  // chrome://crash kills the renderer during navigation.
  const crash = await capturePage('chrome://crash', join(work, 'crash'), opts());
  assert.equal(crash.meta.endReason, 'renderer-crash');
  assert.equal(crash.meta.status, 'failed', 'nothing was loaded');
  assert.match(crash.meta.message, /renderer crashed/);
});

test('unreachable URL, download, missing browser: failed with the reason; a batch goes on and resumes', async (t) => {
  // Connection refused, on a port held for the test (a port merely closed could be taken meanwhile).
  const held = await holdRefusedUrl();
  t.after(() => held.close());
  const good = `${server.urls.a}r01-parse-resource/`;
  const refused = held.url;
  const download = `${server.urls.a}_pcp/download?size=2048`;
  const out = join(work, 'batch');
  const first = await profileMany([good, refused, download], out, { ...opts(), concurrency: 2 });
  const by = (u: string): BundleMeta => first.find((i) => i.url === u)!.meta!;
  assert.equal(by(good).status, 'complete');
  assert.equal(by(refused).status, 'failed');
  assert.equal(by(refused).endReason, 'unreachable');
  assert.match(by(refused).message, /ERR_CONNECTION_REFUSED/);
  assert.equal(by(download).status, 'failed');
  assert.equal(by(download).endReason, 'download');
  const index = JSON.parse(readFileSync(join(out, 'index.json'), 'utf8')) as { url: string; status: string }[];
  assert.deepEqual(index.map((i) => i.status), ['complete', 'failed', 'failed']);

  // Resume: the complete bundle is kept as is, the failed ones are tried again.
  const stamp = statSync(join(bundleDirFor(out, good), BUNDLE_FILES.meta)).mtimeMs;
  const second = await profileMany([good, refused], out, { ...opts(), concurrency: 2 });
  assert.equal(second[0]!.skipped, true);
  assert.equal(second[1]!.skipped, false);
  assert.equal(statSync(join(bundleDirFor(out, good), BUNDLE_FILES.meta)).mtimeMs, stamp);

  const missing = await capturePage(good, join(work, 'nobrowser'), { ...opts(), executablePath: join(work, 'no-such-chromium') });
  assert.equal(missing.meta.status, 'failed');
  assert.equal(missing.meta.endReason, 'browser-missing');
  assert.match(missing.meta.message, /not found/);
});

test('a half-written bundle is not taken for complete', () => {
  const dir = join(work, 'half');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, BUNDLE_FILES.meta), '{"status": "compl');
  assert.equal(isComplete(dir), false);
  writeFileSync(join(dir, BUNDLE_FILES.meta), '{"status": "partial"}');
  assert.equal(isComplete(dir), false);
});

test('a renderer held past the quiet window: the capture waits for the timer it owed, and has its request', async () => {
  // The load handler holds the main thread 4 s; the 30 ms timer set before load is due long before quiet
  // (500 ms) would end the capture, and runs only after the hold: the overdue timer keeps quiet off.
  const dir = join(work, 'held');
  const { meta } = await capturePage(`${server.urls.a}profiler-held-renderer/`, dir, opts());
  assert.equal(meta.endReason, 'quiet', meta.message);
  assert.ok(requestedUrls(dir).some((u) => u.endsWith('/profiler-held-renderer/late.txt')), 'the timer\'s fetch is in the first profile');
  assert.equal(meta.timers?.overdueAtEnd, undefined, JSON.stringify(meta.timers));
  assert.ok(meta.timerWait!.heldMs > 0 && !meta.timerWait!.capReached, JSON.stringify(meta.timerWait));
  assert.ok(meta.timerWait!.fired >= 2, 'both timers reported fired');
  assert.equal(meta.options.timerHorizonMs, 5000);
  assert.equal(meta.options.timerCapMs, 10_000);
});

test('a timer re-armed forever: the capture ends at the timers\' cap, with a warning', async () => {
  const { meta } = await capturePage(`${server.urls.a}profiler-timer-rearm/`, join(work, 'rearm'), { ...opts(), timerCapMs: 2000 });
  assert.equal(meta.status, 'complete', meta.message);
  assert.equal(meta.endReason, 'quiet');
  assert.equal(meta.timerWait!.capReached, true, JSON.stringify(meta.timerWait));
  assert.ok(meta.timerWait!.heldMs >= 2000, JSON.stringify(meta.timerWait));
  assert.ok(meta.timerWait!.fired >= 2, JSON.stringify(meta.timerWait));
  assert.ok(meta.warnings.some((w) => /^timers kept the page busy for the whole 2000 ms timer cap/.test(w)), meta.warnings.join('; '));
});

test('a repeating timer (setInterval) does not hold the capture open', async () => {
  const { meta } = await capturePage(`${server.urls.a}profiler-interval/`, join(work, 'interval'), { ...opts(), timerCapMs: 20_000 });
  assert.equal(meta.endReason, 'quiet', meta.message);
  assert.deepEqual(meta.timerWait, { installed: 0, fired: 0, heldMs: 0, capReached: false });
  assert.ok((meta.timers?.installed ?? 0) >= 1, 'the interval is in the trace');
});
