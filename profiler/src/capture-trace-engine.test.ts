/**
 * The bundle's trace loads unmodified in DevTools' own trace engine (the Performance panel's model,
 * `@paulirish/trace_engine`): real Chromium profiles the example site (two origins, an iframe, an XHR
 * after load) from the test server, and the engine must find what the panel shows.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { parseWithTraceEngine, traceEventsOf, TraceEngine } from '@pcp/emulator/lantern';
import { capturePage } from './capture.ts';
import { BUNDLE_FILES, type DevtoolsLogEntry, type FramesFile } from './bundle.ts';
import { startTestServer, type TestServer } from '../test-server/server.ts';

const EXAMPLE_SITE = fileURLToPath(new URL('../example-site/', import.meta.url));
let server: TestServer;
let work: string;
before(async () => {
  server = await startTestServer({ root: EXAMPLE_SITE, origins: [{ name: 'a' }, { name: 'b' }] });
  work = mkdtempSync(join(tmpdir(), 'pcp-trace-engine-test-'));
});
after(async () => {
  await server.close();
  rmSync(work, { recursive: true, force: true });
});

test('the trace engine finds the main frame, the navigation, every request and the FCP/DCL/load markers', async () => {
  const url = server.urls.a!;
  const dir = join(work, 'example');
  const { meta } = await capturePage(url, dir, { hostResolverRules: server.hostResolverRules, quietMs: 500 });
  assert.equal(meta.status, 'complete', meta.message);

  const raw = JSON.parse(gunzipSync(readFileSync(join(dir, BUNDLE_FILES.trace))).toString('utf8')) as unknown;
  const { data } = await parseWithTraceEngine(traceEventsOf(raw));
  const frames = JSON.parse(readFileSync(join(dir, BUNDLE_FILES.frames), 'utf8')) as FramesFile;
  assert.equal(data.Meta.mainFrameId, frames.mainFrameId, 'the main frame is the one the profiler recorded');

  const navs = data.Meta.navigationsByFrameId.get(data.Meta.mainFrameId) ?? [];
  const nav = navs.find((n) => n.args.data?.documentLoaderURL === url);
  assert.ok(nav, `a navigation of the main frame to ${url} (found: ${navs.map((n) => n.args.data?.documentLoaderURL).join(', ')})`);

  // Every request the DevTools log saw (main document, subresources, the iframe and its resources,
  // the XHR after load) is a network request of the engine.
  const log = JSON.parse(readFileSync(join(dir, BUNDLE_FILES.devtoolsLog), 'utf8')) as DevtoolsLogEntry[];
  const logged = new Set(log.filter((e) => e.method === 'Network.requestWillBeSent').map((e) => (e.params.request as { url: string }).url));
  const engine = new Set(data.NetworkRequests.byTime.map((r) => r.args.data.url));
  assert.ok(logged.size >= 10, `the example site makes its ~13 requests (${logged.size})`);
  assert.deepEqual([...engine].sort(), [...logged].sort());
  // The page's requests all finish before the capture's quiet window ends. The favicon is the browser's own,
  // asked for after load: a late one may still be in flight when the capture ends, so it is checked when the
  // log saw it finish.
  const urlOf = new Map(log.filter((e) => e.method === 'Network.requestWillBeSent').map((e) => [e.params.requestId, (e.params.request as { url: string }).url]));
  const finishedInLog = new Set(log.filter((e) => e.method === 'Network.loadingFinished').map((e) => urlOf.get(e.params.requestId)));
  for (const r of data.NetworkRequests.byTime) {
    const favicon = r.args.data.url.endsWith('/favicon.ico');
    if (favicon && !finishedInLog.has(r.args.data.url)) continue;
    const want = favicon ? 404 : 200; // the site has no favicon
    assert.ok(r.args.data.finished && r.args.data.statusCode === want, `${r.args.data.url} finished with ${want}`);
  }

  const Metric = TraceEngine.Handlers.ModelHandlers.PageLoadMetrics.MetricName;
  const scores = data.PageLoadMetrics.metricScoresByFrameId.get(data.Meta.mainFrameId)?.get(nav);
  assert.ok(scores, 'page-load metrics for the navigation');
  const ms = (m: string): number => {
    const s = scores.get(m as never);
    assert.ok(s?.event, `the engine found the ${m} marker`);
    return s.timing / 1000;
  };
  const fcp = ms(Metric.FCP);
  const dcl = ms(Metric.DCL);
  const load = ms(Metric.L);
  assert.ok(fcp > 0 && dcl > 0 && dcl < load, `FCP ${fcp} ms, DCL ${dcl} ms < load ${load} ms`);
  // The load marker is the load event the profiler saw over the protocol (same monotonic clock).
  const loadTs = scores.get(Metric.L)!.event!.ts;
  assert.ok(meta.timings.loadMonotonic !== undefined);
  assert.ok(Math.abs(loadTs / 1e6 - meta.timings.loadMonotonic!) < 1, 'MarkLoad and Page.loadEventFired are the same event');
});
