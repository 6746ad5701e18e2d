/**
 * Parametric pages as in Goel et al. (h2 domain sharding): one document holding N objects (images)
 * whose sizes follow a distribution, optionally spread over several hosts. Made as a graph, so the
 * synthesizer turns it into a site like any recorded page. Pure and seeded.
 */
import { Rng } from '@pcp/emulator';
import type { Edge, Graph, GraphNode } from '@pcp/graph-builder';

export type SizeDist =
  | { kind: 'fixed'; bytes: number }
  | { kind: 'uniform'; min: number; max: number }
  | { kind: 'lognormal'; median: number; sigma: number };

function bytes(s: string): number {
  const m = /^\s*(\d+(?:\.\d+)?)\s*([km]?)b?\s*$/i.exec(s);
  if (!m) throw new Error(`not a byte size: '${s}' (e.g. 1500, 12k, 2m)`);
  const unit = m[2]!.toLowerCase();
  return Math.round(Number(m[1]) * (unit === 'k' ? 1024 : unit === 'm' ? 1024 * 1024 : 1));
}

/** `fixed:BYTES`, `uniform:MIN-MAX`, `lognormal:MEDIAN,SIGMA`. Throws a one-line error. */
export function parseSizeDist(s: string): SizeDist {
  const [kind, arg = ''] = s.split(':', 2) as [string, string?];
  if (kind === 'fixed') return { kind, bytes: bytes(arg) };
  if (kind === 'uniform') {
    const [a, b] = arg.split('-');
    const min = bytes(a ?? '');
    const max = bytes(b ?? '');
    if (max < min) throw new Error(`uniform sizes: ${max} < ${min}`);
    return { kind, min, max };
  }
  if (kind === 'lognormal') {
    const [a, b] = arg.split(',');
    const sigma = Number(b);
    if (!(sigma >= 0)) throw new Error(`lognormal sizes need MEDIAN,SIGMA with SIGMA >= 0, got '${arg}'`);
    return { kind, median: bytes(a ?? ''), sigma };
  }
  throw new Error(`--sizes expects fixed:B, uniform:MIN-MAX or lognormal:MEDIAN,SIGMA, got '${s}'`);
}

export function drawSize(d: SizeDist, rng: Rng): number {
  if (d.kind === 'fixed') return d.bytes;
  if (d.kind === 'uniform') return Math.round(d.min + rng.next() * (d.max - d.min));
  // Box-Muller: a standard normal from two uniforms.
  const z = Math.sqrt(-2 * Math.log(1 - rng.next())) * Math.cos(2 * Math.PI * rng.next());
  return Math.max(1, Math.round(d.median * Math.exp(d.sigma * z)));
}

export interface ParametricOptions {
  objects: number;
  sizes: SizeDist;
  /** scheme://host[:port] of the page; shards add hosts s1., s2., ... in front of its host. */
  origin: string;
  shards?: number;
  seed?: number;
}

export function parametricGraph(o: ParametricOptions): Graph {
  const rng = new Rng(o.seed ?? 1, 0);
  const base = new URL(o.origin);
  const shards = Math.max(1, o.shards ?? 1);
  const hostOf = (i: number): string => (shards === 1 ? base.origin : `${base.protocol}//s${i % shards}.${base.host}`);
  const page = `${base.origin}/`;
  const prio = { mimeType: 1, criticalPath: 1 };
  const nodes: GraphNode[] = [
    { id: 'doc', kind: 'resource', frame: 'main', start: 0, end: 0, url: page, mimeType: 'text/html', size: 0, method: 'GET', status: 200, cached: false, priority: prio, onCriticalPath: true },
    { id: 'parse', kind: 'parse_chunk', frame: 'main', start: 0, end: 0, docUrl: page, startLine: 1, startColumn: 16, endLine: 1, endColumn: 16 },
  ];
  const edges: Edge[] = [{ from: 'doc', to: 'parse', rule: 'resource-chunk' }];
  for (const name of ['domContentLoaded', 'load'] as const) {
    const id = name === 'load' ? 'load' : 'dcl';
    nodes.push({ id, kind: 'marker', frame: 'main', start: 0, end: 0, markerName: name });
    edges.push({ from: 'parse', to: id, rule: `completion:${name}` });
  }
  for (let i = 0; i < o.objects; i++) {
    const id = `obj${i}`;
    nodes.push({ id, kind: 'resource', frame: 'main', start: 0, end: 0, url: `${hostOf(i)}/objects/${i}.png`, mimeType: 'image/png', size: drawSize(o.sizes, rng), method: 'GET', status: 200, cached: false, priority: { mimeType: 2, criticalPath: 2 }, onCriticalPath: false });
    edges.push({ from: 'parse', to: id, rule: 1 });
  }
  return {
    schemaVersion: 1, page: { url: page }, frames: [{ id: 'main', url: page, parent: null }], nodes, edges,
    markers: { domContentLoaded: 'dcl', load: 'load' }, root: 'doc', criticalPath: { nodes: ['doc', 'parse'], length: 0 },
    provenance: { source: 'synthetic', tool: 'pcp synthesize', toolVersion: '0.1.0' },
  };
}
