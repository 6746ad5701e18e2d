/**
 * accuracy:emulator — are `pcp emulate`'s what-if answers right? Records each page (N times, keeping the
 * recording the host disturbed least: quiet-recording.ts), unshaped, with
 * its archive and a packet capture (`pcp profile --archive --pcap`), builds its graph (`pcp build`) and
 * measures its server delays (`pcp delays`); then for each network condition predicts load and
 * DOMContentLoaded with the emulator (in-process, as `pcp emulate` does) and with Lantern (as
 * `pcp lantern` does: CPU x1, with and without its DNS charge), and loads the page for real: the replay
 * server in a shaped link's server namespace, Chromium in its client namespace (as `pcp replay
 * --bandwidth --rtt` does), the loads interleaved over pages and conditions. Prints per condition and
 * overall p50/p90 of |predicted - real| / real for both tools, each condition's run-to-run spread, and
 * loads per minute; writes a CSV and plots. Timing figures are benchmark output, never a gate.
 */
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { checkedOption, positiveInt, scriptArgs } from '@pcp/profiler/script-args';
import type { Graph } from '@pcp/graph-builder';
import { readMeta } from '@pcp/profiler/bundle';
import { ConfigError, oneOf, resolveConfig } from '../src/config.ts';
import { LOSS_DETECTIONS } from '../src/link-config.ts';
import { emulateIdentity } from './identity-run.ts';
import { median } from '../src/stats.ts';
import { accuracyPages, startPageServers, type PageServers, type PageSpec } from './pages.ts';
import { disturbance, disturbanceMs, leastDisturbed, type Disturbance } from './quiet-recording.ts';
import { CSV_HEADER, csvRow, DEFAULT_GRID, gridRow, parseCondition, summarizeGrid, TOOLS, type Condition, type GridRow, type Times, type Tool } from './grid-stats.ts';
import { cellKey, loadsByCell, readLoadLog, type LoggedLoad } from './load-log.ts';
import { formatComparison, parseGridCsv } from './grid-compare.ts';
import { describePlan, plan, readSpeed, type Speed } from './plan.ts';
import { loadReal, type Recording, type WallTime } from './real-loads.ts';
import { PREDICTION_QUEUES, predictionConfig, type RealBrowser } from './real-browser.ts';

