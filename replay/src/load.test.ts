/**
 * Record and replay end to end, on loopback with real Chromium: the example site (origin a over
 * HTTP/1.1, its iframe from origin b over HTTP/2) recorded with --archive, its server stopped, then
 * served by the replay and loaded: every request answered (0 misses), the load event fired, and a
 * profile of the replayed page builds a graph with the same resources as the original. Also an
 * IP-literal origin, a cache-busted XHR, a body that was never recorded, and the CLI.
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { capturePage, type DevtoolsLogEntry, type Har } from '@pcp/profiler';
import { startTestServer, startSuiteServer } from '@pcp/profiler/testing';
import { buildFromTrace } from '@pcp/graph-builder';
import { runAsync } from '@pcp/cli/testing';
import { readArchive } from './archive.ts';
import { startReplayServer } from './server.ts';
import { median } from '@pcp/graph-builder';
import { loadOnce, summarise } from './load.ts';

const EXAMPLE = fileURLToPath(new URL('../../profiler/example-site/', import.meta.url));
const PCP = fileURLToPath(new URL('../../cli/bin/pcp.js', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'pcp-replay-load-'));
after(() => rmSync(work, { recursive: true, force: true }));

/** Records the example site with --archive (a: HTTP/1.1, b: HTTP/2) and stops its server. */
async function recordExample(name: string, viaIp: boolean): Promise<string> {
  const site = await startTestServer({ root: EXAMPLE, origins: [{ name: 'a' }, { name: 'b', http2: true }] });
  const dir = join(work, name);
  try {
    const url = viaIp ? `http://127.0.0.1:${site.origins[0]!.port}/` : site.urls.a!;
    const { meta } = await capturePage(url, dir, { hostResolverRules: site.hostResolverRules, ignoreCertificateErrors: true, quietMs: 500, archive: true });
    assert.equal(meta.status, 'complete', meta.message);
    // Every page resource has its body (the browser's own late favicon request may be cut by the capture's end).
    const har = JSON.parse(readFileSync(join(dir, 'archive.har'), 'utf8')) as Har;
    const missing = har.log.entries.filter((e) => e._bodyMissing && !e.request.url.endsWith('/favicon.ico'));
    assert.deepEqual(missing.map((e) => `${e.request.url}: ${e._bodyMissing}`), []);
  } finally {
    await site.close();
  }
  return dir;
}

const resources = (dir: string): string[] => {
  const { graph } = buildFromTrace(dir);
  return [...new Set(graph.nodes.filter((n) => n.kind === 'resource').map((n) => (n as { url: string }).url))].sort();
};

test('summarise: runs to 0.1 ms, medians of the printed runs at the top', () => {
  assert.deepEqual(summarise([{ loadTime: 369.33, domContentLoadedTime: 1 }, { loadTime: 369.37, domContentLoadedTime: 2 }, { loadTime: 500, domContentLoadedTime: 3 }, { loadTime: 1, domContentLoadedTime: 4 }]), {
    loadTime: 369.35, domContentLoadedTime: 2.5,
    runs: [{ loadTime: 369.3, domContentLoadedTime: 1 }, { loadTime: 369.4, domContentLoadedTime: 2 }, { loadTime: 500, domContentLoadedTime: 3 }, { loadTime: 1, domContentLoadedTime: 4 }],
  });
});

