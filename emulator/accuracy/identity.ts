/**
 * accuracy:identity — is the emulator right at the recording's own conditions? Profiles the example site
 * (served as scripts/demo.sh serves it) and every ground-truth page (profiler/test-sites, served as
 * fidelity:rules serves them) in real Chromium with a packet capture, several loads each; builds each
 * load's graph with `pcp build` (server delays measured from the capture); emulates it at loopback
 * conditions (1 Gbit/s, 0.1 ms RTT); and compares, on one clock (ms from navigation start), the recorded
 * load and DOMContentLoaded (the trace's marks) with the emulated ones. Prints per page and overall the
 * median and p90 of |error|, and writes a CSV. Timing results are benchmark output, never a gate.
 *
 *   npm run accuracy:identity [-- --runs N] [--page NAME]... [--csv FILE] [--keep DIR] [--from DIR] [--timeline]
 *
 * --keep DIR keeps the bundles and graphs; --from DIR re-emulates graphs kept by an earlier run without
 * profiling again (to compare emulator models on the same recordings), or the recordings accuracy:emulator
 * kept; --timeline prints each load node by node beside its emulation (identity-timeline.ts).
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { checkedOption, positiveInt, scriptArgs } from '@pcp/profiler/script-args';
import type { Graph } from '@pcp/graph-builder';
import { CSV_HEADER, csvRow, pageIdentity, summarize, type IdentityRun, type PageIdentity } from './identity-stats.ts';
import { emulateIdentity, LOOPBACK } from './identity-run.ts';
import { formatTimeline, identityTimeline } from './identity-timeline.ts';
import { simulate } from '../src/simulator.ts';
import { recordedProtocol } from '../src/recorded-protocol.ts';
import { optionPairs, parseEmulatorOptions, type EmulatorConfig } from '../src/config.ts';
import { accuracyPages, startPageServers, type PageSpec } from './pages.ts';

const HELP = `usage: npm run accuracy:identity [-- options]

Profiles the example site and the ground-truth test pages in Chromium (N loads each, with a packet
capture), builds each load's graph, emulates it at the recording's own conditions (loopback) and prints
per page and overall the median and p90 of |emulated - recorded| / recorded for load and DOMContentLoaded,
both measured from navigation start.

options:
  --runs N       loads per page (default 3; the recorded figure is their median)
  --page NAME    only this page (repeatable): 'example-site', a test-site directory name, a source
                 (example, suite, docs, synthesized: pages synthesized from legacy graphs, made once
                 into the work directory's synthesized/), a page synth-<name>, or all
  --csv FILE     where to write the per-page CSV (default docs/accuracy/identity.csv)
  --keep DIR     keep the bundles and graphs in DIR
  --from DIR     re-emulate the graphs kept in DIR by an earlier --keep (DIR/<page>/run<k>/graph.json), or by
                 accuracy:emulator --keep (DIR/<page>/recordings/<k>/graph.json), without profiling
  --timeline     print each load node by node beside its emulation (ms from navigation start) and the
                 first node the emulation runs ahead of by more than 2 ms (best with --page)
  --option K=V   an emulator option over the loopback defaults (repeatable), e.g. resource-scheduler=false
  -h, --help
`;

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const PCP = join(ROOT, 'cli/bin/pcp.js');
const run = promisify(execFile);

async function main(): Promise<number> {
  const { values } = scriptArgs('accuracy:identity', HELP, {
    runs: { type: 'string' },
    page: { type: 'string', multiple: true },
    csv: { type: 'string' },
    keep: { type: 'string' },
    from: { type: 'string' },
    option: { type: 'string', multiple: true },
    timeline: { type: 'boolean' },
  });
  const runs = checkedOption('accuracy:identity', () => positiveInt('runs', values.runs, 3));
  const options = values.option ?? [];
  const loopback = loopbackConfig(options);
  // The protocol the page was recorded over, unless the caller chose one (--option protocol=...).
  const chosen = options.some((o) => o.startsWith('protocol='));
  const atRecordedProtocol = (graph: Graph): EmulatorConfig => (chosen ? loopback : { ...loopback, protocol: recordedProtocol(graph) ?? loopback.protocol });
  const csvPath = values.csv ?? join(ROOT, 'docs/accuracy/identity.csv');
  const pages = await accuracyPages(values.page);
  if (pages.length === 0) throw new UsageError('no page matches --page');

  let graphsByPage: Map<string, string[]>;
  let work: string | undefined;
  const t0 = Date.now();
  if (values.from) {
    graphsByPage = keptGraphs(values.from, pages);
  } else {
    work = values.keep ?? mkdtempSync(join(tmpdir(), 'pcp-identity-'));
    try {
      graphsByPage = await profileAndBuild(pages, runs, work);
    } catch (e) {
      if (!values.keep) rmSync(work, { recursive: true, force: true });
      throw e;
    }
  }
  const rows: PageIdentity[] = [];
  const skipped: string[] = [];
  for (const page of pages) {
    const idRuns: IdentityRun[] = [];
    for (const file of graphsByPage.get(page.name) ?? []) {
      const graph = JSON.parse(readFileSync(file, 'utf8')) as Graph;
      const config = atRecordedProtocol(graph);
      const r = emulateIdentity(graph, config);
      if (typeof r === 'string') skipped.push(`${page.name} (${file.split('/').slice(-2).join('/')}): ${r}`);
      else idRuns.push(r);
      if (values.timeline && typeof r !== 'string') {
        console.log(`\n${page.name} ${file}: recorded load ${r.recordedLoad.toFixed(1)}, emulated ${r.emulatedLoad.toFixed(1)} ms`);
        console.log(formatTimeline(identityTimeline(graph, simulate(graph, config)), TIMELINE_MARGIN_MS));
      }
    }
    if (idRuns.length > 0) rows.push(pageIdentity(page.name, idRuns));
  }
  if (work && !values.keep) rmSync(work, { recursive: true, force: true });

  const ms = (v: number): string => v.toFixed(0).padStart(7);
  const pct = (v: number): string => `${(100 * v).toFixed(1)}%`.padStart(8);
  console.log(`\n${'page'.padEnd(28)}${'runs'.padStart(5)}${'rec load'.padStart(9)}${'(min-max)'.padStart(12)}${'emu load'.padStart(9)}${'error'.padStart(8)}${'rec DCL'.padStart(8)}${'emu DCL'.padStart(8)}${'error'.padStart(8)}`);
  for (const p of rows) {
    console.log(
      p.page.padEnd(28) + String(p.runs).padStart(5) + ms(p.recordedLoad).padStart(9) + `${p.recordedLoadMin.toFixed(0)}-${p.recordedLoadMax.toFixed(0)}`.padStart(12) +
        ms(p.emulatedLoad).padStart(9) + pct(p.loadError) + ms(p.recordedDcl).padStart(8) + ms(p.emulatedDcl).padStart(8) + pct(p.dclError),
    );
  }
  for (const s of skipped) console.log(`skipped ${s}`);
  if (rows.length === 0) {
    console.error('accuracy:identity: no page could be compared');
    return 1;
  }
  const s = summarize(rows);
  console.log(
    `\nidentity over ${s.pages} pages (ms from navigation start, loopback): |load error| median ${pct(s.loadMedian).trim()}, p90 ${pct(s.loadP90).trim()} ` +
      `(target median <= 5%); |DCL error| median ${pct(s.dclMedian).trim()}, p90 ${pct(s.dclP90).trim()}; median signed load error ${pct(s.loadBias).trim()}`,
  );
  if (!values.from) console.log(`${pages.length * runs} loads in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
  mkdirSync(dirname(csvPath), { recursive: true });
  writeFileSync(csvPath, [CSV_HEADER, ...rows.map(csvRow)].join('\n') + '\n');
  console.log(`wrote ${csvPath}`);
  return 0;
}

class UsageError extends Error {}

/** --timeline: how far ahead of the recording the emulation must run to be named (recorded times are to ~0.1 ms; tasks jitter by ~1). */
const TIMELINE_MARGIN_MS = 2;

