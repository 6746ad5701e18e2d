/**
 * held-reads — does a paced replay hold the bodies the recorded server held (issue 17)? For two graphs
 * of one page, the recording's and a `pcp profile --replay BUNDLE --pace` of its archive, each response's
 * `browserDelay.read` (the network service's read, headers to body end: on loopback, mostly the server's
 * hold of the body) side by side, for the responses the recording read for `--min` ms or more. The
 * recording is the truth; prints per response and the sums, ratios replayed / recorded.
 */
import { existsSync, readFileSync } from 'node:fs';
import type { Graph } from '@pcp/graph-builder';
import { scriptArgs } from '@pcp/profiler/script-args';

/** One response read for `minMs` or more when recorded. */
export interface HeldRead {
  url: string;
  recorded: number;
  /** undefined: the replayed graph has no read for the URL (not loaded, or from the cache). */
  replayed: number | undefined;
}

/** The first uncached read per URL of a graph. Pure. */
function readsOf(graph: Pick<Graph, 'nodes'>): Map<string, number> {
  const out = new Map<string, number>();
  for (const x of graph.nodes) {
    if (x.kind !== 'resource' || x.cached || x.browserDelay?.read === undefined || out.has(x.url)) continue;
    out.set(x.url, x.browserDelay.read);
  }
  return out;
}

/** The recorded responses read for `minMs` or more, with the replay's read of each, in recorded graph order. Pure. */
export function heldReads(recorded: Pick<Graph, 'nodes'>, replayed: Pick<Graph, 'nodes'>, minMs = 20): HeldRead[] {
  const again = readsOf(replayed);
  return [...readsOf(recorded)].filter(([, r]) => r >= minMs).map(([url, r]) => ({ url, recorded: r, replayed: again.get(url) }));
}

const USAGE = `
usage: node --import tsx replay/bench/held-reads.ts --recorded GRAPH --replayed GRAPH [--min MS]

GRAPH: graph.json of pcp build. --recorded: the recording (pcp profile --archive); --replayed: a load
of its archive (pcp profile --replay BUNDLE --pace). Per response the recording read for MS or more
(default 20): the network service's read (headers to body end) recorded and replayed, their ratio,
and the sums.
`;

const readGraph = (path: string, what: string): Graph => {
  if (!existsSync(path)) throw new Error(`${what} ${path}: no such file`);
  return JSON.parse(readFileSync(path, 'utf8')) as Graph;
};

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = scriptArgs('held-reads', USAGE, { recorded: { type: 'string' }, replayed: { type: 'string' }, min: { type: 'string' } });
  try {
    if (!values.recorded || !values.replayed) throw new Error('--recorded GRAPH and --replayed GRAPH are required (--help for usage)');
    const minMs = values.min === undefined ? 20 : Number(values.min);
    if (!(minMs >= 0)) throw new Error(`--min expects milliseconds >= 0, got '${values.min}'`);
    const rows = heldReads(readGraph(values.recorded, '--recorded'), readGraph(values.replayed, '--replayed'), minMs);
    const ms = (v: number | undefined): string => (v === undefined ? '-' : v.toFixed(0)).padStart(6);
    for (const r of rows) console.log(`${ms(r.recorded)} ${ms(r.replayed)}  ${r.replayed === undefined ? '    -' : (r.replayed / r.recorded).toFixed(2)}  ${r.url.slice(0, 90)}`);
    const rec = rows.reduce((s, r) => s + r.recorded, 0);
    const rep = rows.reduce((s, r) => s + (r.replayed ?? 0), 0);
    const ratios = rows.filter((r) => r.replayed !== undefined).map((r) => r.replayed! / r.recorded).sort((a, b) => a - b);
    const q = (f: number): string => (ratios.length ? ratios[Math.min(ratios.length - 1, Math.floor(f * ratios.length))]!.toFixed(2) : '-');
    console.log(`\n${rows.length} responses read >= ${minMs} ms: recorded ${rec.toFixed(0)} ms, replayed ${rep.toFixed(0)} ms; replayed/recorded min ${q(0)}, median ${q(0.5)}, max ${q(1)}`);
  } catch (e) {
    console.error(`held-reads: ${(e as Error).message}`);
    process.exitCode = 2;
  }
}
