/**
 * A round trip scored: the graph built from the synthesized page's profile against the graph it
 * was synthesized from. Nodes are matched by content key (graph-index.ts: resources by URL, parse
 * chunks by document and position in it, computations by frame document, kind and order). Pure.
 */
import { jaccard, type Graph, type GraphNode } from '@pcp/graph-builder';
import { contentKeys, indexGraph, requestedByManyDocs, servedFrom, stripFragment, type GraphIndex } from './graph-index.ts';
import { alignByCause } from './align.ts';
import { alignUpgrades } from './upgrades.ts';
import { nameLateRequestTimers } from './late-requests.ts';
import { transitiveReduction } from './reduction.ts';
import { mergeChunksCutApart } from './chunk-merge.ts';
import { scriptElementLoads } from './script-loads.ts';
import { criticalPathFigures, recordedGraphs, type CriticalPathFigures, type RecordedGraphs } from './cp-agreement.ts';
import { pairKey, sameDependencies } from './same-dependency.ts';

export interface RuleFigures {
  /** Source edges of this rule found in the built graph / all of them. */
  found: number;
  source: number;
}

/** An edge by the content keys of its ends, with its rule in the graph it comes from. */
export interface KeyedEdge {
  rule: string;
  from: string;
  to: string;
  /** In a miss: an end of the edge is a node the other graph does not have at all (a resource, frame, event the replay never made). */
  endLacking?: boolean;
}

export interface RoundTripFigures {
  /** Jaccard of the http(s) resource URLs. */
  resourceJaccard: number;
  /** Resources in both graphs whose parents (by key) agree, of those in both. */
  parentAgreement: number;
  parentsCompared: number;
  /** Edges by key, as drawn (issue 15's figure): built edges found in the source / all built; source edges found / all source. */
  edgePrecision: number;
  edgeRecall: number;
  /**
   * A secondary figure: the same with a script element's dependency drawn on its download by one
   * builder and on its evaluation by the other counted as one edge (`same-dependency.ts`). `byRule` and
   * `edgeMisses` are on these keys.
   */
  sameDependency: { precision: number; recall: number };
  /**
   * A secondary figure: precision and recall on both graphs' transitive reductions (the keyed edges no
   * other path implies: an edge implied by a path is redundant for ordering, `reduction.ts`). The
   * headline is `edgePrecision`/`edgeRecall`, the edges as drawn.
   */
  reduced: { precision: number; recall: number };
  /** Recall per rule of the source graph. */
  byRule: Record<string, RuleFigures>;
  /** Jaccard of the resource URLs on the two critical paths, each on its graph as recorded (`asRecorded`: post-load timers included). */
  criticalPathJaccard: number;
  /**
   * Secondary figures beside it (cp-agreement.ts): `structural`, the rebuilt edges with the source's
   * durations; `near`, a resource off one path agreeing when its branch on the other side is within 2, 5, 10%
   * of that path; and the source path's edges the rebuilt graph lacks. The headline is `criticalPathJaccard`.
   */
  criticalPathSecondary: Omit<CriticalPathFigures, 'jaccard'>;
  /** Load (main frame's load event), ms from the main document's request: source, built. */
  loadSource?: number;
  loadBuilt?: number;
  /** Parse chunks per side. */
  parseChunks: { source: number; built: number };
  missingResources: string[];
  extraResources: string[];
  /** Resources whose parents differ: URL, source parents, built parents (keys). */
  parentMisses: { url: string; source: string[]; built: string[] }[];
  /** Source edges not in the built graph (source rule), built edges not in the source (built rule). */
  edgeMisses: { missing: KeyedEdge[]; extra: KeyedEdge[] };
}

/**
 * What a content key names, for classes of miss: its first word (`timer`, `event`, `parse`, ...), an
 * event's with its target (`event element`, `event window`, `event xmlhttprequest`, ...) when
 * `detail`; `unkeyed` for a node no key could name.
 */
export function keyKind(key: string, detail = false): string {
  if (/^\w+_\d/.test(key)) return 'unkeyed';
  const [kind = key, what = ''] = key.split(' ');
  return detail && kind === 'event' ? `event ${what.split('.')[0]}` : kind;
}

