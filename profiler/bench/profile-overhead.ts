/**
 * Profiler overhead: the load time (main document request -> load event, on the browser's own
 * clock) of the same pages with and without tracing, in the same run, alternating the two so drift
 * and warm-up hit both alike. Prints per-page medians and the overall ratio (target <= 1.10).
 *
 *   npm run bench:profile [-- --reps N]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { loadavg, cpus } from 'node:os';
import { fileURLToPath } from 'node:url';
import { capturePage } from '../src/capture.ts';
import { startTestServer } from '../test-server/server.ts';
import { startSuiteServer } from '../fidelity/suite.ts';

const { values } = parseArgs({ options: { reps: { type: 'string' } } });
const reps = Number(values.reps ?? 5);

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

const suite = await startSuiteServer();
const example = await startTestServer({ root: fileURLToPath(new URL('../example-site/', import.meta.url)), origins: [{ name: 'a' }, { name: 'b', http2: true }] });
const pages: [string, string, string][] = [
  ['example-site', example.urls.a!, example.hostResolverRules],
  ...['mix-cross-origin-iframe', 'mix-css-import-font', 'ev-element-load', 'r03-parse-chunks', 'mix-load-handlers'].map(
    (p): [string, string, string] => [p, `${suite.urls.a}${p}/`, suite.hostResolverRules],
  ),
];
const work = mkdtempSync(join(tmpdir(), 'pcp-bench-'));
console.log(`profiler overhead: ${pages.length} pages x ${reps} loads each, with and without tracing (alternating)`);
// Other work on the machine skews single loads of 50-500 ms badly: say how busy it was.
console.log(`machine: ${cpus().length} cores, load average ${loadavg()[0]!.toFixed(1)} at start`);
console.log('page'.padEnd(26) + 'untraced ms'.padStart(12) + 'traced ms'.padStart(11) + 'ratio'.padStart(8) + 'trace KB'.padStart(10));
const ratios: number[] = [];
let sumPlain = 0;
let sumTraced = 0;
try {
  for (const [name, url, rules] of pages) {
    const plain: number[] = [];
    const traced: number[] = [];
    let kb = 0;
    for (let i = 0; i < reps; i++) {
      for (const noTrace of i % 2 ? [false, true] : [true, false]) {
        const { meta } = await capturePage(url, join(work, `${name}-${i}-${noTrace}`), { hostResolverRules: rules, ignoreCertificateErrors: true, quietMs: 100, noTrace });
        if (meta.status !== 'complete' || meta.timings.loadMonotonic === undefined || meta.timings.navigationStartMonotonic === undefined) {
          throw new Error(`${name}: ${meta.status} ${meta.endReason} ${meta.message}`);
        }
        const ms = (meta.timings.loadMonotonic - meta.timings.navigationStartMonotonic) * 1000;
        (noTrace ? plain : traced).push(ms);
        if (!noTrace) kb = (meta.counts.traceBytes ?? 0) / 1024;
      }
    }
    const p = median(plain);
    const t = median(traced);
    sumPlain += p;
    sumTraced += t;
    ratios.push(t / p);
    console.log(name.padEnd(26) + p.toFixed(1).padStart(12) + t.toFixed(1).padStart(11) + (t / p).toFixed(3).padStart(8) + kb.toFixed(0).padStart(10));
  }
} finally {
  await suite.close();
  await example.close();
  rmSync(work, { recursive: true, force: true });
}
const geo = Math.exp(ratios.reduce((a, r) => a + Math.log(r), 0) / ratios.length);
console.log(`load average ${loadavg()[0]!.toFixed(1)} at end`);
console.log(`overall: ratio of summed medians ${(sumTraced / sumPlain).toFixed(3)}, geometric mean of page ratios ${geo.toFixed(3)} (target <= 1.10)`);