function loopbackConfig(options: string[]): EmulatorConfig {
  try {
    return parseEmulatorOptions(optionPairs(options, { bandwidth: `${LOOPBACK.bandwidthBps}`, rtt: `${LOOPBACK.rttMs}ms`, protocol: LOOPBACK.protocol, queue: LOOPBACK.queue!, 'min-queue': `${LOOPBACK.minQueuePackets}`, 'linux-rto': `${LOOPBACK.linuxRto}` }));
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
}

/** Profiles every page `runs` times (interleaved: one pass over all pages per run) and builds each bundle. */
async function profileAndBuild(pages: PageSpec[], runs: number, work: string): Promise<Map<string, string[]>> {
  const { capturePage } = await import('@pcp/profiler');
  const servers = await startPageServers(pages, { synthDir: join(work, 'synthesized') });
  const out = new Map<string, string[]>();
  try {
    for (let k = 0; k < runs; k++) {
      for (const page of pages) {
        const dir = join(work, page.name, `run${k + 1}`);
        const { url, hostResolverRules } = servers.target(page);
        const capture = () => capturePage(url, join(dir, 'bundle'), { hostResolverRules, ignoreCertificateErrors: true, pcap: true, quietMs: 500, taskFlows: page.taskFlows });
        // A loaded machine sometimes starts Chromium too slowly: one retry.
        let { meta } = await capture();
        if (meta.status === 'failed' && meta.endReason === 'error') ({ meta } = await capture());
        if (meta.status !== 'complete') {
          console.log(`${page.name} run ${k + 1}: capture ${meta.status} (${meta.message})`);
          continue;
        }
        const graph = join(dir, 'graph.json');
        try {
          await run('node', [PCP, 'build', join(dir, 'bundle'), '--out', graph], { maxBuffer: 1 << 24 });
        } catch (e) {
          console.log(`${page.name} run ${k + 1}: build failed: ${((e as { stderr?: string }).stderr ?? String(e)).trim().split('\n').pop()}`);
          continue;
        }
        (out.get(page.name) ?? out.set(page.name, []).get(page.name)!).push(graph);
        process.stderr.write(`\r${page.name} run ${k + 1}/${runs}`.padEnd(60));
      }
    }
  } finally {
    await servers.close();
  }
  process.stderr.write('\n');
  return out;
}

/**
 * Graphs an earlier --keep left, DIR/<page>/run<k>/graph.json, or the recordings accuracy:emulator --keep
 * made of each page, DIR/<page>/recordings/<k>/graph.json (made as these are: on loopback, each origin over
 * TLS, which at loopback costs the handshakes' work, not round trips).
 */
function keptGraphs(dir: string, pages: PageSpec[]): Map<string, string[]> {
  if (!existsSync(dir)) throw new UsageError(`--from ${dir}: no such directory`);
  const out = new Map<string, string[]>();
  for (const p of pages) {
    const pd = join(dir, p.name);
    if (!existsSync(pd)) continue;
    const runs = existsSync(join(pd, 'recordings')) ? join(pd, 'recordings') : pd;
    const files = readdirSync(runs).map((r) => join(runs, r, 'graph.json')).filter((f) => existsSync(f));
    if (files.length) out.set(p.name, files.sort());
  }
  return out;
}

main().then(
  (code) => process.exit(code),
  (e: unknown) => {
    console.error(`accuracy:identity: ${e instanceof Error ? e.message : String(e)}`);
    process.exit(e instanceof UsageError ? 2 : 1);
  },
);
