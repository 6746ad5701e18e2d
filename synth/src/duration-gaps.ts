/**
 * Where the replay's durations part from the source's on the source's critical path (issue 15, session 12):
 * each node of the source's path (a computation's parts as one, by content key, as the comparison matches
 * them) with what its key lasts on each side, classed by what it is (parse chunk, download chunk, script,
 * style sheet, timer, event, and downloads by type), so that a class always too long or too short shows
 * before single sites. A rebuilt download's excess is split into the browser's own waits (`browserDelay`:
 * the scheduler's hold, connection set-up, the hop to the network service) and the rest (server, transfer).
 * Pure.
 */
import { criticalPath, mimeClass, type Graph, type GraphNode, type MimeClass } from '@pcp/graph-builder';
import { span, type RecordedGraphs } from './cp-agreement.ts';

export interface DurationGap {
  key: string;
  /** `durationClass` of the source's node. */
  cls: string;
  /** What the key lasts in the source, ms (all its nodes). */
  source: number;
  /** What it lasts in the rebuilt graph, ms; undefined when the rebuilt graph lacks the key. */
  built?: number;
  /** Of `built`, the browser's own time around the socket (downloads only), ms. */
  browser?: number;
}

/** A download's type for the table: graph-builder's MIME classes (priorities), fonts apart from the rest. */
const DOWNLOAD_TYPE: Record<MimeClass, string> = { html: 'document', css: 'style sheet', javascript: 'script', image: 'image', other: 'other' };

function downloadType(mimeType: string): string {
  const c = mimeClass(mimeType);
  return c === 'other' && /font|woff|ttf|otf/.test(mimeType) ? 'font' : DOWNLOAD_TYPE[c];
}

/** What a node is, for the table: its kind, and a download's type by MIME. */
export function durationClass(n: GraphNode): string {
  switch (n.kind) {
    case 'resource': return `download: ${downloadType(n.mimeType)}`;
    case 'parse_chunk': return 'parse chunk';
    case 'download_chunk': return 'download chunk';
    case 'script_eval': return n.scriptKind === 'inline' ? 'script (inline)' : 'script';
    case 'css_eval': return 'style sheet';
    case 'timer': return 'timer';
    case 'event': return `event ${n.eventTarget.toLowerCase()}`;
    default: return n.kind;
  }
}

/**
 * The browser's own waits of a rebuilt download (`browserDelay`): the request's way to the socket (the
 * scheduler's hold included), connection set-up, the response's way to the renderer, a frame's commit; not
 * `wait` (the server's time) nor `read` (the paced body's transfer).
 */
function browserOwn(n: GraphNode): number {
  if (n.kind !== 'resource' || !n.browserDelay) return 0;
  const { request = 0, release = 0, connect = 0, response = 0, commit = 0 } = n.browserDelay;
  return request + release + connect + response + commit;
}

/**
 * The source's critical path (both graphs as recorded), key by key (`sourceKeys`/`builtKeys`: the comparison's
 * content keys, parts collapsed), with each key's total span on both sides. Nodes without a key are left out.
 */
export function pathDurationGaps({ source, built }: RecordedGraphs, sourceKeys: Map<string, string>, builtKeys: Map<string, string>): DurationGap[] {
  const totals = (g: Graph, keys: Map<string, string>, of: (n: GraphNode) => number): Map<string, number> => {
    const out = new Map<string, number>();
    for (const n of g.nodes) {
      const k = keys.get(n.id);
      if (k !== undefined) out.set(k, (out.get(k) ?? 0) + of(n));
    }
    return out;
  };
  const want = totals(source, sourceKeys, span);
  const have = totals(built, builtKeys, span);
  const own = totals(built, builtKeys, browserOwn);
  const byId = new Map(source.nodes.map((n) => [n.id, n]));
  const seen = new Set<string>();
  const out: DurationGap[] = [];
  for (const id of criticalPath(source).nodes) {
    const k = sourceKeys.get(id);
    const n = byId.get(id);
    if (k === undefined || n === undefined || seen.has(k)) continue;
    seen.add(k);
    const gap: DurationGap = { key: k, cls: durationClass(n), source: want.get(k) ?? 0, built: have.get(k) };
    if (n.kind === 'resource' && gap.built !== undefined) gap.browser = own.get(k) ?? 0;
    out.push(gap);
  }
  return out;
}

export interface ClassTotals {
  /** Nodes of the class on the source paths, and of them in the rebuilt graphs. */
  nodes: number;
  matched: number;
  /** Sums over the matched nodes, ms. */
  source: number;
  built: number;
  browser: number;
  /** Matched nodes longer / shorter in the rebuilt graph by more than `factor` and `slackMs`. */
  longer: number;
  shorter: number;
}

/** Per class, the totals of `gaps` (any number of graphs'), longest excess first. */
export function durationTotals(gaps: DurationGap[], factor = 1.5, slackMs = 20): [string, ClassTotals][] {
  const out = new Map<string, ClassTotals>();
  for (const g of gaps) {
    const t = out.get(g.cls) ?? { nodes: 0, matched: 0, source: 0, built: 0, browser: 0, longer: 0, shorter: 0 };
    t.nodes++;
    if (g.built !== undefined) {
      t.matched++;
      t.source += g.source;
      t.built += g.built;
      t.browser += g.browser ?? 0;
      if (g.built > g.source * factor && g.built - g.source > slackMs) t.longer++;
      if (g.source > g.built * factor && g.source - g.built > slackMs) t.shorter++;
    }
    out.set(g.cls, t);
  }
  return [...out].sort((a, b) => Math.abs(b[1].built - b[1].source) - Math.abs(a[1].built - a[1].source));
}
