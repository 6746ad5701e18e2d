/**
 * Compares a v1 graph with a test page's hand-written expectations (expected.ts): the share of
 * resources whose parent is the expected activity, and edge precision / recall.
 *
 * Scoring:
 * - recall = expected edges found / expected edges (every expected resource counts as one more
 *   expected edge, parent -> resource). An edge is found when the graph has an edge between a node
 *   matching `from` and a node matching `to`, with the same rule when the expectation names one.
 * - precision is measured where the expectation is complete: over the graph's in-edges of every
 *   node some expectation points at (its `to`, or an expected resource). Of those, the share that
 *   matches an expectation. Edges no hand-written expectation can state are left out: 'split'
 *   (sub-computation sequencing, depends on where children fall), rule 9 (download chunk chains) and
 *   document download chunk -> parse chunk (chunking follows packet arrival, not the source).
 */
import type { Edge, Graph, GraphNode } from '@pcp/graph-builder';
import { describeRef, type ActivityRef, type Expected, type ExpectedEdge } from './expected.ts';

export interface MatchContext {
  /** The page's URL as loaded (relative URLs in the expectation resolve against it). */
  pageUrl: string;
  /** Expands `{{origin:x}}` placeholders (the test server's `expand`). */
  expand?: (s: string) => string;
}

export interface EdgeMiss {
  edge: string;
  reason: string;
}

export interface PageScore {
  resources: { expected: number; withExpectedParent: number; misses: EdgeMiss[] };
  edges: { expected: number; found: number; misses: EdgeMiss[] };
  precision: { inScope: number; matched: number; extras: string[] };
  /** Resources the graph has that the expectation does not list (besides the main document). */
  unlistedResources: string[];
  recall: number;
  edgePrecision: number;
  resourceShare: number;
}

type Group = GraphNode[];

/** Event targets that are not elements (an 'Element' node never stands for these). */
const NON_ELEMENT_TARGETS = new Set(['document', 'window', 'xmlhttprequest', 'messageport', 'worker']);

function normUrl(u: string): string {
  const i = u.indexOf('#');
  return i >= 0 ? u.slice(0, i) : u;
}

export class GraphIndex {
  readonly byId = new Map<string, GraphNode>();
  readonly frameUrl = new Map<string, string>();
  readonly inEdges = new Map<string, Edge[]>();
  constructor(readonly graph: Graph, private readonly ctx: MatchContext) {
    for (const n of graph.nodes) this.byId.set(n.id, n);
    for (const f of graph.frames) this.frameUrl.set(f.id, normUrl(f.url));
    for (const e of graph.edges) {
      const list = this.inEdges.get(e.to) ?? [];
      list.push(e);
      this.inEdges.set(e.to, list);
    }
  }

  url(u: string): string {
    const x = this.ctx.expand ? this.ctx.expand(u) : u;
    try {
      return normUrl(new URL(x, this.ctx.pageUrl).href);
    } catch {
      return x;
    }
  }

  /**
   * Computations split into parts are one activity: group parts in start order (a node without
   * `part`, or part 0, starts a group; later parts join the open group of the same identity).
   */
  private groups(nodes: GraphNode[], identity: (n: GraphNode) => string): Group[] {
    const sorted = [...nodes].sort((a, b) => a.start - b.start || a.id.localeCompare(b.id));
    const open = new Map<string, Group>();
    const out: Group[] = [];
    for (const n of sorted) {
      const key = `${n.frame}|${identity(n)}`;
      const part = (n as { part?: number }).part;
      const g = open.get(key);
      if (g && part !== undefined && part > 0) g.push(n);
      else {
        const fresh = [n];
        open.set(key, fresh);
        out.push(fresh);
      }
    }
    return out;
  }