/** Edges by class: `rule R: kind -> kind` (`keyKind` with events' targets), with their counts. */
export function edgeClasses(edges: KeyedEdge[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const e of edges) {
    const k = `rule ${e.rule}: ${keyKind(e.from, true)} -> ${keyKind(e.to, true)}`;
    out.set(k, (out.get(k) ?? 0) + 1);
  }
  return out;
}

const httpUrls = (g: Graph): string[] =>
  g.nodes.flatMap((n) => (n.kind === 'resource' && /^https?:/.test(n.url) ? [stripFragment(n.url)] : []));

/** The browser asks for these on its own: never part of the page's structure. */
const isBrowserOwn = (url: string): boolean => /\/favicon\.ico$/.test(url);

function edgeKeys(ix: GraphIndex, keys: Map<string, string>): Map<string, KeyedEdge> {
  const out = new Map<string, KeyedEdge>();
  // A legacy graph's script element load hung off a parse chunk is the load of its script's element (script-loads.ts).
  const hung = new Map([...scriptElementLoads(ix)].map(([r, ev]) => [ev.id, r]));
  for (const e of ix.graph.edges) {
    const parent = ix.byId.get(e.from);
    // A memory-cache repeat's element load: from the request whose bytes it used (`servedFrom`).
    const served = ix.byId.get(e.to)?.kind === 'event' && parent ? servedFrom(ix, parent) : undefined;
    const from = keys.get(parent?.kind === 'parse_chunk' ? hung.get(e.to) ?? e.from : served?.id ?? e.from);
    const to = keys.get(e.to);
    if (from && to && from !== to) out.set(pairKey({ from, to }), { rule: String(e.rule), from, to });
  }
  return out;
}

function parentKeys(ix: GraphIndex, keys: Map<string, string>, node: GraphNode): string[] {
  return (ix.parents.get(node.id) ?? []).map((e) => keys.get(e.from) ?? e.from).sort();
}

/**
 * The parents of each request of `url` (memory-cache repeats aside: they are no requests), one
 * joined string per request, sorted: a URL several frames request (friv.com's script of two frames)
 * may be requested by them in another order in a replay, which the first request alone would count
 * as a different parent.
 */
function requestParents(ix: GraphIndex, keys: Map<string, string>, url: string): string[] {
  return ix.graph.nodes
    .filter((n) => n.kind === 'resource' && keys.has(n.id) && stripFragment(n.url) === url)
    .map((n) => parentKeys(ix, keys, n).join('|'))
    .sort();
}

/** The same requests with the same parents, whatever their order. */
const sameRequests = (a: string[], b: string[]): boolean => a.length > 1 && a.length === b.length && a.every((x, i) => x === b[i]);

/**
 * The main frame's load, ms from the document's request (a trace graph's clock starts at the navigation's
 * commit): when its load event began, as a legacy graph's load marker (the 2016 log's `loadTime`, the start
 * of the window's load handlers); a trace's `loadEventStart`, else its `MarkLoad` (written after the handlers).
 */
export function loadOf(g: Graph): number | undefined {
  const nav = g.navigation;
  const load = nav?.loadEventStart ?? nav?.load;
  if (load !== undefined) return load - Math.min(0, nav?.documentRequest ?? 0);
  const m = g.nodes.find((n) => n.id === g.markers?.load);
  return m?.start;
}

/** Both graphs indexed and keyed as the comparison matches them (the rebuilt one with its upgraded URLs named as the source's). */
export interface MatchedGraphs {
  built: Graph;
  si: GraphIndex;
  bi: GraphIndex;
  sk: Map<string, string>;
  bk: Map<string, string>;
  /** Both graphs as recorded (cp-agreement.ts), for the critical-path figures, misses and duration gaps. */
  recorded: RecordedGraphs;
}

export function matchGraphs(source: Graph, builtAsLoaded: Graph): MatchedGraphs {
  // URLs the browser upgraded to https are named as the page asked for them (upgrades.ts).
  const built = alignUpgrades(source, builtAsLoaded);
  const si = indexGraph(source);
  const bi = indexGraph(built);
  // Parts collapsed: builders split computations at different points; the parent is the computation.
  const manyDocs = new Set([...requestedByManyDocs(si), ...requestedByManyDocs(bi)]);
  const sk = contentKeys(si, true, manyDocs);
  const bk = contentKeys(bi, true, manyDocs);
  // Timers and handlers keyed by order: aligned by what caused them (align.ts).
  alignByCause(si, sk, bi, bk);
  // The synthesizer's timers that delay a late request: named as the computation that set them (late-requests.ts).
  nameLateRequestTimers(si, sk, bi, bk);
  // Parse chunks one builder cut apart where the other has one (chunk-merge.ts).
  mergeChunksCutApart(si, sk, bi, bk);
  return { built, si, bi, sk, bk, recorded: recordedGraphs(source, built) };
}

