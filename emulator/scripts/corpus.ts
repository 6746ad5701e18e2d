/** Loads the 64 reference graphs of the legacy corpus (../shared/legacy-corpus, or $PCP_SHARED/legacy-corpus). */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Graph } from '@pcp/graph-builder';
import { loadGraph } from '@pcp/graph-builder/format/io.ts';
import { sharedDir } from '../src/server-delays.ts';

export interface CorpusGraph {
  slug: string;
  graph: Graph;
}

export function corpusDir(): string {
  return join(sharedDir(), 'legacy-corpus');
}

/** Every reference graph that loads; the ones that do not are reported on stderr and skipped. */
export function loadCorpus(): CorpusGraph[] {
  const dir = corpusDir();
  const index = JSON.parse(readFileSync(join(dir, 'index.json'), 'utf8')) as Array<{ slug: string; graph: string }>;
  const out: CorpusGraph[] = [];
  for (const e of index) {
    try {
      out.push({ slug: e.slug, graph: loadGraph(join(dir, e.graph)) });
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