  /** Nodes a reference may mean (all parts of the chosen activity). */
  resolve(ref: ActivityRef): GraphNode[] {
    const frame = ref.frameUrl ? this.url(ref.frameUrl) : undefined;
    const inFrame = (n: GraphNode): boolean => frame === undefined || this.frameUrl.get(n.frame) === frame;
    const nodes = this.graph.nodes.filter(inFrame);
    let groups: Group[];
    switch (ref.kind) {
      case 'resource': {
        const u = this.url(ref.url);
        groups = nodes.filter((n) => n.kind === 'resource' && normUrl(n.url) === u).sort((a, b) => a.start - b.start).map((n) => [n]);
        break;
      }
      case 'download_chunk': {
        const u = this.url(ref.url);
        const res = nodes.filter((n) => n.kind === 'resource' && normUrl(n.url) === u).sort((a, b) => a.start - b.start);
        groups = res.map((r) => {
          const chunks = nodes.filter((n) => n.kind === 'download_chunk' && n.resource === r.id).sort((a, b) => (a as { index: number }).index - (b as { index: number }).index);
          const c = ref.index === 'last' ? chunks[chunks.length - 1] : chunks.find((x) => (x as { index: number }).index === ref.index);
          return c ? [c] : [];
        }).filter((g) => g.length > 0);
        break;
      }
      case 'parse_chunk': {
        const u = this.url(ref.docUrl);
        const chunks = nodes.filter((n) => n.kind === 'parse_chunk' && normUrl(n.docUrl) === u);
        if (ref.line === 'last') {
          const last = [...chunks].sort((a, b) => a.start - b.start || a.id.localeCompare(b.id)).pop();
          groups = last ? [[last]] : [];
          break;
        }
        const line = ref.line;
        const ending = chunks.filter((n) => n.kind === 'parse_chunk' && n.endLine === line);
        const containing = chunks.filter((n) => n.kind === 'parse_chunk' && n.startLine <= line && line <= n.endLine);
        groups = (ending.length ? ending : containing).sort((a, b) => a.start - b.start).map((n) => [n]);
        break;
      }
      case 'script_eval': {
        const u = this.url(ref.url);
        const evals = nodes.filter((n) => n.kind === 'script_eval' && normUrl(n.scriptUrl) === u && (!ref.scriptKind || n.scriptKind === ref.scriptKind));
        groups = this.groups(evals, (n) => (n.kind === 'script_eval' ? n.scriptUrl + n.scriptKind : ''));
        break;
      }
      case 'css_eval': {
        const u = this.url(ref.url);
        groups = this.groups(nodes.filter((n) => n.kind === 'css_eval' && normUrl(n.styleUrl) === u), (n) => (n.kind === 'css_eval' ? n.styleUrl : ''));
        break;
      }
      case 'timer':
        groups = this.groups(nodes.filter((n) => n.kind === 'timer' && n.timerDelay === ref.delay), (n) => (n.kind === 'timer' ? n.timerId : ''));
        break;
      case 'event': {
        const want = ref.target.toLowerCase();
        const isElement = !NON_ELEMENT_TARGETS.has(want);
        const subject = ref.subject ? this.url(ref.subject) : undefined;
        const events = nodes.filter((n) => {
          if (n.kind !== 'event' || n.eventName !== ref.name) return false;
          const got = n.eventTarget.toLowerCase();
          return got === want || (isElement && got === 'element');
        });
        groups = this.groups(events, (n) => (n.kind === 'event' ? `${n.eventTarget}.${n.eventName}` : ''));
        if (subject !== undefined) {
          // Keep the activities one of whose parts has the element's resource as a parent.
          groups = groups.filter((g) => g.some((n) => (this.inEdges.get(n.id) ?? []).some((e) => {
            const from = this.byId.get(e.from);
            if (from?.kind === 'resource') return normUrl(from.url) === subject;
            // Rule 23: an iframe element's event hangs off the frame document's last download chunk.
            const doc = from?.kind === 'download_chunk' ? this.byId.get(from.resource) : undefined;
            return doc?.kind === 'resource' && normUrl(doc.url) === subject;
          })));
        }
        break;
      }
      case 'marker':
        groups = nodes.filter((n) => n.kind === 'marker' && n.markerName === ref.name).map((n) => [n]);
        break;
    }
    if (ref.nth !== undefined) return groups[ref.nth] ?? [];
    return groups.flat();
  }
}

/** Edges a hand-written expectation cannot state (see the header). */
export function isStructural(e: Edge, idx: GraphIndex): boolean {
  if (e.rule === 'split' || e.rule === 9) return true;
  const from = idx.byId.get(e.from);
  const to = idx.byId.get(e.to);
  return from?.kind === 'download_chunk' && to?.kind === 'parse_chunk';
}

function edgeText(e: ExpectedEdge): string {
  return `${describeRef(e.from)} -> ${describeRef(e.to)}${e.rule !== undefined ? ` [${e.rule}]` : ''}`;
}

