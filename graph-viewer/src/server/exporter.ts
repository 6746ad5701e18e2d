/**
 * Whole-graph export for papers. Graphs Graphviz can lay out in reasonable time go through `dot` with
 * one cluster per frame; larger ones are drawn with the viewer's own time-axis layout, and their PDF is
 * made by `rsvg-convert`. Both tools are Debian packages installed by scripts/setup.sh.
 */
import { spawn } from 'node:child_process';
import type { Graph } from '@pcp/graph-builder';
import { DOT_MAX_NODES, graphToDot } from '../shared/dot.ts';
import { layoutToSvg } from '../shared/layoutSvg.ts';
import { toLayoutInput } from '../shared/layoutTypes.ts';
import { timeAxisLayout } from '../shared/timeAxisLayout.ts';

export type ExportFormat = 'svg' | 'pdf';
export type ExportEngine = 'dot' | 'time';

const TIMEOUT_MS = 120_000;

/** Runs a tool with stdin -> stdout, failing with its stderr's first line. */
export function pipeThrough(cmd: string, args: string[], input: string | Buffer): Promise<Buffer> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(cmd, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${cmd} took longer than ${TIMEOUT_MS / 1000} s`));
    }, TIMEOUT_MS);
    child.stdout.on('data', (d: Buffer) => out.push(d));
    child.stderr.on('data', (d: Buffer) => err.push(d));
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(new Error(`${cmd}: ${e.message} (run scripts/setup.sh)`));
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      if (code === 0) resolvePromise(Buffer.concat(out));
      else reject(new Error(`${cmd} failed: ${Buffer.concat(err).toString().split('\n', 1)[0]}`));
    });
    child.stdin.on('error', () => {});
    child.stdin.end(input);
  });
}

export function chooseEngine(graph: Graph, wanted?: string): ExportEngine {
  if (wanted === 'time') return 'time';
  if (wanted === 'dot' && graph.nodes.length <= DOT_MAX_NODES) return 'dot';
  return graph.nodes.length <= DOT_MAX_NODES ? 'dot' : 'time';
}

export async function exportGraph(graph: Graph, format: ExportFormat, engine: ExportEngine): Promise<Buffer> {
  if (engine === 'dot') return pipeThrough('dot', [`-T${format}`], graphToDot(graph));
  const { input, index } = toLayoutInput(graph);
  const layout = timeAxisLayout(input);
  const critical = new Set((graph.criticalPath?.nodes ?? []).map((id) => index.get(id)).filter((i): i is number => i !== undefined));
  const svg = layoutToSvg(layout, input, graph.nodes, { critical, title: graph.page.url, frameLabels: input.frames.map((f) => f.url) });
  return format === 'svg' ? Buffer.from(svg) : pipeThrough('rsvg-convert', ['-f', 'pdf'], svg);
}
