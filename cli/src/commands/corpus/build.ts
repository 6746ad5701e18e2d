/** `pcp corpus build SITES.txt --out DIR`: every site of a list into a corpus directory, on local processes or a Dask cluster. */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { CliError, Progress, UsageError, parse, positiveInt, requireStr, str, type Command } from '../../kit.ts';
import { PROFILE_OPTIONS_USAGE, captureOptions, profileArgs, requireChromium } from '../../profile-options.ts';
import { SITE_OPTIONS, SITE_OPTIONS_USAGE, siteSettings } from './options.ts';

const PCP_BIN = fileURLToPath(new URL('../../../bin/pcp.js', import.meta.url));

export const command: Command = {
  name: 'build',
  summary: 'profile a site list into a corpus directory (graphs, server delays, statuses)',
  usage: `
usage: pcp corpus build SITES.txt --out DIR [--concurrency N | --scheduler ADDR] [--pcap] [--archive]
                        [--runs K] [--retries R] [profiler options]

For every URL of SITES.txt (one a line, # comments): profile -> server delays (with --pcap) -> graph, into
DIR/pages/<id>/ (corpus/README.md), with a progress bar and one status line per site (ok, or the profiler's
failure reason). Resumable: a site whose page has its DONE marker is skipped, anything else is rebuilt. A
failed site is retried R times, then recorded in DIR/failures.jsonl; the batch goes on. A line that is not
an http(s) URL is reported with its number and skipped.

options:
  --out DIR                      the corpus directory (required; with --scheduler, an fsspec URL such as
                                 file:///shared/corpus or s3://bucket/corpus that every worker can write)
  --concurrency N                sites built at once on this machine, each in its own browser (default 1)
  --scheduler ADDR               run the sites as Dask tasks: tcp://HOST:8786 (a running \`dask scheduler\`
                                 with workers started \`--nthreads 1 --resources browser=1\`), or local:N
                                 (a LocalCluster of N worker processes); needs pip install -e corpus/python
${SITE_OPTIONS_USAGE}
${PROFILE_OPTIONS_USAGE}

exit status: 0 when every site of the list was built, 1 when a site failed or a line was bad.
`,
  async run(args) {
    const p = parse(args, { ...SITE_OPTIONS, concurrency: { type: 'string' }, scheduler: { type: 'string' } });
    const [list, ...extra] = p.positionals;
    if (!list || extra.length) throw new UsageError('expected one site list (SITES.txt)');
    let out = requireStr(p, 'out');
    const concurrency = positiveInt(p, 'concurrency', 1);
    const { runs, retries } = siteSettings(p);
    const capture = captureOptions(p);
    const scheduler = str(p, 'scheduler');
    const corpus = await import('@pcp/corpus');
    if (scheduler !== undefined) {
      try {
        corpus.checkScheduler(scheduler);
      } catch (e) {
        throw new UsageError((e as Error).message);
      }
    }
    if (scheduler === undefined && /^[a-z][a-z0-9+.-]*:\/\//i.test(out)) {
      if (!out.startsWith('file://')) throw new UsageError(`--out ${out}: a URL other than file:// needs --scheduler (Dask writes through fsspec)`);
      out = fileURLToPath(out);
    }
    let text: string;
    try {
      text = readFileSync(list, 'utf8');
    } catch (e) {
      throw new CliError(`cannot read ${list}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
    }
    const { sites, bad } = corpus.parseSiteList(text);
    for (const b of bad) console.error(`${list}:${b.line}: ${b.reason}: ${b.text} (skipped)`);
    if (sites.length === 0) throw new CliError(`${list}: no http(s) URL to build`);
    const { capturePage, DEFAULT_CHROMIUM } = await import('@pcp/profiler');
    const exe = requireChromium(capture.executablePath, DEFAULT_CHROMIUM);
    const manifest = {
      source: 'sites' as const,
      settings: { chromium: chromiumVersion(exe), profiler: definedOnly(capture), conditions: { network: 'unshaped' }, runs },
    };

    const progress = new Progress(sites.length, 'corpus build');
    let failed = 0;
    let skipped = 0;
    const report = (st: { url: string; status: string; reason?: string }, wasSkipped: boolean): void => {
      if (wasSkipped) skipped++;
      if (st.status !== 'ok') failed++;
      console.log(st.status === 'ok' ? `ok      ${st.url}${wasSkipped ? ' (already built)' : ''}` : `failed  ${st.url} — ${st.reason}`);
      progress.tick(st.status === 'ok', st.url);
    };
    if (scheduler !== undefined) {
      const siteArgs = [...profileArgs(p), '--runs', String(runs), '--retries', String(retries)];
      const job = {
        scheduler, out, sites: sites.map(({ url, id }) => ({ url, id })), siteList: text, siteArgs,
        manifest: corpus.corpusManifest(manifest),
        pcp: [process.execPath, PCP_BIN],
      };
      try {
        await corpus.runDaskBuild(job, (e) => (e.event === 'site' ? report(e.status, e.skipped) : undefined));
      } catch (e) {
        throw new CliError((e as Error).message);
      }
    } else {
      corpus.initCorpus(out, manifest, text);
        await corpus.buildCorpus(sites, out, {
        concurrency,
        retries,
        site: { capture: (u, dir) => capturePage(u, dir, capture), runs },
        onSite: report,
      });
    }
    console.log(`${sites.length - failed} ok (${skipped} already built), ${failed} failed${bad.length ? `, ${bad.length} bad line(s) skipped` : ''}; corpus: ${out}${failed ? `, failures: ${out}/failures.jsonl` : ''}`);
    return failed > 0 || bad.length > 0 ? 1 : 0;
  },
};

function definedOnly(o: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
}

/** `chromium --version`, for the corpus settings (undefined when it cannot say). */
function chromiumVersion(exe: string): string | undefined {
  try {
    return execFileSync(exe, ['--version'], { encoding: 'utf8', timeout: 60_000, stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return undefined;
  }
}
