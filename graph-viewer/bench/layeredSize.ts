/**
 * Where the layered layout stops being usable. Its cost follows the layered graph's size (nodes plus
 * dummy nodes, one per layer an edge crosses), so this lays out reference graphs of the corpus and
 * synthetic pages of growing size with layeredLayout (d3-dag) in node and prints, for each, that size
 * and the CPU time taken (CPU time, not wall time, so a loaded machine does not inflate it) against
 * the budget for an opt-in layout. LAYERED.maxSize belongs at the largest size within budget.
 * Run by `npm run bench:viewer` before the browser measurements, or alone.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { type Graph, loadGraph } from '@pcp/graph-builder';
import { layeredLayout } from '../src/shared/layeredLayout.ts';
import { LAYERED, layeredGraphSize } from '../src/shared/layeredSize.ts';
import { toLayoutInput } from '../src/shared/layoutTypes.ts';
import { SHARED } from '../test/browser.ts';
import { syntheticGraph } from '../test/synthetic.ts';

export const LAYOUT_BUDGET_MS = 2000;
const SYNTHETIC = [250, 500, 1000, 2000, 4000];
/** Reference graphs spread over layered sizes (nodes + dummies) from 2,000 to 89,000. */
const REFERENCE = ['www.snapdeal.com', 'www.amazon.com', 'www.walmart.com', 'www.sahibinden.com', 'www.thesaurus.com', 'www.taringa.net'];

function measure(label: string, graph: Graph): { size: number; cpu: number } {
  const { input } = toLayoutInput(graph);
  const size = layeredGraphSize(input);
  const c0 = process.cpuUsage();
  const w0 = performance.now();
  layeredLayout(input);
  const c = process.cpuUsage(c0);
  const cpu = (c.user + c.system) / 1000;
  console.log(`  ${label.padEnd(22)} ${String(graph.nodes.length).padStart(5)} nodes, layered size ${String(size).padStart(6)}: ${cpu.toFixed(0).padStart(6)} ms CPU (${(performance.now() - w0).toFixed(0)} ms wall)${cpu > LAYOUT_BUDGET_MS ? '  over budget' : ''}`);
  return { size, cpu };
}

/** Prints one line per graph and the largest layered size laid out within the budget. */
export function layeredSizeBench(): void {
  console.log(`layered layout (d3-dag) CPU time by layered-graph size, budget ${LAYOUT_BUDGET_MS} ms, LAYERED.maxSize = ${LAYERED.maxSize}`);
  const results: { size: number; cpu: number }[] = [];
  for (const n of SYNTHETIC) results.push(measure(`synthetic ${n}`, syntheticGraph(n, { seed: 11 })));
  const corpus = `${SHARED}legacy-corpus/`;
  let index: { graph: string; slug: string }[] = [];
  try {
    index = JSON.parse(readFileSync(`${corpus}index.json`, 'utf8')) as typeof index;
  } catch {
    console.log(`  (no reference corpus at ${corpus})`);
  }
  for (const slug of REFERENCE) {
    const e = index.find((x) => x.slug === slug);
    if (e) results.push(measure(slug, loadGraph(`${corpus}${e.graph}`)));
  }
  const within = results.filter((r) => r.cpu <= LAYOUT_BUDGET_MS).map((r) => r.size);
  const over = results.filter((r) => r.cpu > LAYOUT_BUDGET_MS).map((r) => r.size);
  console.log(`  largest layered size within budget: ${Math.max(0, ...within)}; smallest over: ${over.length ? Math.min(...over) : 'none'}`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) layeredSizeBench();
