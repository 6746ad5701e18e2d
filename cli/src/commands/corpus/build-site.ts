/** `pcp corpus build-site URL --out DIR`: plumbing, the one-site unit of a corpus build (what each Dask task runs). */
import { CliError, UsageError, parse, requireStr, str, type Command } from '../../kit.ts';
import { PROFILE_OPTIONS_USAGE, captureOptions, requireChromium } from '../../profile-options.ts';
import { SITE_OPTIONS, SITE_OPTIONS_USAGE, siteSettings } from './options.ts';

export const command: Command = {
  name: 'build-site',
  summary: 'build one site into DIR/pages/<id> (plumbing)',
  usage: `
usage: pcp corpus build-site URL --out DIR [--id ID] [--runs K] [--retries R] [profiler options]

Plumbing: one URL into DIR/pages/<id> exactly as \`pcp corpus build\` does it (profile, server delays when
--pcap, graph, status.json, DONE last), with up to R retries. Prints the page's status.json on one line;
exit status 0 when the page was built, 1 when it failed (the reason is in the status).

options:
  --out DIR                      the corpus directory (required)
  --id ID                        page id (default: the URL's, as corpus/README.md defines it)
${SITE_OPTIONS_USAGE}
${PROFILE_OPTIONS_USAGE}
`,
  async run(args) {
    const p = parse(args, { ...SITE_OPTIONS, id: { type: 'string' } });
    const [url, ...extra] = p.positionals;
    if (!url || extra.length) throw new UsageError('expected one URL');
    const out = requireStr(p, 'out');
    const { parseSiteList, buildWithRetries } = await import('@pcp/corpus');
    const { sites, bad } = parseSiteList(url);
    if (bad.length || !sites[0]) throw new UsageError(`${url}: ${bad[0]?.reason ?? 'not a URL'}`);
    const id = str(p, 'id') ?? sites[0].id;
    if (!/^[A-Za-z0-9._-]+$/.test(id) || id.startsWith('.')) throw new UsageError(`--id must be a file name (letters, digits, . _ -), got '${id}'`);
    const capture = captureOptions(p);
    const { runs, retries } = siteSettings(p);
    const { capturePage, DEFAULT_CHROMIUM } = await import('@pcp/profiler');
    requireChromium(capture.executablePath, DEFAULT_CHROMIUM);
    const status = await buildWithRetries({ url, id }, out, {
      retries,
      site: { capture: (u, dir) => capturePage(u, dir, capture), runs },
    });
    console.log(JSON.stringify(status));
    if (status.status !== 'ok') throw new CliError(`${url}: ${status.reason}`);
    return 0;
  },
};