const HELP = `usage: npm run accuracy:emulator [-- options]

Records each page on loopback (archive, capture, graph, server delays; --recordings times, keeping the
least disturbed recording), then for each network
condition predicts load and DOMContentLoaded with pcp emulate and with Lantern (CPU x1; with its DNS
charge and without), loads the replayed page for real in Chromium through a shaped link (root needed),
and prints per condition and overall the p50 and p90 of |predicted - real| / real, the real loads'
run-to-run spread and loads per minute. Times are ms from navigation start. Every origin is served
over TLS so that each condition's protocol (h1, h2) is the one Chromium really speaks, and the
emulator is told so (TLS 1.3: one round trip per connection) and that an incognito context does not
preconnect (accuracy/real-browser.ts). A lossy condition is reported apart (the emulator predicts it
with its loss model, the median of 9 seeds).

Pages (emulator/accuracy/pages.ts; default 31): the example site, 18 of the ground-truth test pages,
and 12 pages of Debian's HTML documentation packages (scripts/setup.sh installs them). One replay server per link
serves every page; one Chromium per link and round loads every page, each in a fresh incognito
context, and each load is checked cold (new connection and TLS handshake, nothing from a cache).

options:
  --page NAME        only this page, or all pages of a source: example, suite, docs, synthesized
                     (8 pages synthesized from legacy graphs, synth-<name>: emulator/accuracy/synth-pages.ts,
                     made once into DIR/synthesized); or all (repeatable)
  --condition C      RATE/RTT/h1|h2[/LOSS] (repeatable; default: ${DEFAULT_GRID.join(' ')})
  --runs N           real loads per page and condition (default 5; the median is compared)
  --recordings N     record each page N times (default 3), in rounds over the pages, and keep the one
                     the host disturbed least: the smallest sum of the main renderer thread's waiting
                     (each task's wall minus thread CPU time, navigation start to load) and the
                     browser's own request delays (graph browserDelay). A loaded host inflates both and
                     the emulator replays them unchanged under every condition; the page's own work is
                     the same in every recording, so the sum tells them apart. On 6 pages x 3
                     recordings it picked the smallest load time on 4; where not, its pick predicted
                     better (grid load p90 41.8% against 47.6% by the smallest load, 48.6% for the
                     first recording: emulator/README.md). DIR/<page>/recordings.json lists the
                     scores; the others stay in DIR/<page>/recordings/<i>
  --keep DIR         keep recordings and real loads in DIR (DIR/<page>/{bundle,graph.json,delays.json},
                     DIR/loads.jsonl); run again with the same DIR to resume: recorded pages and
                     finished loads are kept and skipped
  --from DIR         as --keep, but never record (use the recordings DIR has)
  --budget MIN       start no real load after MIN minutes of loading; report what is done
                     (with --keep DIR, a later run resumes the rest)
  --report           with --keep or --from DIR: no recording or loading, the table, CSV and plots
                     from what DIR holds
  --compare FILE     also print the emulator's errors to one decimal beside those of an earlier run's
                     CSV (read before this run writes its own: --compare docs/accuracy/emulator.csv
                     works) and the cells whose emulated load moved (accuracy/grid-compare.ts)
  --dry-run          print the plan and its projected time (from the last run's measured speed), and exit
  --fresh-browser    start a fresh Chromium for every load instead (slower; for comparison)
  --csv FILE         per page and condition (default docs/accuracy/emulator.csv; the measured speed
                     goes beside it, emulator-speed.json)
  --plots DIR        where the PNG and SVG plots go (default docs/accuracy)
  --no-plots         no plots (they need matplotlib: pip install -e 'server-delays[dev]')
  --loss-detection nack|sack
                     how the emulator's senders detect loss in its predictions: the thesis' NACK
                     scheme (default) or ACK clocking as the real (Linux) servers do (three duplicate
                     ACKs / SACK, else the RTO: emulator/README.md "Loss detection")
  --queue shaper|red the emulated bottleneck queue: the shaper's link (default), drop-tail without drops
                     (SHAPER_QUEUE: the real sender's TCP Small Queues keep its tbf queue from
                     overflowing), or the thesis' RED of 1.5 BDP. |load error| p50 / p90, red -> shaper, on the
                     same loads: the default set 7.7% / 25.9% -> 7.0% / 25.4% (lossy 12.1% / 40.0% -> 11.1% /
                     38.0%; session 14), the synthesized pages 6.8% / 20.8% -> 5.2% / 14.2% (session 13)
  --cc NAME          TCP congestion control in the link's namespaces: reno (default; the
                     emulator's default model, NewReno), cubic (the emulator is told so), or
                     'inherit' (the machine's default, bbr here)
  -h, --help
`;

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const PCP = join(ROOT, 'cli/bin/pcp.js');
const run = promisify(execFile);

class UsageError extends Error {}

