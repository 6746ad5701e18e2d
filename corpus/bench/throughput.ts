/**
 * `npm run bench:corpus`: sites per minute of `pcp corpus build` (profile with --pcap, server delays,
 * graph) on the example site served on loopback, with 1 and 2 workers, on the local pool
 * (--concurrency N) and on a Dask LocalCluster (--scheduler local:N), printed side by side. Each run
 * builds a fresh corpus with the `pcp` command as a user runs it; the LocalCluster's start is included.
 * Each corpus is also checked against what the example site is known to do: every page built, and the
 * server delays measured from each page's capture against the ones its delays.json injects (app.js 40 ms,
 * analytics.js 120, news.json 60, hero.png 30: a lower bound, the server's timers may fire late).
 *
 *   npm run bench:corpus [-- --sites 8]
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkedOption, positiveInt, scriptArgs } from '@pcp/profiler/script-args';
import { fileURLToPath } from 'node:url';
import { startTestServer } from '@pcp/profiler/testing';
import { median, quantile, type Graph } from '@pcp/graph-builder';

const { values } = scriptArgs('bench:corpus', `
usage: npm run bench:corpus [-- --sites N]

Sites per minute of pcp corpus build (profile with --pcap, server delays, graph) on N copies of the
example site served on loopback (default 8), with 1 and 2 workers, on the local pool and on a Dask
LocalCluster, side by side; each corpus checked (every page built, injected server delays measured).
`, { sites: { type: 'string' } });
const n = checkedOption('bench:corpus', () => positiveInt('sites', values.sites, 8));

const BIN = fileURLToPath(new URL('../../cli/bin/pcp.js', import.meta.url));
const SITE = fileURLToPath(new URL('../../profiler/example-site/', import.meta.url));

function pcp(args: string[]): Promise<number> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'ignore', 'inherit'] });
    child.on('error', fail);
    child.on('close', (code) => done(code ?? 1));
  });
}

const SITE_DELAYS = Object.entries(JSON.parse(readFileSync(join(SITE, 'delays.json'), 'utf8')) as Record<string, number | { delay: number }>)
  .map(([file, spec]) => [file, typeof spec === 'number' ? spec : spec.delay] as const);

/** Pages built, and the measured - injected server delay (ms) of every injected resource of every page. */
function accuracy(corpus: string): { built: number; errors: number[] } {
  const pages = readdirSync(join(corpus, 'pages')).filter((id) => existsSync(join(corpus, 'pages', id, 'DONE')));
  const errors: number[] = [];
  for (const id of pages) {
    const graph = JSON.parse(readFileSync(join(corpus, 'pages', id, 'graph.json'), 'utf8')) as Graph;
    for (const [file, injected] of SITE_DELAYS) {
      const r = graph.nodes.find((n) => n.kind === 'resource' && new URL(n.url).pathname === `/${file}`);
      if (r?.kind === 'resource' && r.serverDelay !== undefined) errors.push(r.serverDelay - injected);
      else errors.push(Number.NaN);
    }
  }
  return { built: pages.length, errors };
}

const server = await startTestServer({ root: SITE, origins: [{ name: 'a' }, { name: 'b' }] });
const work = mkdtempSync(join(tmpdir(), 'pcp-bench-corpus-'));
try {
  const list = join(work, 'sites.txt');
  writeFileSync(list, Array.from({ length: n }, (_, i) => `${server.urls['a']}index.html?site=${i + 1}`).join('\n'));
  console.log(`corpus build throughput: ${n} sites (the example site on loopback, --pcap), sites per minute`);
  console.log(`machine: ${cpus().length} cores, load average ${loadavg()[0]!.toFixed(1)} at start`);
  const rate: Record<string, number> = {};
  const checks: string[] = [];
  for (const workers of [1, 2]) {
    for (const [mode, flag] of [['local pool', ['--concurrency', String(workers)]], ['LocalCluster', ['--scheduler', `local:${workers}`]]] as const) {
      const out = join(work, `${mode.replace(' ', '-')}-${workers}`);
      const t0 = performance.now();
      const code = await pcp(['corpus', 'build', list, '--out', out, '--pcap', '--host-resolver-rules', server.hostResolverRules, ...flag]);
      const minutes = (performance.now() - t0) / 60_000;
      if (code !== 0) throw new Error(`${mode} with ${workers} worker(s): pcp corpus build exited ${code}`);
      rate[`${mode}/${workers}`] = n / minutes;
      const { built, errors } = accuracy(out);
      const found = errors.filter((e) => !Number.isNaN(e));
      const abs = found.map(Math.abs);
      checks.push(`${`${mode}, ${workers}`.padEnd(16)} ${`${built}/${n}`.padStart(6)} ${`${found.length}/${errors.length}`.padStart(9)} ${median(found).toFixed(1).padStart(9)} ${quantile(abs, 0.9).toFixed(1).padStart(8)} ${Math.max(...abs).toFixed(1).padStart(8)}`);
      rmSync(out, { recursive: true, force: true });
    }
  }
  console.log(`${'workers'.padEnd(8)} ${'local pool'.padStart(12)} ${'LocalCluster'.padStart(13)}`);
  for (const w of [1, 2]) console.log(`${String(w).padEnd(8)} ${rate[`local pool/${w}`]!.toFixed(1).padStart(12)} ${rate[`LocalCluster/${w}`]!.toFixed(1).padStart(13)}`);
  console.log(`\nagainst the injected server delays (ms, measured - injected):`);
  console.log(`${'mode, workers'.padEnd(16)} ${'built'.padStart(6)} ${'measured'.padStart(9)} ${'median'.padStart(9)} ${'p90 |e|'.padStart(8)} ${'max |e|'.padStart(8)}`);
  for (const c of checks) console.log(c);
  console.log(`speed-up with 2 workers: local pool ${(rate['local pool/2']! / rate['local pool/1']!).toFixed(2)}x, LocalCluster ${(rate['LocalCluster/2']! / rate['LocalCluster/1']!).toFixed(2)}x; load average ${loadavg()[0]!.toFixed(1)} at end`);
} finally {
  await server.close();
  rmSync(work, { recursive: true, force: true });
}
