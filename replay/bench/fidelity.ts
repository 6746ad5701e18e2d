/**
 * npm run replay:check [-- --runs N]: how close a replayed load is to the real one, on loopback.
 * Records each page with --archive, then loads it N times from its real server, N times from the
 * replay and N times from the replay with --pace (alternating, each load in a fresh Chromium, the same Navigation Timing read), and prints the
 * medians, replayed/real ratios, and the replay's misses. Pages: the example site (origin a over
 * HTTP/1.1 with delays, origin b over HTTP/2) and a few ground-truth pages. The replay holds each
 * response for the server delay `pcp delays` measures from the recording's capture, as pcp replay does.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { scriptArgs } from '@pcp/profiler/script-args';
import { capturePage } from '@pcp/profiler';
import { startTestServer, type TestServer, startSuiteServer, SITES_DIR } from '@pcp/profiler/testing';
import { measureServerDelays, median } from '@pcp/graph-builder';
import { readArchive, assignDelays, delayRecordsOf, startReplayServer, loadOnce, type DelayRecord, type LoadTimes } from '../src/index.ts';

const { values } = scriptArgs('replay:check', `
usage: npm run replay:check [-- --runs N]

Records four pages (the example site and three ground-truth pages) with --archive, replays each on
loopback N times (default 5) and compares the replayed loads with direct loads of the original servers:
load and DOMContentLoaded medians and the replay's misses.
`, { runs: { type: 'string', default: '5' } });
const runs = Number(values.runs);
const EXAMPLE = fileURLToPath(new URL('../../profiler/example-site/', import.meta.url));

interface Page { name: string; start: () => Promise<TestServer>; path: string }
const pages: Page[] = [
  { name: 'example-site', start: () => startTestServer({ root: EXAMPLE, origins: [{ name: 'a' }, { name: 'b', http2: true }] }), path: '' },
  { name: 'mix-cross-origin-iframe', start: () => startSuiteServer(SITES_DIR), path: 'mix-cross-origin-iframe/' },
  { name: 'mix-css-import-font', start: () => startSuiteServer(SITES_DIR), path: 'mix-css-import-font/' },
  { name: 'r03-parse-chunks', start: () => startSuiteServer(SITES_DIR), path: 'r03-parse-chunks/' },
];

/** Server delays measured from the bundle's capture by the server-delays package (pcp delays). */
async function measuredDelays(dir: string): Promise<DelayRecord[]> {
  try {
    return delayRecordsOf(await measureServerDelays(dir));
  } catch (e) {
    throw new Error(`pcp delays failed on ${dir}: ${(e as Error).message}`);
  }
}

const work = mkdtempSync(join(tmpdir(), 'pcp-replay-check-'));
console.log(`replay fidelity on loopback, ${runs} loads each (load average ${loadavg().map((x) => x.toFixed(1)).join(' ')})`);
console.log('page                      real load  replay load  ratio  paced load  ratio   real DCL  replay DCL  ratio  misses');
const ratios: number[] = [];
const pacedRatios: number[] = [];
try {
  for (const page of pages) {
    const server = await page.start();
    const url = server.urls.a! + page.path;
    const dir = join(work, page.name);
    const { meta } = await capturePage(url, dir, { hostResolverRules: server.hostResolverRules, ignoreCertificateErrors: true, quietMs: 500, archive: true, pcap: true, sslKeyLog: true });
    if (meta.status !== 'complete') throw new Error(`${page.name}: ${meta.message}`);
    const archive = readArchive(dir);
    const d = assignDelays(archive.entries, await measuredDelays(dir));
    process.stderr.write(`${page.name}: server delays ${d.measured} measured, ${d.estimated} estimated, ${d.none} none\n`);
    const replay = await startReplayServer(archive);
    const pacedReplay = await startReplayServer(archive, { pace: true });
    const real: LoadTimes[] = [];
    const replayed: LoadTimes[] = [];
    const paced: LoadTimes[] = [];
    let misses = 0;
    for (let i = 0; i < runs; i++) {
      real.push(await loadOnce(url, { chromiumArgs: [`--host-resolver-rules=${server.hostResolverRules}`, '--ignore-certificate-errors'] }));
      replay.resetStats();
      replayed.push(await loadOnce(replay.pageUrl, { chromiumArgs: replay.chromiumArgs }));
      misses += replay.stats.misses.length;
      pacedReplay.resetStats();
      paced.push(await loadOnce(pacedReplay.pageUrl, { chromiumArgs: pacedReplay.chromiumArgs }));
      misses += pacedReplay.stats.misses.length;
    }
    await replay.close();
    await pacedReplay.close();
    await server.close();
    const m = (xs: LoadTimes[], k: keyof LoadTimes): number => median(xs.map((x) => x[k]));
    const r = m(replayed, 'loadTime') / m(real, 'loadTime');
    ratios.push(r);
    const rp = m(paced, 'loadTime') / m(real, 'loadTime');
    pacedRatios.push(rp);
    console.log(`${page.name.padEnd(25)} ${m(real, 'loadTime').toFixed(1).padStart(9)} ${m(replayed, 'loadTime').toFixed(1).padStart(12)} ${r.toFixed(3).padStart(6)} ${m(paced, 'loadTime').toFixed(1).padStart(11)} ${rp.toFixed(3).padStart(6)} ${m(real, 'domContentLoadedTime').toFixed(1).padStart(10)} ${m(replayed, 'domContentLoadedTime').toFixed(1).padStart(11)} ${(m(replayed, 'domContentLoadedTime') / m(real, 'domContentLoadedTime')).toFixed(3).padStart(6)} ${String(misses).padStart(7)}`);
  }
  console.log(`median replayed/real load ratio ${median(ratios).toFixed(3)}, paced (--pace) ${median(pacedRatios).toFixed(3)}, over ${ratios.length} pages`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