test('the example site replayed without its server: 0 misses, load fired, the same graph resources', async () => {
  const recorded = await recordExample('example', false);
  const archive = readArchive(recorded);
  assert.deepEqual(archive.origins.map((o) => [o.scheme, o.protocol]), [['http', 'http/1.1'], ['https', 'h2']]);
  const server = await startReplayServer(archive);
  try {
    const t = await loadOnce(server.pageUrl, { chromiumArgs: server.chromiumArgs });
    assert.ok(t.loadTime > 0 && t.domContentLoadedTime > 0 && t.domContentLoadedTime <= t.loadTime, JSON.stringify(t));
    assert.deepEqual(server.stats.misses, []);
    // Load waits for every request but the XHR (a 50 ms timer's) and the favicon; either may come after it.
    const har = JSON.parse(readFileSync(join(recorded, 'archive.har'), 'utf8')) as Har;
    const loadWaitsFor = har.log.entries.filter((e) => e._resourceType !== 'XHR' && !e.request.url.endsWith('/favicon.ico'));
    assert.ok(server.stats.requests >= loadWaitsFor.length, `${server.stats.requests} requests served; the load waits for ${loadWaitsFor.length}`);

    // A profile of the replayed page: same resources in its graph; the iframe's origin still speaks h2.
    server.resetStats();
    const replayed = join(work, 'example-replayed');
    const { meta } = await capturePage(server.pageUrl, replayed, { chromiumArgs: server.chromiumArgs, quietMs: 500 });
    assert.equal(meta.status, 'complete', meta.message);
    assert.deepEqual(server.stats.misses, []);
    assert.deepEqual(resources(replayed), resources(recorded));
    const log = JSON.parse(readFileSync(join(replayed, 'devtools.log.json'), 'utf8')) as DevtoolsLogEntry[];
    const proto = (suffix: string): string | undefined => log
      .map((e) => e.method === 'Network.responseReceived' ? e.params.response as { url: string; protocol: string } : undefined)
      .find((r) => r?.url.endsWith(suffix))?.protocol;
    assert.equal(proto('/frame/embed.js'), 'h2');
    assert.equal(proto('/app.js'), 'http/1.1');
  } finally {
    await server.close();
  }

  // The command: --json layout, and the one-line error of a bundle without an archive.
  const r = await runAsync(process.execPath, [PCP, 'replay', recorded, '--runs', '2', '--json'], { timeoutMs: 180_000 });
  assert.equal(r.status, 0, r.stderr);
  const out = JSON.parse(r.stdout) as { loadTime: number; domContentLoadedTime: number; runs: { loadTime: number; domContentLoadedTime: number }[] };
  assert.equal(out.runs.length, 2);
  // The printed median is rounded to 0.01 ms (summarise): 505.3 against a float median of 505.29999999999995.
  assert.ok(Math.abs(out.loadTime - median(out.runs.map((x) => x.loadTime))) <= 0.005, JSON.stringify(out));
  assert.deepEqual(Object.keys(out), ['loadTime', 'domContentLoadedTime', 'runs']);
  assert.match(r.stderr, /run 2: .* 0 misses/);
  const bad = await runAsync(process.execPath, [PCP, 'replay', work], { timeoutMs: 60_000 });
  assert.equal(bad.status, 1);
  assert.equal(bad.stderr.trim().split('\n').length, 1, bad.stderr);
  assert.match(bad.stderr, /has no archive\.har: profile the page with --archive/);
});

test('an origin recorded as an IP literal with a port replays too', async () => {
  const recorded = await recordExample('ip', true);
  const archive = readArchive(recorded);
  assert.ok(archive.origins[0]!.ipLiteral);
  assert.equal(archive.origins[0]!.host, '127.0.0.1');
  const server = await startReplayServer(archive);
  try {
    const t = await loadOnce(server.pageUrl, { chromiumArgs: server.chromiumArgs });
    assert.ok(t.loadTime > 0);
    assert.deepEqual(server.stats.misses, []);
    assert.ok(server.stats.matched.exact >= 10);
  } finally {
    await server.close();
  }
});

test('a cache-busted XHR is answered by query matching; a body never recorded is served empty', async () => {
  const site = await startSuiteServer();
  const recorded = join(work, 'archive-page');
  try {
    const { meta } = await capturePage(`${site.urls.a}profiler-archive/`, recorded, { hostResolverRules: site.hostResolverRules, ignoreCertificateErrors: true, quietMs: 500, stallMs: 1000, archive: true });
    assert.equal(meta.status, 'complete', meta.message);
    assert.ok(meta.archive!.missingBodies >= 1);
  } finally {
    await site.close();
  }
  const server = await startReplayServer(readArchive(recorded));
  try {
    // A profile, not loadOnce: loadOnce closes the browser at the load event, which waits for neither the XHR
    // (sent before load) nor the fetch the load handler starts, so either could be cut before it reached the
    // server. The capture ends only once the XHR is answered and the hung fetch has made no progress for stallMs.
    const { meta } = await capturePage(server.pageUrl, join(work, 'archive-replayed'), { chromiumArgs: server.chromiumArgs, quietMs: 500, stallMs: 5000 });
    assert.equal(meta.status, 'complete', meta.message);
    assert.ok(meta.timings.loadMs! > 0);
    assert.deepEqual(server.stats.misses, []);
    assert.ok(server.stats.matched.query >= 1, 'data.json?_=<now> matched by query');
    assert.ok(server.stats.emptyBodies >= 1, 'the hung response served empty');
  } finally {
    await server.close();
  }
});
