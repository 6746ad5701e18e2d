/**
 * The pages the accuracy harnesses load, by source, and one way of serving them (the profiler's test
 * server, each source on its own loopback origins):
 * - `example`: the example site, served as scripts/demo.sh serves it;
 * - `suite`: the ground-truth pages of profiler/test-sites, served as fidelity:rules serves them;
 * - `docs`: real documentation sites from Debian's HTML documentation packages (scripts/setup.sh
 *   installs them), served from /usr/share/doc as they are installed (their _static symlinks into
 *   /usr/share/javascript included): see DOC_SITES for which pages and why;
 * - `synthesized`: pages the synthesizer makes from the 2016 study's legacy graphs, each served by the
 *   replay from its synthesized archive (synth-pages.ts: SYNTH_SITES for which graphs and why); not in
 *   either default set, asked for by `synthesized` or `synth-<name>`.
 * One list for accuracy:identity and accuracy:emulator.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestServer } from '@pcp/profiler/testing';
import { startSynthServer, SYNTH_PREFIX, synthPages, type SynthServer } from './synth-pages.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export type PageSource = 'example' | 'suite' | 'docs' | 'synthesized';

export interface PageSpec {
  name: string;
  /** Relative to the source server's origin a (may carry a query). */
  path: string;
  source: PageSource;
  /**
   * Record posted-task flows (`pcp profile --task-flows`): a suite page whose expected.json asks for it
   * (capture.taskFlows: its only record of a dependency is a posted task, e.g. a MessagePort message), as
   * fidelity:rules records it, so that its graph has the parent the trace otherwise lacks.
   */
  taskFlows?: boolean;
  /** The legacy graph a synthesized page is made from. */
  graph?: string;
}

/** Where the documentation packages put their HTML. */
export const DOCS_ROOT = '/usr/share/doc';

/**
 * Documentation sites and pages, a handful per site, each chosen for a distinct loading shape: the site's index
 * (theme CSS, its scripts, logo image), a long reference page (hundreds of kB of HTML: many parse
 * chunks), a guide with figures, and the Sphinx search page with a query (its script fetches the
 * site's search index and renders results after load starts). Python's own search page is left out:
 * its 3.5 MB searchindex.js takes 18 s at 1.6 Mbit/s per load, a tenth of the grid's time for one cell.
 * Themes differ: Python's pydoctheme, Flask's pallets theme, attrs' Read-the-Docs theme (web fonts),
 * Requests' alabaster.
 */
export const DOC_SITES: readonly { site: string; package: string; pages: readonly [page: string, path: string, why: string][] }[] = [
  {
    site: 'python', package: 'python3-doc',
    pages: [['index', 'index.html', 'index'], ['functions', 'library/functions.html', 'long reference, 290 kB'], ['logging-howto', 'howto/logging.html', 'guide with a figure']],
  },
  {
    site: 'flask', package: 'python-flask-doc',
    pages: [['index', 'index.html', 'index, logo image'], ['quickstart', 'quickstart.html', 'long guide, 88 kB'], ['search', 'search.html?q=blueprint', 'search with a query, 212 kB index']],
  },
  {
    site: 'attrs', package: 'python-attr-doc',
    pages: [['index', 'index.html', 'index, web fonts'], ['api', 'api.html', 'long reference, 294 kB'], ['search', 'search.html?q=frozen', 'search with a query']],
  },
  {
    site: 'requests', package: 'python-requests-doc',
    pages: [['index', 'index.html', 'index, logo image'], ['quickstart', 'user/quickstart.html', 'guide'], ['search', 'search.html?q=session', 'search with a query']],
  },
];

/** The Debian packages DOC_SITES come from (scripts/setup.sh installs them). */
export const DOC_PACKAGES = DOC_SITES.map((s) => s.package);

/** Each doc page: docs-<site>-<page>, at <package>/html/<path>. */
export const DOC_PAGES = DOC_SITES.flatMap((s) => s.pages.map(([page, path]) => ({ name: `docs-${s.site}-${page}`, path: `${s.package}/html/${path}` })));

/** The doc pages whose file is installed under `root`, and the names of those that are not. Pure but for the file checks. */
export function installedDocPages(root = DOCS_ROOT): { pages: PageSpec[]; missing: string[] } {
  const pages: PageSpec[] = [];
  const missing: string[] = [];
  for (const d of DOC_PAGES) {
    if (existsSync(join(root, d.path.replace(/\?.*$/, '')))) pages.push({ name: d.name, path: d.path, source: 'docs' });
    else missing.push(d.name);
  }
  return { pages, missing };
}

/**
 * The suite pages in the grid's default set: the mixed and event pages, and six rule pages of distinct
 * loading shapes (a trickled parse, a blocking script, an iframe's script, an async script, a
 * script-inserted script, a deferred script). The other rule pages are small variations of these; the
 * default set stays near 30 pages so that its 9 x 5 real loads each fit in an hour (--page suite or
 * --page all loads them too).
 */
