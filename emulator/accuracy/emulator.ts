/**
 * accuracy:emulator — are `pcp emulate`'s what-if answers right? Records each page once, unshaped, with
 * its archive and a packet capture (`pcp profile --archive --pcap`), builds its graph (`pcp build`) and
 * measures its server delays (`pcp delays`); then for each network condition predicts load and
 * DOMContentLoaded with the emulator (in-process, as `pcp emulate` does) and with Lantern (as
 * `pcp lantern` does: CPU x1, with and without its DNS charge), and loads the page for real: the replay
 * server in a shaped link's server namespace, Chromium in its client namespace (as `pcp replay
 * --bandwidth --rtt` does), the loads interleaved over pages and conditions. Prints per condition and
 * overall p50/p90 of |predicted - real| / real for both tools, each condition's run-to-run spread, and
 * loads per minute; writes a CSV and plots. Timing figures are benchmark output, never a gate.
 */
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs, promisify } from 'node:util';
import type { Graph } from '@pcp/graph-builder';
import { emulateIdentity } from './identity-run.ts';
import { accuracyPages, startPageServers, type PageSpec } from './pages.ts';
import { CSV_HEADER, csvRow, DEFAULT_GRID, gridRow, parseCondition, summarizeGrid, TOOLS, type Condition, type GridRow, type Times, type Tool } from './grid-stats.ts';

const HELP = `usage: npm run accuracy:emulator [-- options]

Records each page once on loopback (archive, capture, graph, server delays), then for each network
condition predicts load and DOMContentLoaded with pcp emulate and with Lantern (CPU x1; with its DNS
charge and without), loads the replayed page for real in Chromium through a shaped link (root needed),
and prints per condition and overall the p50 and p90 of |predicted - real| / real, the real loads'
run-to-run spread and loads per minute. Times are ms from navigation start. Every origin is served
over TLS so that each condition's protocol (h1, h2) is the one Chromium really speaks.

options:
  --page NAME        only this page (repeatable): 'example-site' or a test-site directory name
  --condition C      RATE/RTT/h1|h2[/LOSS] (repeatable; default: ${DEFAULT_GRID.join(' ')})
  --runs N           real loads per page and condition (default 5; the median is compared)
  --keep DIR         keep the recordings (DIR/<page>/{bundle,graph.json,delays.json})
  --from DIR         reuse the recordings an earlier --keep left, without recording again
  --csv FILE         per page and condition (default docs/accuracy/emulator.csv)
  --plots DIR        where the PNG and SVG plots go (default docs/accuracy)
  --no-plots         no plots (they need matplotlib: pip install -e 'server-delays[dev]')
  --cc NAME          TCP congestion control in the link's namespaces: reno (default; the
                     emulator's default model, NewReno), cubic (the emulator is told so), or
                     'inherit' (the machine's default, bbr here)
  -h, --help
`;

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const PCP = join(ROOT, 'cli/bin/pcp.js');
const run = promisify(execFile);

class UsageError extends Error {}

