/**
 * The `synthesized` source of the accuracy harnesses (issue 12 §4): pages the synthesizer (@pcp/synth,
 * issue 15) makes from graphs of the 2016 study's legacy corpus (../shared/legacy-corpus), each served on
 * loopback by the replay (@pcp/replay) from its synthesized archive, its hosts reached through
 * --host-resolver-rules. The harnesses then record and load them like any other page.
 *
 * Every URL of the graph is moved to https before synthesis (overTls): the shaped grid serves every origin
 * over TLS so that a condition's protocol (h1, h2) is the one Chromium speaks and the emulator's TLS round
 * trip is real (real-browser.ts); over cleartext http Chromium would speak HTTP/1.1 under every condition.
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Graph } from '@pcp/graph-builder';
import type { PageSpec } from './pages.ts';

/** The page name of a synthesized site: synth-<name>. */
export const SYNTH_PREFIX = 'synth-';

/**
 * The default synthesized pages: 8 legacy graphs of distinct shapes, each with at most 2 synthesis warnings,
 * at most 0.75 MB of bodies (under 4 s of transfer at 1.6 Mbit/s) and a recorded load under 2.3 s (the
 * synthesized page paces each body over its recorded download, so it loads about as long on loopback), and
 * no URL shared with another one: one replay server per link serves every page of the grid (replay-set.ts),
 * and two synthesized pages would each have their own body (and program) at a shared URL.
 * Figures: responses, bytes, hosts, frames, 2016 load.
 */
export const SYNTH_SITES: readonly { name: string; slug: string; why: string }[] = [
  { name: 'mailchimp', slug: 'mailchimp.com_about_mcsv', why: 'smallest: 9 responses, 109 kB, 5 hosts, scripts and 2 timers; load 361 ms' },
  { name: 'microsoftonline', slug: 'login.microsoftonline.com', why: 'event-heavy: 23 events over 17 script evaluations, 2 hosts, 172 kB; 477 ms' },
  { name: 'google-accounts', slug: 'accounts.google.com_ServiceLogin_service_blogger_hl_en_GB_passive_1209600_contin', why: '3 frames (cross-origin iframes), 24 parse chunks, 195 kB; 337 ms; 2 warnings (data: URLs)' },
  { name: 'nyaa', slug: 'www.nyaa.se', why: 'a long trickled document: 218 parse chunks and 218 image requests of 19 URLs (memory-cache repeats), 214 kB; 627 ms' },
  { name: 'ups', slug: 'www.ups.com', why: 'https only, 6 timers, 10 events, 27 resources on 6 hosts, 169 kB; 1,035 ms' },
  { name: 'fc2', slug: 'fc2.com', why: 'many small objects: 32 responses on 6 hosts, 19 scripts, 6 style sheets, 376 kB; DCL 548, load 668 ms' },
  { name: 'office', slug: 'www.office.com', why: '2 frames, 19 events, 4 timers, 26 responses, 732 kB; 1,492 ms; 1 warning (a data: URL)' },
  { name: 'craigslist', slug: 'london.craigslist.co.uk', why: 'few and large: 7 responses of 513 kB, an iframe; DCL 1,434, load 2,217 ms' },
];

/** One synthesized page: its spec and the legacy graph it is made from. */
export interface SynthPage extends PageSpec {
  source: 'synthesized';
  /** The legacy graph file. */
  graph: string;
}

/**
 * The synthesized pages, or why there are none: SYNTH_SITES whose graph the legacy corpus (listed by
 * `legacySites`, @pcp/graph-builder) has. `sites` is injectable for tests.
 */
export async function synthPages(sites?: () => { slug: string; graph: string }[]): Promise<{ pages: SynthPage[]; unavailable?: string }> {
  let corpus: { slug: string; graph: string }[];
  try {
    corpus = sites ? sites() : (await import('@pcp/graph-builder')).legacySites();
  } catch (e) {
    return { pages: [], unavailable: (e as Error).message };
  }
  const bySlug = new Map(corpus.map((s) => [s.slug, s.graph]));
  const pages: SynthPage[] = [];
  const missing: string[] = [];
  for (const s of SYNTH_SITES) {
    const graph = bySlug.get(s.slug);
    if (graph && existsSync(graph)) pages.push({ name: SYNTH_PREFIX + s.name, path: '', source: 'synthesized', graph });
    else missing.push(s.slug);
  }
  return { pages, unavailable: missing.length ? `not in the legacy corpus: ${missing.join(' ')}` : undefined };
}

/** The graph with every http:// URL (any string value that starts with it) moved to https://. Pure. */
export function overTls<T>(value: T): T {
  if (typeof value === 'string') return (value.startsWith('http://') ? `https://${value.slice('http://'.length)}` : value) as T;
  if (Array.isArray(value)) return value.map(overTls) as T;
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, overTls(v)])) as T;
  return value;
}

/**
 * DIR/<page>: the page's synthesized site (a replay bundle: archive.har, meta.json, server-delays.json),
 * written once (meta.json last: a bundle that has it is complete and kept). Returns the bundle directory
 * and the synthesis warnings.
 */
export async function synthesizeOnce(page: SynthPage, dir: string): Promise<{ bundle: string; warnings: string[] }> {
  const bundle = join(dir, page.name);
  const meta = join(bundle, 'meta.json');
  if (!existsSync(meta)) {
    const { loadGraph } = await import('@pcp/graph-builder');
    const { synthesizeSite, writeSiteBundle } = await import('@pcp/synth');
    const site = synthesizeSite(overTls(loadGraph(page.graph) as Graph));
    mkdirSync(bundle, { recursive: true });
    writeSiteBundle(bundle, site, page.graph);
  }
  const warnings = (JSON.parse(readFileSync(meta, 'utf8')) as { synthesized?: { warnings?: string[] } }).synthesized?.warnings ?? [];
  return { bundle, warnings };
}

/** A synthesized page served on loopback: its URL and the Chromium host rules that reach it. */
export interface SynthServer {
  url: string;
  hostResolverRules: string;
  close(): Promise<void>;
}

/**
 * Serves the page's synthesized site (synthesized into DIR once) with the replay, bodies paced as the
 * synthesizer says (`pcp replay --serve --pace`) and responses held for its server delays, on 127.0.0.1.
 */
export async function startSynthServer(page: SynthPage, dir: string): Promise<SynthServer> {
  const { readArchive, assignDelays, delayRecordsOf, startReplayServer } = await import('@pcp/replay');
  const { SYNTH_FILES } = await import('@pcp/synth');
  const { bundle } = await synthesizeOnce(page, dir);
  const archive = readArchive(bundle);
  assignDelays(archive.entries, delayRecordsOf(JSON.parse(readFileSync(join(bundle, SYNTH_FILES.serverDelays), 'utf8'))));
  const server = await startReplayServer(archive, { pace: true });
  return { url: server.pageUrl, hostResolverRules: server.hostResolverRules, close: () => server.close() };
}
