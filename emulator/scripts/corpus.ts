/** Loads the 64 reference graphs of the legacy corpus (../shared/legacy-corpus, or $PCP_SHARED/legacy-corpus). */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { type Graph, type ResourceNode, loadGraph } from '@pcp/graph-builder';
import { sharedDir } from '../src/server-delays.ts';

export interface CorpusGraph {
  slug: string;
  graph: Graph;
  /** Resources that got their measured server delay (the rest draw from the per-MIME CDFs). */
  measuredDelays: number;
}

function schemeless(url: string): string {
  return url.replace(/^[a-z]+:\/\//i, '').replace(/#.*$/, '');
}

/**
 * Gives resources the server delays the corpus measured from its packet captures (delays/<slug>.delays.txt.gz:
 * `method hostname url size time mimetype exttype cached`, url without scheme, time in seconds), matching
 * the i-th record of a url to its i-th request. As the thesis' emulator did (§3.7.6).
 */
export function withMeasuredDelays(graph: Graph, delaysText: string): { graph: Graph; matched: number } {
  const byUrl = new Map<string, number[]>();
  for (const line of delaysText.split('\n').slice(1)) {
    const f = line.trim().split(/\s+/);
    if (f.length < 5) continue;
    const sec = Number(f[4]);
    if (!Number.isFinite(sec) || sec < 0) continue;
    const k = schemeless(f[2]!);
    const q = byUrl.get(k);
    if (q) q.push(sec * 1000);
    else byUrl.set(k, [sec * 1000]);
  }
  let matched = 0;
  const order = graph.nodes.map((n, i) => ({ n, i })).filter((x) => x.n.kind === 'resource').sort((a, b) => a.n.start - b.n.start || a.i - b.i);
  const nodes = [...graph.nodes];
  for (const { n, i } of order) {
    const d = byUrl.get(schemeless((n as ResourceNode).url))?.shift();
    if (d === undefined || (n as ResourceNode).serverDelay !== undefined) continue;
    nodes[i] = { ...(n as ResourceNode), serverDelay: d };
    matched++;
  }
  return { graph: { ...graph, nodes }, matched };
}

export function corpusDir(): string {
  return join(sharedDir(), 'legacy-corpus');
}

/** Every reference graph that loads; the ones that do not are reported on stderr and skipped. */
export function loadCorpus(): CorpusGraph[] {
  const dir = corpusDir();
  const index = JSON.parse(readFileSync(join(dir, 'index.json'), 'utf8')) as Array<{ slug: string; graph: string; delays?: string }>;
  const out: CorpusGraph[] = [];
  for (const e of index) {
    try {
      let graph = loadGraph(join(dir, e.graph));
      let measuredDelays = 0;
      if (e.delays && existsSync(join(dir, e.delays))) {
        const r = withMeasuredDelays(graph, gunzipSync(readFileSync(join(dir, e.delays))).toString('utf8'));
        graph = r.graph;
        measuredDelays = r.matched;
      }
      out.push({ slug: e.slug, graph, measuredDelays });
    } catch (err) {
      process.stderr.write(`skipping ${e.slug}: ${(err as Error).message}\n`);
    }
  }
  return out;
}

/** The graph with the median number of enabled nodes. */
export function medianGraph(corpus: CorpusGraph[]): CorpusGraph {
  const sorted = [...corpus].sort((a, b) => a.graph.nodes.filter((n) => !n.disabled).length - b.graph.nodes.filter((n) => !n.disabled).length);
  return sorted[sorted.length >> 1]!;
}

/** Thesis Table 4.1 rates (bit/s) and RTTs (ms). */
export const RATES: Array<[string, number]> = [
  ['500Kbps', 500e3], ['1Mbps', 1e6], ['2.5Mbps', 2.5e6], ['5Mbps', 5e6], ['10Mbps', 10e6],
  ['25Mbps', 25e6], ['50Mbps', 50e6], ['100Mbps', 100e6], ['500Mbps', 500e6], ['1Gbps', 1e9],
];
export const RTTS = [8, 40, 100, 200, 400];
