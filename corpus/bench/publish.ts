/**
 * npm run bench:publish — how long a release of the 64-site legacy corpus takes (target: under a
 * minute), and verify and stats beside it. A benchmark: it prints times, it gates nothing.
 * The corpus comes from the @pcp/corpus/testing fixture (the legacy logs rebuilt as graphs).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeLegacyTestCorpus } from '@pcp/corpus/testing';
import { scriptArgs } from '@pcp/profiler/script-args';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

/** The children's user + system time from the second line of `times` (e.g. `0m6.120s 0m0.512s`). */
function childCpuSeconds(times: string): number {
  const line = times.trim().split('\n').at(-1) ?? '';
  return [...line.matchAll(/(\d+)m([\d.]+)s/g)].reduce((s, m) => s + Number(m[1]) * 60 + Number(m[2]), 0);
}

scriptArgs('bench:publish', `
usage: npm run bench:publish

Builds the 64-site legacy corpus (the @pcp/corpus/testing fixture), then times pcp corpus publish, verify
and stats on it: wall-clock and CPU seconds, with the load average. Target: a release in under a minute.
`, {});

const PCP = fileURLToPath(new URL('../../cli/bin/pcp.js', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'pcp-bench-publish-'));
try {
  let t = Date.now();
  const ids = writeLegacyTestCorpus(join(work, 'corpus'));
  console.log(`corpus of ${ids.length} legacy sites built in ${((Date.now() - t) / 1000).toFixed(1)} s (load average ${loadavg()[0]!.toFixed(1)})`);
  const steps: Array<[string, string[]]> = [
    ['publish', ['corpus', 'publish', join(work, 'corpus'), '--out', join(work, 'release'), '--version', '1.0.0']],
    ['verify', ['corpus', 'verify', join(work, 'release')]],
    ['stats', ['corpus', 'stats', join(work, 'corpus'), '--out', join(work, 'report')]],
  ];
  for (const [name, args] of steps) {
    t = Date.now();
    // bash's `times` prints the CPU time its children used: what the step costs on an idle machine.
    const { stdout } = await promisify(execFile)('bash', ['-c', 'node "$@" >/dev/null && times', 'bash', PCP, ...args], { maxBuffer: 1 << 24 });
    const secs = (Date.now() - t) / 1000;
    const cpu = childCpuSeconds(stdout);
    const target = name === 'publish' ? ` (target < 60 s: ${secs < 60 ? 'met' : 'not met'})` : '';
    console.log(`pcp corpus ${name.padEnd(7)} ${ids.length} pages: ${secs.toFixed(1)} s wall${target}, ${cpu.toFixed(1)} s CPU, load average ${loadavg()[0]!.toFixed(1)}`);
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
