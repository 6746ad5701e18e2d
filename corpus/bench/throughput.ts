/**
 * `npm run bench:corpus`: sites per minute of `pcp corpus build` (profile with --pcap, server delays,
 * graph) on the example site served on loopback, with 1 and 2 workers, on the local pool
 * (--concurrency N) and on a Dask LocalCluster (--scheduler local:N), printed side by side. Each run
 * builds a fresh corpus with the `pcp` command as a user runs it; the LocalCluster's start is included.
 *
 *   npm run bench:corpus [-- --sites 8]
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { startTestServer } from '@pcp/profiler/testing';

const { values } = parseArgs({ options: { sites: { type: 'string' } } });
const n = Number(values.sites ?? 8);
if (!Number.isInteger(n) || n < 1) throw new Error(`--sites expects a positive integer, got '${values.sites}'`);

const BIN = fileURLToPath(new URL('../../cli/bin/pcp.js', import.meta.url));
const SITE = fileURLToPath(new URL('../../profiler/example-site/', import.meta.url));

function pcp(args: string[]): Promise<number> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'ignore', 'inherit'] });
    child.on('error', fail);
    child.on('close', (code) => done(code ?? 1));
  });
}

const server = await startTestServer({ root: SITE, origins: [{ name: 'a' }, { name: 'b' }] });
const work = mkdtempSync(join(tmpdir(), 'pcp-bench-corpus-'));
try {
  const list = join(work, 'sites.txt');
  writeFileSync(list, Array.from({ length: n }, (_, i) => `${server.urls['a']}index.html?site=${i + 1}`).join('\n'));
  console.log(`corpus build throughput: ${n} sites (the example site on loopback, --pcap), sites per minute`);
  console.log(`machine: ${cpus().length} cores, load average ${loadavg()[0]!.toFixed(1)} at start`);
  const rate: Record<string, number> = {};
  for (const workers of [1, 2]) {
    for (const [mode, flag] of [['local pool', ['--concurrency', String(workers)]], ['LocalCluster', ['--scheduler', `local:${workers}`]]] as const) {
      const out = join(work, `${mode.replace(' ', '-')}-${workers}`);
      const t0 = performance.now();
      const code = await pcp(['corpus', 'build', list, '--out', out, '--pcap', '--host-resolver-rules', server.hostResolverRules, ...flag]);
      const minutes = (performance.now() - t0) / 60_000;
      if (code !== 0) throw new Error(`${mode} with ${workers} worker(s): pcp corpus build exited ${code}`);
      rate[`${mode}/${workers}`] = n / minutes;
      rmSync(out, { recursive: true, force: true });
    }
  }
  console.log(`${'workers'.padEnd(8)} ${'local pool'.padStart(12)} ${'LocalCluster'.padStart(13)}`);
  for (const w of [1, 2]) console.log(`${String(w).padEnd(8)} ${rate[`local pool/${w}`]!.toFixed(1).padStart(12)} ${rate[`LocalCluster/${w}`]!.toFixed(1).padStart(13)}`);
  console.log(`speed-up with 2 workers: local pool ${(rate['local pool/2']! / rate['local pool/1']!).toFixed(2)}x, LocalCluster ${(rate['LocalCluster/2']! / rate['LocalCluster/1']!).toFixed(2)}x; load average ${loadavg()[0]!.toFixed(1)} at end`);
} finally {
  await server.close();
  rmSync(work, { recursive: true, force: true });
}
