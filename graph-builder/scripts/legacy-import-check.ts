/**
 * `npm run fidelity:legacy-import`: what the legacy importer takes from the raw 2016 logs, against them,
 * on the 64 reference graphs of ../shared/legacy-corpus:
 *  - request types: resources given one by the element that requested them, by element and by MIME class
 *    (those of class `other` are the ones a MIME type says nothing of);
 *  - download chunk times: each way of timing a document's chunks (legacy-chunk-times.ts) against the
 *    bytes' arrival in the log (`ReceivedChunk`, the ground truth): |error| of each chunk's end, median
 *    and p90, and how many end before their last byte arrived (impossible: the parser had them).
 *
 *   npm run fidelity:legacy-import [-- --site SLUG]
 */
import { scriptArgs } from '@pcp/profiler/script-args';
import { readJsonFile } from '../src/format/io.ts';
import { importLegacy, type LegacyGraph } from '../src/format/legacy.ts';
import { readLegacyRawEvidence } from '../src/format/legacy-raw.ts';
import { CHUNK_TIMINGS, type ChunkTiming } from '../src/format/legacy-chunk-times.ts';
import { legacySites } from '../src/legacy-corpus.ts';
import { mimeClass } from '../src/analysis/priorities.ts';
import { median, quantile } from '../src/analysis/stats.ts';
import type { DownloadChunkNode, ResourceNode } from '../src/format/types.ts';

const opt = scriptArgs('fidelity:legacy-import', `
usage: npm run fidelity:legacy-import [-- --site SLUG]

Imports the 64 reference graphs of ../shared/legacy-corpus with their raw logs and prints what the
importer took from the logs: request types from the requesting elements (by element and MIME class), and
download chunk times by each method (received, parser, interpolated) against the chunks' arrival in the log.
`, { site: { type: 'string' } }).values;

const sites = legacySites().filter((s) => !opt.site || s.slug === opt.site);
if (sites.length === 0) {
  process.stderr.write(`fidelity:legacy-import: no site '${opt.site}'\n`);
  process.exit(2);
}
const typed = new Map<string, number>();
const elementOnly = new Map<string, number>();
let resources = 0;
let withElement = 0;
const errors = new Map<ChunkTiming, number[]>(CHUNK_TIMINGS.map((t) => [t, []]));
const early = new Map<ChunkTiming, number>(CHUNK_TIMINGS.map((t) => [t, 0]));
let documents = 0;
let timedDocuments = 0;
const count = (m: Map<string, number>, k: string): void => void m.set(k, (m.get(k) ?? 0) + 1);

for (const site of sites) {
  const lg = readJsonFile(site.graph) as LegacyGraph;
  const raw = readLegacyRawEvidence(site.raw);
  const byTiming = new Map(CHUNK_TIMINGS.map((t) => [t, importLegacy(lg, { raw, chunkTimes: t })]));
  const g = byTiming.get('received')!;
  for (const n of g.nodes) {
    if (n.kind !== 'resource') continue;
    resources++;
    const el = n.extra?.requestElement;
    if (typeof el !== 'string') continue;
    withElement++;
    const key = `${el} -> ${n.requestType ?? '(none)'}, ${mimeClass(n.mimeType)}${mimeClass(n.mimeType) === 'other' ? ` (${n.mimeType || 'no type'})` : ''}`;
    count(n.requestType ? typed : elementOnly, key);
  }
  // Ground truth: the received times (documents whose log has their arrivals).
  const truth = new Map(g.nodes.filter((n): n is DownloadChunkNode => n.kind === 'download_chunk' && n.extra?.chunkTimes === 'received').map((d) => [d.id, d.end]));
  const docs = new Set(g.nodes.filter((n): n is DownloadChunkNode => n.kind === 'download_chunk').map((d) => d.resource));
  documents += docs.size;
  timedDocuments += new Set(g.nodes.filter((n): n is DownloadChunkNode => n.kind === 'download_chunk' && truth.has(n.id)).map((d) => d.resource)).size;
  for (const t of CHUNK_TIMINGS) {
    for (const n of byTiming.get(t)!.nodes) {
      const want = truth.get(n.id);
      if (n.kind !== 'download_chunk' || want === undefined) continue;
      errors.get(t)!.push(Math.abs(n.end - want));
      if (n.end < want - 0.001) early.set(t, early.get(t)! + 1);
    }
  }
}

const sorted = (m: Map<string, number>) => [...m].sort((a, b) => b[1] - a[1]);
console.log(`request types: ${[...typed.values()].reduce((a, b) => a + b, 0)} of ${resources} resources typed by their requesting element (${withElement} with one)`);
for (const [k, v] of sorted(typed)) console.log(`  ${String(v).padStart(5)}  ${k}`);
if (elementOnly.size) console.log('  elements without a request type (left untyped):');
for (const [k, v] of sorted(elementOnly)) console.log(`  ${String(v).padStart(5)}  ${k}`);
const ms = (x: number) => `${x.toFixed(1)} ms`;
console.log(`download chunk times against the log's arrivals (${timedDocuments} of ${documents} documents have them; ${errors.get('received')!.length} chunks):`);
for (const t of CHUNK_TIMINGS) {
  const e = errors.get(t)!;
  console.log(`  ${t.padEnd(12)} |end error| median ${ms(median(e))}, p90 ${ms(quantile(e, 0.9))}, max ${ms(Math.max(...e))}; ${early.get(t)} end before their last byte arrived`);
}