export const GRID_SUITE = /^(mix-|ev-)|^(r03-parse-chunks|r04-sync-script-blocks|r06-iframe-script|r10-async-script|r14-script-inserts-script|r17-defer)$/;

/**
 * The pages named in `only` (a page name; a source name for all its pages; 'all'), or the default set:
 * for 'identity' the example site and every suite page, for 'grid' the example site, GRID_SUITE and
 * the doc pages. Doc pages whose package is not installed, and synthesized pages when the legacy
 * corpus is missing, are left out with one line on stderr (an empty result is the caller's error to report).
 */
export async function accuracyPages(only?: readonly string[], defaults: 'identity' | 'grid' = 'identity'): Promise<PageSpec[]> {
  const { listSuite } = await import('@pcp/profiler/testing');
  const wantDocs = only ? only.includes('all') || only.includes('docs') || only.some((n) => n.startsWith('docs-')) : defaults === 'grid';
  const docs = wantDocs ? installedDocPages() : { pages: [], missing: [] };
  if (docs.missing.length) process.stderr.write(`doc pages left out (not installed; scripts/setup.sh installs ${DOC_PACKAGES.join(' ')}): ${docs.missing.join(' ')}\n`);
  const wantSynth = only ? only.some((n) => n === 'all' || n === 'synthesized' || n.startsWith(SYNTH_PREFIX)) : false;
  const synth = wantSynth ? await synthPages() : { pages: [] };
  if (synth.unavailable) process.stderr.write(`synthesized pages ${synth.pages.length ? 'partly ' : ''}unavailable: ${synth.unavailable}\n`);
  const all: PageSpec[] = [
    { name: 'example-site', path: 'index.html', source: 'example' as const },
    ...listSuite().map((p) => ({ name: p.name, path: p.path.slice(1), source: 'suite' as const, ...(p.expected.capture?.taskFlows ? { taskFlows: true } : {}) })),
    ...docs.pages,
    ...synth.pages,
  ];
  if (only) return all.filter((p) => only.includes('all') || only.includes(p.name) || only.includes(p.source));
  return defaults === 'identity' ? all : all.filter((p) => p.source !== 'suite' || GRID_SUITE.test(p.name));
}

export interface PageServers {
  /** The page's URL and the Chromium host rules that reach its server. */
  target(page: PageSpec): { url: string; hostResolverRules: string };
  close(): Promise<void>;
}

/**
 * Starts the servers the pages need (one per source; one replay per synthesized page, whose own hosts
 * are always served over TLS) on loopback. `tls`: every origin over TLS (HTTP/1.1, or HTTP/2 where the
 * suite offers it), so that a replay can serve each origin over either protocol (Chromium has no
 * cleartext HTTP/2). `synthDir`: where synthesized pages are synthesized, once (DIR/<page>).
 */
export async function startPageServers(pages: readonly PageSpec[], opts: { tls?: boolean; synthDir?: string } = {}): Promise<PageServers> {
  const { startTestServer, startSuiteServer, SITES_DIR } = await import('@pcp/profiler/testing');
  const tls = Boolean(opts.tls);
  const start: Record<Exclude<PageSource, 'synthesized'>, () => Promise<TestServer>> = {
    example: () => startTestServer({ root: join(ROOT, 'profiler/example-site'), origins: [{ name: 'a', tls }, { name: 'b', tls }] }),
    suite: () => (tls ? startTestServer({ root: SITES_DIR, origins: [{ name: 'a', tls }, { name: 'b', tls }, { name: 'c', http2: true }] }) : startSuiteServer()),
    docs: () => startTestServer({ root: DOCS_ROOT, origins: [{ name: 'a', tls }] }),
  };
  const servers = new Map<PageSource, TestServer>();
  const synthesized = new Map<string, SynthServer>();
  const close = async (): Promise<void> => {
    await Promise.allSettled([...servers.values(), ...synthesized.values()].map((s) => s.close()));
  };
  try {
    for (const source of new Set(pages.map((p) => p.source))) if (source !== 'synthesized') servers.set(source, await start[source]());
    for (const page of pages) {
      if (page.source !== 'synthesized') continue;
      if (!page.graph) throw new Error(`${page.name}: a synthesized page without its graph`);
      if (!opts.synthDir) throw new Error('synthesized pages need a directory to be synthesized into (synthDir)');
      synthesized.set(page.name, await startSynthServer({ ...page, source: 'synthesized', graph: page.graph }, opts.synthDir));
    }
  } catch (e) {
    await close();
    throw e;
  }
  return {
    target(page) {
      const synth = synthesized.get(page.name);
      if (synth) return { url: synth.url, hostResolverRules: synth.hostResolverRules };
      const server = servers.get(page.source)!;
      return { url: server.urls.a! + page.path, hostResolverRules: server.hostResolverRules };
    },
    close,
  };
}