export function matchPage(graph: Graph, expected: Expected, ctx: MatchContext): PageScore {
  const idx = new GraphIndex(graph, ctx);
  const score: PageScore = {
    resources: { expected: expected.resources.length, withExpectedParent: 0, misses: [] },
    edges: { expected: 0, found: 0, misses: [] },
    precision: { inScope: 0, matched: 0, extras: [] },
    unlistedResources: [],
    recall: 1,
    edgePrecision: 1,
    resourceShare: 1,
  };
  const matchedGraphEdges = new Set<Edge>();
  const scope = new Set<string>();

  /** Find graph edges for an expectation; returns a reason when none. */
  const find = (e: ExpectedEdge): string | undefined => {
    const froms = new Set(idx.resolve(e.from).map((n) => n.id));
    const tos = idx.resolve(e.to);
    for (const t of tos) scope.add(t.id);
    if (froms.size === 0) return `no node for ${describeRef(e.from)}`;
    if (tos.length === 0) return `no node for ${describeRef(e.to)}`;
    let ruleSeen: Edge | undefined;
    let ok = false;
    for (const t of tos) {
      for (const ge of idx.inEdges.get(t.id) ?? []) {
        if (!froms.has(ge.from) || ge.rule === 'split') continue;
        if (e.rule !== undefined && ge.rule !== e.rule) {
          ruleSeen = ge;
          continue;
        }
        matchedGraphEdges.add(ge);
        ok = true;
      }
    }
    if (ok) return undefined;
    if (ruleSeen) return `edge present with rule ${String(ruleSeen.rule)}`;
    const actual = tos.flatMap((t) => (idx.inEdges.get(t.id) ?? []).filter((g) => g.rule !== 'split').map((g) => `${g.from}[${String(g.rule)}]`));
    return `graph parents: ${actual.join(', ') || 'none'}`;
  };

  for (const r of expected.resources) {
    const edge: ExpectedEdge = { from: r.parent, to: { kind: 'resource', url: r.url, nth: r.nth } };
    const why = find(edge);
    if (why === undefined) score.resources.withExpectedParent++;
    else score.resources.misses.push({ edge: edgeText(edge), reason: why });
  }
  for (const e of expected.edges) {
    score.edges.expected++;
    const why = find(e);
    if (why === undefined) score.edges.found++;
    else score.edges.misses.push({ edge: edgeText(e), reason: why });
  }
  for (const id of scope) {
    for (const ge of idx.inEdges.get(id) ?? []) {
      if (isStructural(ge, idx)) continue;
      score.precision.inScope++;
      if (matchedGraphEdges.has(ge)) score.precision.matched++;
      else score.precision.extras.push(`${ge.from} -> ${ge.to} [${String(ge.rule)}]`);
    }
  }
  const listed = new Set(expected.resources.map((r) => idx.url(r.url)));
  const page = idx.url(ctx.pageUrl);
  for (const n of graph.nodes) {
    if (n.kind !== 'resource') continue;
    const u = normUrl(n.url);
    if (u === page || listed.has(u) || /\/favicon\.ico$/.test(u)) continue;
    score.unlistedResources.push(u);
  }
  const expectedEdges = score.resources.expected + score.edges.expected;
  const foundEdges = score.resources.withExpectedParent + score.edges.found;
  score.recall = expectedEdges ? foundEdges / expectedEdges : 1;
  score.edgePrecision = score.precision.inScope ? score.precision.matched / score.precision.inScope : 1;
  score.resourceShare = score.resources.expected ? score.resources.withExpectedParent / score.resources.expected : 1;
  return score;
}

export interface Aggregate {
  pages: number;
  resources: number;
  resourcesWithExpectedParent: number;
  resourceShare: number;
  expectedEdges: number;
  foundEdges: number;
  recall: number;
  edgesInScope: number;
  matchedEdges: number;
  precision: number;
}

/** Micro-averaged over all pages (every resource and edge weighs the same). */
export function aggregate(scores: PageScore[]): Aggregate {
  const sum = (f: (s: PageScore) => number): number => scores.reduce((a, s) => a + f(s), 0);
  const resources = sum((s) => s.resources.expected);
  const withParent = sum((s) => s.resources.withExpectedParent);
  const expectedEdges = sum((s) => s.resources.expected + s.edges.expected);
  const foundEdges = sum((s) => s.resources.withExpectedParent + s.edges.found);
  const inScope = sum((s) => s.precision.inScope);
  const matched = sum((s) => s.precision.matched);
  return {
    pages: scores.length,
    resources,
    resourcesWithExpectedParent: withParent,
    resourceShare: resources ? withParent / resources : 1,
    expectedEdges,
    foundEdges,
    recall: expectedEdges ? foundEdges / expectedEdges : 1,
    edgesInScope: inScope,
    matchedEdges: matched,
    precision: inScope ? matched / inScope : 1,
  };
}