/** --compare FILE: an earlier run's rows. */
function earlierRun(file: string): GridRow[] {
  if (!existsSync(file)) throw new UsageError(`--compare ${file}: no such file`);
  try {
    return parseGridCsv(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new UsageError(`--compare ${file}: ${(e as Error).message}`);
  }
}

/** Whether the emulator models random loss: a loss rate resolves to a loss model in its config. */
const LOSS_MODEL = resolveConfig({ bandwidthBps: 1e6, rttMs: 10, protocol: 'h1', lossRate: 0.01 }).loss !== undefined;

async function main(): Promise<number> {
  const { values } = scriptArgs('accuracy:emulator', HELP, {
    page: { type: 'string', multiple: true },
    condition: { type: 'string', multiple: true },
    runs: { type: 'string' },
    recordings: { type: 'string' },
    keep: { type: 'string' },
    from: { type: 'string' },
    'dry-run': { type: 'boolean' },
    report: { type: 'boolean' },
    budget: { type: 'string' },
    'fresh-browser': { type: 'boolean' },
    csv: { type: 'string' },
    plots: { type: 'string' },
    'no-plots': { type: 'boolean' },
    cc: { type: 'string' },
    'loss-detection': { type: 'string' },
    queue: { type: 'string' },
    compare: { type: 'string' },
  });
  const recordingsPerPage = checkedOption('accuracy:emulator', () => positiveInt('recordings', values.recordings, 3));
  const runs = checkedOption('accuracy:emulator', () => positiveInt('runs', values.runs, 5));
  let conditions: Condition[];
  try {
    conditions = (values.condition ?? DEFAULT_GRID).map(parseCondition);
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  const budgetMin = values.budget === undefined ? Infinity : Number(values.budget);
  if (!(budgetMin > 0)) throw new UsageError(`--budget expects minutes > 0, got '${values.budget}'`);
  const cc = values.cc ?? 'reno';
  if (!/^[a-z0-9_]+$/.test(cc)) throw new UsageError(`--cc expects a congestion control name (cubic, reno, bbr) or 'inherit', got '${cc}'`);
  const lossDetection = values['loss-detection'] === undefined ? undefined : oneOf('loss-detection', values['loss-detection'], LOSS_DETECTIONS);
  const queue = oneOf('queue', values.queue ?? 'shaper', PREDICTION_QUEUES);
  if (values.report && !values.keep && !values.from) throw new UsageError('--report needs the --keep or --from DIR of an earlier run');
  if (values.keep && values.from) throw new UsageError('--keep and --from do not go together (--keep DIR resumes too)');
  const pages = await accuracyPages(values.page, 'grid');
  if (pages.length === 0) throw new UsageError('no page matches --page');
  if (values.from && !existsSync(values.from)) throw new UsageError(`--from ${values.from}: no such directory`);
  const csvPath = values.csv ?? join(ROOT, 'docs/accuracy/emulator.csv');
  const earlier = values.compare === undefined ? undefined : earlierRun(values.compare);
  const speedPath = join(dirname(csvPath), 'emulator-speed.json');

  const kept = values.from ?? values.keep;
  const toRecord = values.from ? 0 : pages.filter((p) => !hasRecording(kept, p)).length;
  const doneBefore = kept ? doneLoads(readLoadLog(kept), pages, conditions, runs) : 0;
  const shape = { pages: pages.length, conditions: conditions.length, runs };
  const speed = readSpeed(speedPath);
  console.log(describePlan(shape, plan({ ...shape, done: doneBefore, toRecord }, speed), speed));
  if (values['dry-run']) return 0;
  if (process.getuid?.() !== 0 && !values.report) throw new UsageError('the real loads go through the shaper, which needs root (run as root)');

  const work = kept ?? mkdtempSync(join(tmpdir(), 'pcp-accuracy-'));
  mkdirSync(work, { recursive: true });
  const wall: WallTime = { record: 0, capture: 0, build: 0, delays: 0, linkSetup: 0, chromiumStarts: 0, loads: 0 };
  try {
    const t = Date.now();
    const recordings = await record(pages, work, !values.from && !values.report, wall, recordingsPerPage);
    wall.record = (Date.now() - t) / 1000;
    if (recordings.length === 0) {
      console.error('accuracy:emulator: no page could be recorded');
      return 1;
    }
    const predictions = await predict(recordings, conditions, { congestionControl: cc === 'cubic' ? 'cubic' : 'newreno', freshBrowser: Boolean(values['fresh-browser']), lossDetection, queue });
    const live = recordings.filter((r) => conditions.every((c) => predictions.has(cellKey(r.page.name, c.name))));
    const result = values.report
      ? { loads: 0, loadsPerMinute: 0, pageSeconds: 0, starts: 0, cc: 'as run', backend: 'as run', gaveUp: [] as string[], stoppedEarly: false }
      : await loadReal(live, conditions, runs, cc, work, wall, { freshBrowser: Boolean(values['fresh-browser']), budgetMs: budgetMin * 60_000 });
    if (result.stoppedEarly) console.log(`\nstopped at the --budget of ${budgetMin} min${kept ? `: run again with --keep ${kept} to resume` : ''}`);
    const logged = readLoadLog(work);
    const byCell = loadsByCell(logged.filter((l) => !l.warm));
    const rows: GridRow[] = [];
    const counted: LoggedLoad[] = [];
    for (const c of conditions) {
      for (const r of live) {
        const key = cellKey(r.page.name, c.name);
        const got = (byCell.get(key) ?? []).slice(0, runs);
        const pred = predictions.get(key);
        if (got.length === 0 || !pred) {
          console.log(`skipped ${key}: ${!pred ? 'no prediction' : 'no real load completed'}`);
          continue;
        }
        counted.push(...got);
        rows.push(gridRow(r.page.name, c.name, got.map((l) => ({ load: l.load, dcl: l.dcl })), got.reduce((n, l) => n + l.misses, 0), pred));
      }
    }
    if (rows.length === 0) {
      console.error('accuracy:emulator: no page and condition could be compared');
      return 1;
    }
    printTable(rows);
    if (earlier) console.log(formatComparison(earlier, rows));
    const newPages = recordings.length - (pages.length - toRecord);
    const warm = logged.filter((l) => l.warm && live.some((r) => r.page.name === l.page) && conditions.some((c) => c.name === l.condition));
    console.log(`\n${describeLoads([...counted, ...warm], conditions)}; warm loads are not compared (the cell is loaded again)`);
    if (values.report) console.log(`from ${work}: ${rows.length} page x condition cells of ${live.length} pages, ${counted.length} real loads`);
    else {
      console.log(`link: ${result.backend} backend, TCP congestion control ${result.cc}; ${rows.length} page x condition cells of ${live.length} pages; load average ${loadAverage()}`);
      console.log(`this session: ${result.loads} real loads in ${(wall.loads / 60).toFixed(1)} min of loading, ${result.loadsPerMinute.toFixed(1)} loads per minute (${values['fresh-browser'] ? 'a fresh Chromium per load' : 'one Chromium per link and round, a fresh context per load'})`);
      console.log(`wall time: recording ${wall.record.toFixed(0)} s (${Math.max(0, newPages)} pages: Chromium captures ${wall.capture.toFixed(0)} s, pcp delays ${wall.delays.toFixed(0)} s, pcp build ${wall.build.toFixed(0)} s), links and replay servers ${wall.linkSetup.toFixed(0)} s (${conditions.length} links), Chromium starts ${wall.chromiumStarts.toFixed(0)} s (${result.starts}), page loads ${(wall.loads - wall.chromiumStarts).toFixed(0)} s, of which the pages' own time (navigation start to load event) ${result.pageSeconds.toFixed(0)} s`);
    }
    mkdirSync(dirname(csvPath), { recursive: true });
    writeFileSync(csvPath, [CSV_HEADER, ...rows.map(csvRow)].join('\n') + '\n');
    console.log(`wrote ${csvPath}`);
    if (result.loads >= 20) {
      const measured: Speed = {
        loadsPerMinute: result.loadsPerMinute,
        recordSecondsPerPage: newPages > 0 ? wall.record / newPages : (speed?.recordSecondsPerPage ?? 0),
        linkSetupSeconds: wall.linkSetup / conditions.length,
        at: new Date().toISOString().slice(0, 16) + 'Z',
        loadAverage: loadAverage(),
      };
      writeFileSync(speedPath, JSON.stringify(measured, null, 2) + '\n');
      console.log(`wrote ${speedPath}`);
    }
    if (!values['no-plots']) await plot(csvPath, values.plots ?? join(ROOT, 'docs/accuracy'));
    return result.gaveUp.length ? 1 : 0;
  } finally {
    if (!kept) rmSync(work, { recursive: true, force: true });
  }
}

/** Real loads already in the log for these pages and conditions (at most `runs` per cell). */
function doneLoads(log: LoggedLoad[], pages: PageSpec[], conditions: Condition[], runs: number): number {
  const by = loadsByCell(log.filter((l) => !l.warm));
  return pages.reduce((n, p) => n + conditions.reduce((m, c) => m + Math.min(runs, by.get(cellKey(p.name, c.name))?.length ?? 0), 0), 0);
}

/** The cold check and protocol over the compared loads, in one line. */
function describeLoads(loads: LoggedLoad[], conditions: Condition[]): string {
  const warm = loads.filter((l) => l.warm);
  const checked = loads.filter((l) => l.protocol !== undefined);
  const want = new Map(conditions.map((c) => [c.name, c.protocol === 'h2' ? 'h2' : 'http/1.1']));
  const wrong = checked.filter((l) => l.protocol !== want.get(l.condition));
  const reasons = [...new Set(warm.map((l) => l.warm))].join('; ');
  return `cold check: ${checked.length - warm.length} of ${checked.length} checked loads cold (document on a new connection with a TLS handshake, nothing from a cache)` +
    `${warm.length ? ` — warm: ${reasons}` : ''}; ${checked.length - wrong.length} of ${checked.length} spoke the condition's protocol; ${loads.length - checked.length} loads unchecked (fresh browser)`;
}

function loadAverage(): string {
  return readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
}

const RECORDING_FILES = ['bundle/archive.har', 'graph.json', 'delays.json'];

/** DIR/<page> holds a finished recording (its graph is written last). */
function hasRecording(dir: string | undefined, page: PageSpec): boolean {
  return dir !== undefined && RECORDING_FILES.every((f) => existsSync(join(dir, page.name, f)));
}

/**
 * Each page recorded `recordings` times on loopback (every origin over TLS), built, and its server delays
 * measured, in rounds (every page once, then again) so that a slow spell of the host falls on different
 * recordings of each page; the least disturbed recording is kept as DIR/<page>/{bundle,graph.json,delays.json}
 * (quiet-recording.ts), the others stay in DIR/<page>/recordings/<i> beside recordings.json (each one's
 * scores, and which was kept). Pages the work directory already has a recording of are kept (`record`:
 * false records none). A page no recording of which succeeds is reported and left out.
 */
async function record(pages: PageSpec[], work: string, recordMissing: boolean, wall: WallTime, recordings: number): Promise<Recording[]> {
  const missing = recordMissing ? pages.filter((p) => !hasRecording(work, p)) : [];
  if (missing.length) {
    const { capturePage } = await import('@pcp/profiler');
    const { parseTrace, readText } = await import('@pcp/graph-builder');
    const servers = await startPageServers(missing, { tls: true, synthDir: join(work, 'synthesized') });
    const scored = new Map<string, { recording: number; dir: string; scores: Disturbance }[]>();
    try {
      for (const page of missing) rmSync(join(work, page.name), { recursive: true, force: true });
      for (let i = 1; i <= recordings; i++) {
        for (const page of missing) {
          const dir = recordings === 1 ? join(work, page.name) : join(work, page.name, 'recordings', String(i));
          if (!(await recordOnce(page, dir, servers, capturePage, wall))) continue;
          const bundle = join(dir, 'bundle');
          const traceFile = join(bundle, 'trace.json.gz');
          const graph = JSON.parse(readFileSync(join(dir, 'graph.json'), 'utf8')) as Graph;
          const scores = disturbance(existsSync(traceFile) ? parseTrace(readText(traceFile), traceFile).events : [], graph);
          (scored.get(page.name) ?? scored.set(page.name, []).get(page.name)!).push({ recording: i, dir, scores });
          process.stderr.write(`recorded ${page.name} (${i}/${recordings}): load ${scores.loadMs.toFixed(0)} ms, main-thread waiting ${scores.mainThreadWaitMs.toFixed(0)} ms, browser delays ${scores.browserDelayMs.toFixed(0)} ms; load average ${loadAverage()}\n`);
        }
      }
    } finally {
      await servers.close();
    }
    if (recordings > 1) {
      for (const [name, cands] of scored) {
        const kept = cands[leastDisturbed(cands.map((c) => c.scores))]!;
        const dir = join(work, name);
        for (const f of ['bundle', 'delays.json', 'graph.json']) cpSync(join(kept.dir, f), join(dir, f), { recursive: true });
        writeFileSync(join(dir, 'recordings.json'), JSON.stringify({
          kept: kept.recording,
          criterion: 'smallest main-thread waiting + browser delays (emulator/accuracy/quiet-recording.ts)',
          recordings: cands.map((c) => ({ recording: c.recording, ...c.scores, disturbanceMs: disturbanceMs(c.scores) })),
        }, null, 2) + '\n');
        console.log(`${name}: kept recording ${kept.recording} of ${cands.length} (${cands.map((c) => `${c.recording}: ${disturbanceMs(c.scores).toFixed(0)} ms disturbed, load ${c.scores.loadMs.toFixed(0)}`).join('; ')})`);
      }
    }
  }
  const out: Recording[] = [];
  for (const p of pages) {
    if (!hasRecording(work, p)) {
      if (!recordMissing) console.log(`${p.name}: no recording in ${work}; left out`);
      continue;
    }
    const dir = join(work, p.name);
    const bundle = join(dir, 'bundle');
    const url = readMeta(bundle)?.url;
    if (!url) {
      console.log(`${p.name}: the recording has no meta.json url; left out`);
      continue;
    }
    out.push({ page: p, bundle, graph: JSON.parse(readFileSync(join(dir, 'graph.json'), 'utf8')) as Graph, delays: join(dir, 'delays.json'), url });
  }
  return out;
}

/** One recording of `page` into `dir` (bundle, delays.json, graph.json written last); false when it fails (reported). */
async function recordOnce(page: PageSpec, dir: string, servers: PageServers, capturePage: typeof import('@pcp/profiler').capturePage, wall: WallTime): Promise<boolean> {
  rmSync(dir, { recursive: true, force: true });
  const bundle = join(dir, 'bundle');
  const { url, hostResolverRules } = servers.target(page);
  const capture = () => capturePage(url, bundle, { hostResolverRules, ignoreCertificateErrors: true, pcap: true, sslKeyLog: true, archive: true, quietMs: 500, taskFlows: page.taskFlows });
  // A loaded machine sometimes starts Chromium too slowly: one retry.
  let t = Date.now();
  let { meta } = await capture();
  if (meta.status === 'failed' && meta.endReason === 'error') ({ meta } = await capture());
  wall.capture += (Date.now() - t) / 1000;
  if (meta.status !== 'complete') {
    console.log(`${page.name}: recording ${meta.status} (${meta.message}); left out`);
    return false;
  }
  try {
    // The delays first, and the build takes them (it would otherwise measure them a second time).
    t = Date.now();
    await run(process.execPath, [PCP, 'delays', bundle, '--out', join(dir, 'delays.json'), '--format', 'json'], { maxBuffer: 1 << 24 });
    wall.delays += (Date.now() - t) / 1000;
    t = Date.now();
    await run(process.execPath, [PCP, 'build', bundle, '--out', join(dir, 'graph.json'), '--server-delays', join(dir, 'delays.json')], { maxBuffer: 1 << 24 });
    wall.build += (Date.now() - t) / 1000;
  } catch (e) {
    console.log(`${page.name}: ${((e as { stderr?: string }).stderr ?? String(e)).trim().split('\n').pop()}; left out`);
    return false;
  }
  return true;
}

/** Seeds per prediction on a lossy link (its median is compared). */
const LOSSY_SEEDS = 9;

/** The emulator's and Lantern's predictions, keyed `page condition`; ms from navigation start. */
async function predict(recordings: Recording[], conditions: Condition[], browser: RealBrowser): Promise<Map<string, Record<Tool, Times>>> {
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
      // A lossy link makes each load a draw: the median over seeds, as the real side takes the median of its loads.
      const runs = Array.from({ length: c.lossRate > 0 ? LOSSY_SEEDS : 1 }, (_, i) =>
        emulateIdentity(r.graph, predictionConfig(c, browser, i + 1)));
      const failed = runs.find((x) => typeof x === 'string');
      if (failed !== undefined) {
        console.log(`${r.page.name}: ${failed}; left out`);
        break;
      }
      const ok = runs.filter((x) => typeof x !== 'string');
      const emu = { emulatedLoad: median(ok.map((x) => x.emulatedLoad)), emulatedDcl: median(ok.map((x) => x.emulatedDcl)) };
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
  let printedLossy = false;
  for (const g of summarizeGrid(rows)) {
    const cell = (e: { p50: number; p90: number }): string => `${pct(e.p50)} / ${pct(e.p90)}`.padEnd(18);
    if (g.lossy && !printedLossy) {
      printedLossy = true;
      console.log(`lossy, apart from overall${LOSS_MODEL ? '' : ': emulator has no loss model (it predicts the lossless link)'}`);
    }
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
    process.exit(e instanceof UsageError || e instanceof ConfigError ? 2 : 1);
  },
);
