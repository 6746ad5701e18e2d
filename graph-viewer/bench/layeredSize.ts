/**
 * Where the layered layout stops being usable: lays out synthetic pages of growing size and the
 * largest reference graph with layeredLayout (d3-dag) in node, and prints the CPU time each took
 * (CPU time, not wall time, so a loaded machine does not inflate it) against the budget a user waits
 * for an opt-in layout. The largest size within budget is where LAYERED.maxNodes belongs.
 * Run by `npm run bench:viewer` before the browser measurements, or alone.
 */
import { fileURLToPath } from 'node:url';
import type { Graph } from '@pcp/graph-builder';
import { LAYERED, layeredLayout } from '../src/shared/layeredLayout.ts';
import { toLayoutInput } from '../src/shared/layoutTypes.ts';
import { syntheticGraph } from '../test/synthetic.ts';

export const LAYOUT_BUDGET_MS = 2000;
const SIZES = [250, 500, 1000, 1500, 2000, 3000, 4000, 6000];

function cpuMs(graph: Graph): { cpu: number; wall: number; bends: number } {
  const { input } = toLayoutInput(graph);
  const c0 = process.cpuUsage();
  const w0 = performance.now();
  const l = layeredLayout(input);
  const c = process.cpuUsage(c0);
  return { cpu: (c.user + c.system) / 1000, wall: performance.now() - w0, bends: l.edgeBends?.points.length ?? 0 };
}

/** Prints one line per size; returns the largest synthetic size laid out within the budget. */
export function layeredSizeBench(reference?: { path: string; graph: Graph }): number {
  console.log(`layered layout (d3-dag) CPU time by size, budget ${LAYOUT_BUDGET_MS} ms, LAYERED.maxNodes = ${LAYERED.maxNodes}`);
  if (reference) {
    const r = cpuMs(reference.graph);
    console.log(`  ${reference.path.split('/').pop()}: ${reference.graph.nodes.length} nodes  ${r.cpu.toFixed(0)} ms CPU (${r.wall.toFixed(0)} ms wall), ${r.bends / 2} bend points`);
  }
  let within = 0;
  for (const n of SIZES) {
    const g = syntheticGraph(n, { seed: 11 });
    const r = cpuMs(g);
    console.log(`  synthetic ${String(g.nodes.length).padStart(5)} nodes: ${r.cpu.toFixed(0).padStart(6)} ms CPU (${r.wall.toFixed(0)} ms wall), ${r.bends / 2} bend points`);
    if (r.cpu > LAYOUT_BUDGET_MS) break;
    within = g.nodes.length;
  }
  console.log(`  largest synthetic size within budget: ${within} nodes`);
  return within;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) layeredSizeBench();