interface Recording {
  page: PageSpec;
  bundle: string;
  graph: Graph;
  delays: string;
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      page: { type: 'string', multiple: true },
      condition: { type: 'string', multiple: true },
      runs: { type: 'string' },
      keep: { type: 'string' },
      from: { type: 'string' },
      csv: { type: 'string' },
      plots: { type: 'string' },
      'no-plots': { type: 'boolean' },
      cc: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    process.stdout.write(HELP);
    return 0;
  }
  const runs = Number(values.runs ?? 5);
  if (!Number.isInteger(runs) || runs < 1) throw new UsageError(`--runs expects a positive integer, got '${values.runs}'`);
  let conditions: Condition[];
  try {
    conditions = (values.condition ?? DEFAULT_GRID).map(parseCondition);
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  const cc = values.cc ?? 'reno';
  if (!/^[a-z0-9_]+$/.test(cc)) throw new UsageError(`--cc expects a congestion control name (cubic, reno, bbr) or 'inherit', got '${cc}'`);
  const pages = await accuracyPages(values.page);
  if (pages.length === 0) throw new UsageError('no page matches --page');
  if (values.from && !existsSync(values.from)) throw new UsageError(`--from ${values.from}: no such directory`);
  if (process.getuid?.() !== 0) throw new UsageError('the real loads go through the shaper, which needs root (run as root)');
  const csvPath = values.csv ?? join(ROOT, 'docs/accuracy/emulator.csv');

  const work = values.from ?? values.keep ?? mkdtempSync(join(tmpdir(), 'pcp-accuracy-'));
  const ownWork = !values.from && !values.keep;
  try {
    const recordings = values.from ? keptRecordings(values.from, pages) : await record(pages, work);
    if (recordings.length === 0) {
      console.error('accuracy:emulator: no page could be recorded');
      return 1;
    }
    const predictions = await predict(recordings, conditions, cc === 'cubic' ? 'cubic' : 'newreno');
    const { real, loadsPerMinute, cc: ccUsed, backend } = await loadReal(recordings, conditions, runs, cc);
    const rows: GridRow[] = [];
    for (const c of conditions) {
      for (const r of recordings) {
        const key = `${r.page.name} ${c.name}`;
        const got = real.get(key);
        const pred = predictions.get(key);
        if (!got || got.times.length === 0 || !pred) {
          console.log(`skipped ${key}: ${!pred ? 'no prediction' : 'no real load completed'}`);
          continue;
        }
        rows.push(gridRow(r.page.name, c.name, got.times, got.misses, pred));
      }
    }
    if (rows.length === 0) {
      console.error('accuracy:emulator: no page and condition could be compared');
      return 1;
    }
    printTable(rows);
    console.log(`\nlink: ${backend} backend, TCP congestion control ${ccUsed}; real loads: ${loadsPerMinute.toFixed(1)} per minute; load average ${loadAverage()}`);
    mkdirSync(dirname(csvPath), { recursive: true });
    writeFileSync(csvPath, [CSV_HEADER, ...rows.map(csvRow)].join('\n') + '\n');
    console.log(`wrote ${csvPath}`);
    if (!values['no-plots']) await plot(csvPath, values.plots ?? join(ROOT, 'docs/accuracy'));
    return 0;
  } finally {
    if (ownWork) rmSync(work, { recursive: true, force: true });
  }
}

function loadAverage(): string {
  return readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
}

/** Each page recorded once on loopback (every origin over TLS), built, and its server delays measured. */
async function record(pages: PageSpec[], work: string): Promise<Recording[]> {
  const { capturePage } = await import('@pcp/profiler');
  const servers = await startPageServers(pages, { tls: true });
  const out: Recording[] = [];
  try {
    for (const page of pages) {
      const dir = join(work, page.name);
      const bundle = join(dir, 'bundle');
      const { url, hostResolverRules } = servers.target(page);
      const capture = () => capturePage(url, bundle, { hostResolverRules, ignoreCertificateErrors: true, pcap: true, sslKeyLog: true, archive: true, quietMs: 500 });
      // A loaded machine sometimes starts Chromium too slowly: one retry.
      let { meta } = await capture();
      if (meta.status === 'failed' && meta.endReason === 'error') ({ meta } = await capture());
      if (meta.status !== 'complete') {
        console.log(`${page.name}: recording ${meta.status} (${meta.message}); left out`);
        continue;
      }
      try {
        await run(process.execPath, [PCP, 'build', bundle, '--out', join(dir, 'graph.json')], { maxBuffer: 1 << 24 });
        await run(process.execPath, [PCP, 'delays', bundle, '--out', join(dir, 'delays.json'), '--format', 'json'], { maxBuffer: 1 << 24 });
      } catch (e) {
        console.log(`${page.name}: ${((e as { stderr?: string }).stderr ?? String(e)).trim().split('\n').pop()}; left out`);
        continue;
      }
      out.push(loadRecording(page, dir));
      process.stderr.write(`recorded ${page.name}\n`);
    }
  } finally {
    await servers.close();
  }
  return out;
}

function loadRecording(page: PageSpec, dir: string): Recording {
  return { page, bundle: join(dir, 'bundle'), graph: JSON.parse(readFileSync(join(dir, 'graph.json'), 'utf8')) as Graph, delays: join(dir, 'delays.json') };
}

/** Recordings an earlier --keep left: DIR/<page>/{bundle,graph.json,delays.json}. */
function keptRecordings(dir: string, pages: PageSpec[]): Recording[] {
  return pages
    .filter((p) => ['bundle/archive.har', 'graph.json', 'delays.json'].every((f) => existsSync(join(dir, p.name, f))))
    .map((p) => loadRecording(p, join(dir, p.name)));
}

