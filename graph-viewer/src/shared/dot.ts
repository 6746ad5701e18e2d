/**
 * Graph -> Graphviz DOT for paper-quality whole-graph exports: one cluster per frame (nested as the
 * frame tree), thesis colours, critical path drawn thick. Strings go through dotString.
 */
import type { Graph } from '@pcp/graph-builder';
import { dotString } from './escape.ts';
import { CRITICAL_COLOUR, FRAME_FILL, KIND_COLOUR } from './kinds.ts';
import { nodeLabel } from './nodeText.ts';

/** Graphviz's dot gets slow on big graphs even with the settings below (www.bild.de, 1,642 nodes: ~40 s; www.ndtv.com, 1,188 nodes: 1.6 s). */
export const DOT_MAX_NODES = 1200;

export function graphToDot(graph: Graph): string {
  const crit = new Set(graph.criticalPath?.nodes ?? []);
  const critEdges = new Set<string>();
  const cp = graph.criticalPath?.nodes ?? [];
  for (let i = 1; i < cp.length; i++) critEdges.add(`${cp[i - 1]}\u0000${cp[i]}`);
  const byFrame = new Map<string, string[]>();
  for (const n of graph.nodes) {
    const list = byFrame.get(n.frame) ?? [];
    list.push(n.id);
    byFrame.set(n.frame, list);
  }
  const nodeById = new Map(graph.nodes.map((n) => [n.id, n]));
  const children = new Map<string | null, string[]>();
  const known = new Set(graph.frames.map((f) => f.id));
  for (const f of graph.frames) {
    const p = f.parent !== null && known.has(f.parent) ? f.parent : null;
    children.set(p, [...(children.get(p) ?? []), f.id]);
  }
  for (const id of byFrame.keys()) if (!known.has(id)) children.set(null, [...(children.get(null) ?? []), id]);
  const frameUrl = new Map(graph.frames.map((f) => [f.id, f.url]));

  const lines: string[] = [];
  lines.push('digraph pcp {');
  // Straight edges and bounded crossing/rank iterations: dot's default spline routing took 96 s on a
  // 1,188-node reference graph, these settings 1.6 s (measured on www.ndtv.com).
  lines.push('  rankdir=LR; newrank=true; nodesep=0.05; ranksep=0.3; splines=line; mclimit=0.2; nslimit=2; nslimit1=2; remincross=false;');
  lines.push('  node [shape=box, style=filled, fontsize=8, fontcolor=white, height=0.2, margin="0.03,0.01"];');
  lines.push('  edge [arrowsize=0.4, color="#888888"];');
  lines.push(`  label=${dotString(graph.page.url)}; fontsize=10;`);
  let clusterNo = 0;
  const seen = new Set<string>();
  const emitFrame = (frameId: string, indent: string): void => {
    if (seen.has(frameId)) return;
    seen.add(frameId);
    lines.push(`${indent}subgraph cluster_${clusterNo++} {`);
    lines.push(`${indent}  style=filled; fillcolor="${FRAME_FILL}"; color="#b0b0b0"; label=${dotString(frameUrl.get(frameId) ?? frameId)}; fontsize=8;`);
    for (const id of byFrame.get(frameId) ?? []) {
      const n = nodeById.get(id)!;
      const extra = crit.has(id) ? `, penwidth=2, color="${CRITICAL_COLOUR}"` : '';
      lines.push(`${indent}  ${dotString(id)} [label=${dotString(nodeLabel(n))}, fillcolor="${KIND_COLOUR[n.kind]}"${extra}];`);
    }
    for (const child of children.get(frameId) ?? []) emitFrame(child, `${indent}  `);
    lines.push(`${indent}}`);
  };
  for (const root of children.get(null) ?? []) emitFrame(root, '  ');
  for (const e of graph.edges) {
    if (!nodeById.has(e.from) || !nodeById.has(e.to)) continue;
    const c = critEdges.has(`${e.from}\u0000${e.to}`);
    lines.push(`  ${dotString(e.from)} -> ${dotString(e.to)} [tooltip=${dotString(String(e.rule))}${c ? `, color="${CRITICAL_COLOUR}", penwidth=2` : ''}];`);
  }
  lines.push('}');
  return lines.join('\n');
}
