/**
 * pcp lantern: what Lantern (the simulator in DevTools' trace engine and Lighthouse) predicts for a
 * recorded page under other network conditions: the baseline `pcp emulate` is compared with.
 * A thin shell over @pcp/emulator/lantern.
 */
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { BUNDLE_FILES, TRACE_NAMES, findBundleFile } from '@pcp/profiler/bundle';
import { asUsageError, CliError, UsageError, flag, parse, requireStr, str, type Command } from '../kit.ts';

const usage = `usage: pcp lantern <bundle-dir | trace.json[.gz]> --bandwidth <rate> --rtt <time> [options]

Predicts the recorded page's load with Lantern, the page-load simulator of the DevTools trace engine
(@paulirish/trace_engine; Lighthouse's), from the bundle's unshaped trace: Lantern's own dependency
graph and observed server response times, the given RTT and throughput, CPU slowdown 1. Prints
DOMContentLoaded and load (the simulated end of the nodes that ended before each recorded event;
Lantern has no load metric of its own), FCP (Lantern's metric), and the recording's own figures, in
ms from navigation start. Two rows: Lantern as it is (2 RTTs of DNS per host) and with DNS zeroed.

required:
  --bandwidth <rate>     throughput, tc units: 500kbit, 1.6mbit, 1gbit
  --rtt <time>           round-trip time, tc units: 40ms, 0.15s

options:
  --no-dns               make the zero-DNS prediction the headline (--json top level)
  --cpu-slowdown <x>     Lantern's CPU slowdown multiplier                     (default 1)
  --json                 print {loadTime, domContentLoadedTime, fcp?, dns, details,
                         variants: {lantern, noDns}} (ms; top level: the headline variant)
  -h, --help             this help
`;

const OPTIONS = {
  bandwidth: { type: 'string' },
  rtt: { type: 'string' },
  'no-dns': { type: 'boolean' },
  'cpu-slowdown': { type: 'string' },
  json: { type: 'boolean' },
} as const;

/** The trace of a bundle directory, or the path itself when it is a trace file. */
function tracePath(path: string): string {
  if (!existsSync(path)) throw new CliError(`${path}: no such file or directory`);
  if (!statSync(path).isDirectory()) return path;
  const found = findBundleFile(path, TRACE_NAMES);
  if (!found) throw new CliError(`${path}: no ${BUNDLE_FILES.trace} in this bundle`);
  return join(path, found);
}

export const command: Command = {
  name: 'lantern',
  summary: "Lantern's (DevTools trace engine) prediction for a recorded page under other network conditions",
  usage,
  async run(args) {
    const p = parse(args, OPTIONS);
    if (p.positionals.length !== 1) throw new UsageError('expected exactly one bundle directory or trace file');
    const { parseRate, parseTime, ConfigError } = await import('@pcp/emulator');
    const bps = asUsageError(ConfigError, () => parseRate(requireStr(p, 'bandwidth')));
    const rttMs = asUsageError(ConfigError, () => parseTime(requireStr(p, 'rtt')));
    let cpu = 1;
    const cpuArg = str(p, 'cpu-slowdown');
    if (cpuArg !== undefined) {
      cpu = Number(cpuArg);
      if (!(cpu > 0)) throw new UsageError(`--cpu-slowdown expects a positive number, got '${cpuArg}'`);
    }
    const file = tracePath(p.positionals[0]!);
    const { readText, parseTrace } = await import('@pcp/graph-builder');
    const { loadLanternTrace, simulateLantern, TraceEngineError } = await import('@pcp/emulator/lantern');
    let lantern, noDns;
    try {
      const trace = parseTrace(readText(file), file);
      for (const w of trace.warnings) console.error(`warning: ${w}`);
      const lt = await loadLanternTrace(trace.events);
      // Lantern's throughput unit is the Kbps of 1024 bit/s: this simulates exactly `bps`.
      const opts = { rttMs, throughputKbps: bps / 1024, cpuMultiplier: cpu };
      lantern = simulateLantern(lt, { ...opts, dns: true });
      noDns = simulateLantern(lt, { ...opts, dns: false });
    } catch (e) {
      if (e instanceof TraceEngineError || (e as Error).name === 'TraceFormatError' || (e as Error).name === 'GraphFileError') {
        throw new CliError(`${file}: ${(e as Error).message}`);
      }
      throw e;
    }
    const headline = flag(p, 'no-dns') ? noDns : lantern;
    const brief = (x: typeof lantern) => ({ loadTime: x.loadTime, domContentLoadedTime: x.domContentLoadedTime, ...(x.fcp !== undefined ? { fcp: x.fcp } : {}) });
    if (flag(p, 'json')) {
      console.log(JSON.stringify({ ...brief(headline), dns: !flag(p, 'no-dns'), details: headline.details, variants: { lantern: brief(lantern), noDns: brief(noDns) } }));
      return 0;
    }
    const d = lantern.details;
    const f = (v: number | undefined): string => (v === undefined ? '       -' : `${v.toFixed(1).padStart(8)}`);
    console.log(`${p.positionals[0]}: Lantern at ${str(p, 'bandwidth')}, ${str(p, 'rtt')}, CPU x${cpu} (ms from navigation start)`);
    console.log(`                      DCL      load       FCP`);
    console.log(`  lantern        ${f(lantern.domContentLoadedTime)}  ${f(lantern.loadTime)}  ${f(lantern.fcp)}${headline === lantern ? '   <-' : ''}`);
    console.log(`  lantern no-DNS ${f(noDns.domContentLoadedTime)}  ${f(noDns.loadTime)}  ${f(noDns.fcp)}${headline === noDns ? '   <-' : ''}`);
    console.log(`  recorded       ${f(d.recorded.domContentLoadedTime)}  ${f(d.recorded.loadTime)}  ${f(d.recorded.fcp)}   (unshaped)`);
    console.log(`  graph: ${d.networkNodes} requests, ${d.cpuNodes} main-thread tasks; whole graph ${d.wholeGraphMs.toFixed(1)} ms; document request ${d.documentRequestOffsetMs.toFixed(1)} ms after navigation start`);
    return 0;
  },
};