/** The emulator's and Lantern's predictions, keyed `page condition`; ms from navigation start. */
async function predict(recordings: Recording[], conditions: Condition[], congestionControl: 'newreno' | 'cubic'): Promise<Map<string, Record<Tool, Times>>> {
  const { parseTrace, readText } = await import('@pcp/graph-builder');
  const { loadLanternTrace, simulateLantern } = await import('../src/lantern/predict.ts');
  const out = new Map<string, Record<Tool, Times>>();
  for (const r of recordings) {
    const traceFile = ['trace.json.gz', 'trace.json'].map((n) => join(r.bundle, n)).find((f) => existsSync(f));
    let lantern;
    try {
      if (!traceFile) throw new Error('no trace in the bundle');
      lantern = await loadLanternTrace(parseTrace(readText(traceFile), traceFile).events);
    } catch (e) {
      console.log(`${r.page.name}: Lantern cannot read the trace (${(e as Error).message}); left out`);
      continue;
    }
    for (const c of conditions) {
      const emu = emulateIdentity(r.graph, { bandwidthBps: c.bandwidthBps, rttMs: c.rttMs, protocol: c.protocol, congestionControl });
      if (typeof emu === 'string') {
        console.log(`${r.page.name}: ${emu}; left out`);
        break;
      }
      // Lantern's throughput unit is the Kbps of 1024 bit/s: this simulates exactly the link's rate.
      const opts = { rttMs: c.rttMs, throughputKbps: c.bandwidthBps / 1024, cpuMultiplier: 1 };
      const withDns = simulateLantern(lantern, { ...opts, dns: true });
      const noDns = simulateLantern(lantern, { ...opts, dns: false });
      out.set(`${r.page.name} ${c.name}`, {
        emulator: { load: emu.emulatedLoad, dcl: emu.emulatedDcl },
        lantern: { load: withDns.loadTime, dcl: withDns.domContentLoadedTime },
        lanternNoDns: { load: noDns.loadTime, dcl: noDns.domContentLoadedTime },
      });
    }
  }
  return out;
}

interface RealLoads {
  times: Times[];
  misses: number;
}

/**
 * Real loads: one shaped link per condition, open for the whole phase, with a replay server per page in
 * its server namespace; then `runs` rounds, each loading every page under every condition once, so that
 * a slow spell of the shared machine spreads over all of them.
 */
