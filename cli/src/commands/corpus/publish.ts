/**
 * pcp corpus publish: a corpus directory -> a release directory researchers can cite, query and check.
 * Everything is written into a temporary directory beside RELEASE_DIR and renamed into place at the
 * end, so a release is never seen half-written.
 */
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { isAlive } from '@pcp/profiler/child';
import { CliError, flag, parse, requireStr, str, UsageError, type Command } from '../../kit.ts';

const usage = `
usage: pcp corpus publish DIR --out RELEASE_DIR --version X.Y.Z [--license SPDX_ID] [--name NAME] [--force]

A release of the corpus in DIR (pcp corpus build / import-legacy):
  graphs/<page_id>.json.gz       each page's graph, graph format v1 (schema in schema/graph-v1.schema.json)
  data/{pages,nodes,edges,resources}.parquet   tables DuckDB and pandas read directly
  stats/                         summary table and figures (as pcp corpus stats)
  datapackage.json               Frictionless Data Package: every file with its bytes and sha256
  croissant.json                 MLCommons Croissant (JSON-LD): the same files and hashes, the tables' columns
  README.md                      the dataset card: contents, crawl settings, statistics, figures, left-out pages
  corpus.json, sites.txt         crawl settings and the site list as given
  failures.jsonl                 sites that failed in the crawl, and pages left out here (corrupt graphs)
  LICENSE
A page whose graph cannot be read or fails the schema is reported and left out; the rest is published.
The release is built beside RELEASE_DIR and renamed into place when complete.

options:
  --out RELEASE_DIR   where the release goes (must not exist, unless --force)
  --version X.Y.Z     the release's version (semantic versioning)
  --license ID        SPDX licence id (default CC-BY-4.0)
  --name NAME         dataset name (default: pcp-corpus-<DIR's name>)
  --force             replace an existing RELEASE_DIR
`;

/** Partial releases of RELEASE_DIR left by a publish that was killed (its process is gone) are removed. */
function removeAbandoned(out: string): void {
  const prefix = `${basename(out)}.partial-`;
  for (const name of readdirSync(dirname(out))) {
    const pid = name.startsWith(prefix) ? Number(name.slice(prefix.length)) : NaN;
    if (!Number.isInteger(pid) || pid <= 0) continue;
    if (pid !== process.pid && isAlive(pid)) continue; // another publish is writing it
    rmSync(join(dirname(out), name), { recursive: true, force: true });
  }
}

export const command: Command = {
  name: 'publish',
  summary: 'a citable release: graphs, Parquet tables, datapackage.json, dataset card',
  usage,
  async run(args) {
    const p = parse(args, { out: { type: 'string' }, version: { type: 'string' }, license: { type: 'string' }, name: { type: 'string' }, force: { type: 'boolean' } });
    const [dir, ...extra] = p.positionals;
    if (!dir || extra.length) throw new UsageError('expected one corpus directory');
    const out = resolve(requireStr(p, 'out'));
    const version = requireStr(p, 'version');
    const license = str(p, 'license') ?? 'CC-BY-4.0';
    const corpus = await import('@pcp/corpus');
    if (!corpus.SEMVER.test(version)) throw new UsageError(`--version expects X.Y.Z, got '${version}'`);
    if (!corpus.SPDX_ID.test(license)) throw new UsageError(`--license expects an SPDX id such as CC-BY-4.0, got '${license}'`);
    const name = corpus.resourceName(str(p, 'name') ?? `pcp-corpus-${basename(resolve(dir))}`);
    if (!existsSync(dir)) throw new CliError(`${dir}: no such directory`);
    if (existsSync(out) && !flag(p, 'force')) throw new CliError(`${out} exists (choose another --out, or --force to replace it)`);
    if (!existsSync(dirname(out))) throw new CliError(`${dirname(out)}: no such directory`);
    const started = Date.now();
    removeAbandoned(out);
    const tmp = `${out}.partial-${process.pid}`;
    mkdirSync(join(tmp, corpus.RELEASE_FILES.graphs), { recursive: true });
    try {
      const { describeCorpus } = await import('./describe.ts');
      const { SCHEMA_PATH } = await import('@pcp/graph-builder');
      const described = await describeCorpus(dir, {
        dataDir: join(tmp, corpus.RELEASE_FILES.data),
        reportDir: join(tmp, corpus.RELEASE_FILES.stats),
        print: false,
        label: 'pcp corpus publish',
        onGraph: (page, graph) => writeFileSync(join(tmp, corpus.graphPath(page.id)), gzipSync(JSON.stringify(graph))),
      });
      const { meta } = described.corpus;
      const created = new Date().toISOString();
      const R = corpus.RELEASE_FILES;
      mkdirSync(dirname(join(tmp, R.graphSchema)), { recursive: true });
      copyFileSync(SCHEMA_PATH, join(tmp, R.graphSchema));
      copyFileSync(join(dir, corpus.CORPUS_FILES.corpus), join(tmp, R.meta));
      const sites = join(dir, meta.siteList ?? corpus.CORPUS_FILES.siteList);
      writeFileSync(join(tmp, R.sites), existsSync(sites) ? readFileSync(sites) : '');
      writeFileSync(join(tmp, R.license), corpus.licenseText(license, new Date().getUTCFullYear()));
      const failures = [
        ...described.corpus.failures.map((f) => ({ ...f, stage: 'crawl' })),
        ...described.skipped.map((s) => ({ url: s.url, id: s.id, reason: s.reason, stage: 'publish' })),
      ];
      writeFileSync(join(tmp, R.failures), failures.map((f) => `${JSON.stringify(f)}\n`).join(''));
      const summary = JSON.parse(readFileSync(join(tmp, R.stats, 'summary.json'), 'utf8')) as { figures: string[] };
      writeFileSync(join(tmp, R.card), corpus.datasetCard({
        name, version, license, created, meta, pages: described.pages.length, rows: described.rows,
        statsMarkdown: readFileSync(join(tmp, R.stats, 'summary.md'), 'utf8'),
        figures: summary.figures.filter((f) => f.endsWith('.png')).map((f) => f.slice(0, -4)),
        crawlFailures: described.corpus.failures, skipped: described.skipped,
      }));
      const files = corpus.fileEntries(tmp, corpus.listFiles(tmp));
      const { version: toolVersion } = JSON.parse(readFileSync(new URL('../../../../package.json', import.meta.url), 'utf8')) as { version: string };
      const manifest = corpus.dataPackage({
        name, version, license, created, meta, pages: described.pages.length, files,
        tableFields: described.tableFields as Parameters<typeof corpus.dataPackage>[0]['tableFields'], toolVersion,
      });
      writeFileSync(join(tmp, R.manifest), `${JSON.stringify(manifest, null, 1)}\n`);
      const { runCorpusPython } = await import('./describe.ts');
      await runCorpusPython(['croissant', tmp]);
      if (existsSync(out)) {
        const old = `${out}.old-${process.pid}`;
        renameSync(out, old);
        renameSync(tmp, out);
        rmSync(old, { recursive: true, force: true });
      } else {
        renameSync(tmp, out);
      }
      const secs = ((Date.now() - started) / 1000).toFixed(1);
      console.log(`pcp corpus publish: ${described.pages.length} pages (${described.skipped.length} left out, ${described.corpus.failures.length} crawl failures), ${files.length + 2} files in ${out} (${secs} s)`);
      return 0;
    } catch (e) {
      rmSync(tmp, { recursive: true, force: true });
      throw e;
    }
  },
};
