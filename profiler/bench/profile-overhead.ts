/**
 * Profiler overhead: the load time (main document request -> load event, on the browser's own
 * clock) of the same pages without tracing, with the default trace, and with --task-flows (posted-task
 * flows on top), in the same run, rotating the order so drift and warm-up hit all three alike. Prints
 * per-page medians and the overall ratios (target <= 1.10 for the default trace).
 *
 *   npm run bench:profile [-- --reps N]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { scriptArgs } from '@pcp/profiler/script-args';
import { loadavg, cpus } from 'node:os';
import { fileURLToPath } from 'node:url';
import { capturePage } from '../src/capture.ts';
import { startTestServer } from '../test-server/server.ts';
import { startSuiteServer } from '../fidelity/suite.ts';

const { values } = scriptArgs('bench:profile', `
usage: npm run bench:profile [-- --reps N]

Profiles the example site and five ground-truth pages N times each (default 5) in real Chromium, with
and without --task-flows, and prints the load-time and trace-size ratios of the extra tracing (a
benchmark: ratios within one run, never a test gate).
`, { reps: { type: 'string' } });
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
console.log(`profiler overhead: ${pages.length} pages x ${reps} loads each untraced, traced, and traced with --task-flows (rotating)`);
// Other work on the machine skews single loads of 50-500 ms badly: say how busy it was.
console.log(`machine: ${cpus().length} cores, load average ${loadavg()[0]!.toFixed(1)} at start`);
console.log(
  'page'.padEnd(26) + 'untraced ms'.padStart(12) + 'traced ms'.padStart(11) + 'ratio'.padStart(8) + 'trace KB'.padStart(10) +
    'flows ms'.padStart(10) + 'ratio'.padStart(8) + 'trace KB'.padStart(10),
);
type Mode = 'plain' | 'traced' | 'flows';
const MODES: Mode[] = ['plain', 'traced', 'flows'];
const ratios: Record<Exclude<Mode, 'plain'>, number[]> = { traced: [], flows: [] };
const sums: Record<Mode, number> = { plain: 0, traced: 0, flows: 0 };
try {
  for (const [name, url, rules] of pages) {
    const times: Record<Mode, number[]> = { plain: [], traced: [], flows: [] };
    const kb: Record<Mode, number> = { plain: 0, traced: 0, flows: 0 };
    for (let i = 0; i < reps; i++) {
      for (let k = 0; k < MODES.length; k++) {
        const mode = MODES[(i + k) % MODES.length]!;
        const { meta } = await capturePage(url, join(work, `${name}-${i}-${mode}`), {
          hostResolverRules: rules, ignoreCertificateErrors: true, quietMs: 100, noTrace: mode === 'plain', taskFlows: mode === 'flows',
        });
        if (meta.status !== 'complete' || meta.timings.loadMonotonic === undefined || meta.timings.navigationStartMonotonic === undefined) {
          throw new Error(`${name}: ${meta.status} ${meta.endReason} ${meta.message}`);
        }
        times[mode].push((meta.timings.loadMonotonic - meta.timings.navigationStartMonotonic) * 1000);
        kb[mode] = (meta.counts.traceBytes ?? 0) / 1024;
      }
    }
    const m = { plain: median(times.plain), traced: median(times.traced), flows: median(times.flows) };
    for (const mode of MODES) sums[mode] += m[mode];
    ratios.traced.push(m.traced / m.plain);
    ratios.flows.push(m.flows / m.plain);
    console.log(
      name.padEnd(26) + m.plain.toFixed(1).padStart(12) + m.traced.toFixed(1).padStart(11) + (m.traced / m.plain).toFixed(3).padStart(8) +
        kb.traced.toFixed(0).padStart(10) + m.flows.toFixed(1).padStart(10) + (m.flows / m.plain).toFixed(3).padStart(8) + kb.flows.toFixed(0).padStart(10),
    );
  }
} finally {
  await suite.close();
  await example.close();
  rmSync(work, { recursive: true, force: true });
}
const geo = (xs: number[]) => Math.exp(xs.reduce((a, r) => a + Math.log(r), 0) / xs.length);
console.log(`load average ${loadavg()[0]!.toFixed(1)} at end`);
console.log(`overall: ratio of summed medians ${(sums.traced / sums.plain).toFixed(3)}, geometric mean of page ratios ${geo(ratios.traced).toFixed(3)} (target <= 1.10)`);
console.log(`with --task-flows: ratio of summed medians ${(sums.flows / sums.plain).toFixed(3)}, geometric mean of page ratios ${geo(ratios.flows).toFixed(3)}`);