async function loadReal(recordings: Recording[], conditions: Condition[], runs: number, cc: string) {
  const { openShapedLink } = await import('@pcp/shaper');
  const { startRemoteReplay, loadOnce } = await import('@pcp/replay');
  type Link = Awaited<ReturnType<typeof openShapedLink>>;
  type Remote = Awaited<ReturnType<typeof startRemoteReplay>>;
  const links: Link[] = [];
  const remotes = new Map<string, Remote>();
  const closeAll = async (): Promise<void> => {
    await Promise.allSettled([...remotes.values()].map((r) => r.close()));
    await Promise.allSettled(links.map((l) => l.close()));
  };
  const onSignal = (): void => {
    void closeAll().then(() => process.exit(130));
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  const real = new Map<string, RealLoads>();
  let ccUsed = cc;
  try {
    for (const c of conditions) {
      const link = await openShapedLink({ bandwidthBps: c.bandwidthBps, rttMs: c.rttMs, lossRate: c.lossRate });
      links.push(link);
      ccUsed = setCongestionControl(link, cc);
      for (const r of recordings) {
        remotes.set(`${r.page.name} ${c.name}`, await startRemoteReplay(link, PCP, r.bundle, ['--server-delays', r.delays, '--protocol', c.protocol]));
      }
      process.stderr.write(`link ${c.name} open (${link.backend}), ${recordings.length} replay servers\n`);
    }
    const t0 = Date.now();
    let loads = 0;
    for (let k = 0; k < runs; k++) {
      for (const [i, c] of conditions.entries()) {
        const link = links[i]!;
        for (const r of recordings) {
          const key = `${r.page.name} ${c.name}`;
          const remote = remotes.get(key)!;
          const entry = real.get(key) ?? real.set(key, { times: [], misses: 0 }).get(key)!;
          await remote.resetStats();
          try {
            const t = await loadOnce(remote.ready.pageUrl, { chromiumArgs: remote.ready.chromiumArgs, wrap: (cmd, a) => link.wrap('client', cmd, a), timeoutMs: 120_000 });
            entry.times.push({ load: t.loadTime, dcl: t.domContentLoadedTime });
            entry.misses += (await remote.stats()).misses.length;
            loads++;
          } catch (e) {
            console.log(`${key} run ${k + 1}: ${(e as Error).message}`);
          }
          process.stderr.write(`\rround ${k + 1}/${runs}: ${key}`.padEnd(70));
        }
      }
    }
    process.stderr.write('\n');
    return { real, loadsPerMinute: loads / ((Date.now() - t0) / 60_000), cc: ccUsed, backend: links[0]?.backend ?? 'none' };
  } finally {
    await closeAll();
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}

/**
 * The link's namespaces inherit the machine's TCP congestion control (bbr here, which ignores random
 * loss); the emulator models NewReno or CUBIC, so both ends use `cc` (shaper/README.md). A namespace
 * may only pick an algorithm in the machine's net.ipv4.tcp_allowed_congestion_control (here reno and
 * bbr: cubic is refused), hence reno by default. Returns the one in force on the server side.
 */
function setCongestionControl(link: { wrap(side: 'client' | 'server', cmd: string, args: string[]): { cmd: string; args: string[] } }, cc: string): string {
  for (const side of ['server', 'client'] as const) {
    if (cc !== 'inherit') {
      const w = link.wrap(side, 'sysctl', ['-q', '-w', `net.ipv4.tcp_congestion_control=${cc}`]);
      try {
        execFileSync(w.cmd, w.args, { stdio: ['ignore', 'ignore', 'pipe'] });
      } catch (e) {
        throw new Error(`cannot set TCP congestion control ${cc} in the link: ${String((e as { stderr?: Buffer }).stderr ?? e).trim()}`);
      }
    }
  }
  const r = link.wrap('server', 'cat', ['/proc/sys/net/ipv4/tcp_congestion_control']);
  return execFileSync(r.cmd, r.args, { encoding: 'utf8' }).trim();
}

function printTable(rows: GridRow[]): void {
  const ms = (v: number): string => v.toFixed(0).padStart(6);
  const pct = (v: number): string => `${(100 * v).toFixed(0)}%`.padStart(5);
  console.log(`\n${'page'.padEnd(26)}${'condition'.padEnd(18)}${'real load (min-max)'.padStart(20)}${'emu'.padStart(7)}${'lantern'.padStart(8)}${'noDNS'.padStart(7)}${'real DCL'.padStart(9)}${'emu'.padStart(7)}${'lantern'.padStart(8)}${'miss'.padStart(5)}`);
  for (const r of rows) {
    console.log(
      r.page.slice(0, 25).padEnd(26) + r.condition.padEnd(18) + `${ms(r.real.load)} (${r.real.loadMin.toFixed(0)}-${r.real.loadMax.toFixed(0)})`.padStart(20) +
        ms(r.predicted.emulator.load).padStart(7) + ms(r.predicted.lantern.load).padStart(8) + ms(r.predicted.lanternNoDns.load).padStart(7) +
        ms(r.real.dcl).padStart(9) + ms(r.predicted.emulator.dcl).padStart(7) + ms(r.predicted.lantern.dcl).padStart(8) + String(r.real.misses).padStart(5),
    );
  }
  console.log(`\n|predicted - real| / real, p50 / p90 (load; DOMContentLoaded); spread = largest (max - min) / median of a row's real loads`);
  console.log(`${'condition'.padEnd(18)}${'rows'.padStart(5)}${'spread'.padStart(8)}  ${TOOLS.map((t) => `${t} load`.padEnd(18) + `${t} DCL`.padEnd(18)).join('')}`);
  for (const g of summarizeGrid(rows)) {
    const cell = (e: { p50: number; p90: number }): string => `${pct(e.p50)} / ${pct(e.p90)}`.padEnd(18);
    console.log(g.group.padEnd(18) + String(g.rows).padStart(5) + pct(g.spread).padStart(8) + '  ' + TOOLS.map((t) => cell(g.errors[t].load) + cell(g.errors[t].dcl)).join(''));
  }
}

/** Predicted vs real (both tools) and error CDFs, PNG and SVG, by matplotlib (emulator/accuracy/plot_grid.py). */
async function plot(csv: string, dir: string): Promise<void> {
  const py = process.env.PYTHON ?? 'python3';
  try {
    const { stdout } = await run(py, [join(ROOT, 'emulator/accuracy/plot_grid.py'), csv, dir]);
    process.stdout.write(stdout);
  } catch (e) {
    const msg = ((e as { stderr?: string }).stderr ?? String(e)).trim().split('\n').pop();
    throw new Error(`plots not written (${msg}); the CSV is. matplotlib: pip install -e 'server-delays[dev]', or --no-plots`);
  }
}

main().then(
  (code) => process.exit(code),
  (e: unknown) => {
    console.error(`accuracy:emulator: ${e instanceof Error ? e.message : String(e)}`);
    process.exit(e instanceof UsageError ? 2 : 1);
  },
);