export function compareRoundTrip(source: Graph, builtAsLoaded: Graph): RoundTripFigures {
  return compareMatched(source, matchGraphs(source, builtAsLoaded));
}

/** The round trip's figures for SOURCE and the rebuilt graph matched with it (matchGraphs). */
export function compareMatched(source: Graph, { built, si, bi, sk, bk, recorded }: MatchedGraphs): RoundTripFigures {
  const su = new Set(httpUrls(source));
  const bu = new Set(httpUrls(built).filter((u) => su.has(u) || !isBrowserOwn(u)));
  const parentMisses: RoundTripFigures['parentMisses'] = [];
  let agree = 0;
  let compared = 0;
  for (const [url, sr] of si.resourceByUrl) {
    const br = bi.resourceByUrl.get(url);
    if (!br || sr.id === source.root) continue;
    compared++;
    const a = parentKeys(si, sk, sr);
    const b = parentKeys(bi, bk, br);
    if (a.join('|') === b.join('|') || sameRequests(requestParents(si, sk, url), requestParents(bi, bk, url))) agree++;
    else parentMisses.push({ url, source: a, built: b });
  }
  const se = edgeKeys(si, sk);
  const be = edgeKeys(bi, bk);
  const drawnFound = [...se.keys()].filter((k) => be.has(k)).length;
  // The same dependency drawn on a script's download or on its evaluation: one edge (same-dependency.ts).
  const same = (m: Map<string, KeyedEdge>): Map<string, KeyedEdge> => new Map(sameDependencies([...m.values()]).map((e) => [pairKey(e), e]));
  const ss = same(se);
  const bs = same(be);
  const byRule: Record<string, RuleFigures> = {};
  let found = 0;
  for (const [k, { rule }] of ss) {
    const r = (byRule[rule] ??= { found: 0, source: 0 });
    r.source++;
    if (bs.has(k)) {
      r.found++;
      found++;
    }
  }
  let correct = 0;
  for (const k of bs.keys()) if (ss.has(k)) correct++;
  const reducedKeys = (m: Map<string, KeyedEdge>): Set<string> => new Set(transitiveReduction([...m.values()]).map(pairKey));
  const rs = reducedKeys(se);
  const rb = reducedKeys(be);
  const inBoth = [...rb].filter((k) => rs.has(k)).length;
  const sKeys = new Set(sk.values());
  const bKeys = new Set(bk.values());
  const keyed = (edges: Map<string, KeyedEdge>, other: Map<string, KeyedEdge>, otherKeys: Set<string>): KeyedEdge[] =>
    [...edges].flatMap(([k, e]) => (other.has(k) ? [] : [otherKeys.has(e.from) && otherKeys.has(e.to) ? e : { ...e, endLacking: true }]));
  const count = (g: Graph): number => g.nodes.filter((n) => n.kind === 'parse_chunk').length;
  const { jaccard: criticalPathJaccard, ...criticalPathSecondary } = criticalPathFigures(recorded, sk, bk, { source: se, built: be });
  return {
    resourceJaccard: jaccard(su, bu),
    parentAgreement: compared ? agree / compared : 1,
    parentsCompared: compared,
    edgePrecision: be.size ? drawnFound / be.size : 1,
    edgeRecall: se.size ? drawnFound / se.size : 1,
    sameDependency: { precision: bs.size ? correct / bs.size : 1, recall: ss.size ? found / ss.size : 1 },
    reduced: { precision: rb.size ? inBoth / rb.size : 1, recall: rs.size ? inBoth / rs.size : 1 },
    byRule,
    criticalPathJaccard,
    criticalPathSecondary,
    loadSource: loadOf(source),
    loadBuilt: loadOf(built),
    parseChunks: { source: count(source), built: count(built) },
    missingResources: [...su].filter((u) => !bu.has(u)),
    extraResources: [...bu].filter((u) => !su.has(u)),
    parentMisses,
    edgeMisses: { missing: keyed(ss, bs, bKeys), extra: keyed(bs, ss, sKeys) },
  };
}
