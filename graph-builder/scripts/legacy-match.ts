/**
 * Content matching between two graphs in the original layout (one rebuilt, one reference), and the
 * accuracy figures of `npm run compare:legacy`. Nodes are matched by what they are, never by id:
 *  - resource: url, cached flag, and occurrence (n-th fetch of that url, by send time);
 *  - parse chunk: document url and start position (row, column);
 *  - download chunk: the parse chunk it feeds;
 *  - eval: evalType, script/style url or event name, document, and order (n-th such eval by start);
 *    sub-computations add their part index; the DOMContentLoaded/load markers match each other.
 * Both sides are in the original layout (an exported file and a reference file), or both are views of
 * v1 graphs (`v1MatchView`): a parse chunk's position is keyed as each side writes it.
 */
import type { LegacyActivity, LegacyGraph } from '../src/format/legacy.ts';
import type { Graph, GraphNode } from '../src/format/types.ts';
import { jaccard, spearman } from '../src/analysis/stats.ts';

export interface KeyOptions {
  /**
   * How evals of the same type, url/name and document are told apart: 'order' (n-th by start time) or
   * 'time' (their start time, to 10 µs). Order is what a reader would compare by hand but one eval more
   * or fewer early in a page renumbers all later ones; both graphs come from the same log, so start
   * times identify the same computation exactly.
   */
  evalKey?: 'order' | 'time';
  /**
   * How the repeats within a computation are told apart. 'end': the parts of a split computation by the
   * instant each ends (the cut of the child it leads to, to 10 µs; the zero-length parts of children
   * issued at one instant and the part before them are one point of the computation, whose order the
   * reference does not keep), memory-cache reuses of a url by their access time. 'index' (default): parts by
   * position, reuses by order. By index, one cut more on one side (the reference's network fetch moved to
   * a later cache hit) renumbers every later part of that computation, and one reuse more every later
   * reuse of that url, with every resource hanging off them; by end, only the part the cut divides and
   * the reuse itself differ.
   */
  partKey?: 'index' | 'end';
}

const num = (v: unknown): number => (typeof v === 'number' ? v : Number(v) || 0);
const s = (v: unknown): string => (typeof v === 'string' ? v : v === undefined || v === null ? '' : String(v));

/** id -> content key for every activity of a legacy graph. */
export function contentKeys(g: LegacyGraph, opts: KeyOptions = {}): Map<string, string> {
  const keys = new Map<string, string>();
  const byId = new Map(g.activities.map((a) => [a.id, a]));
  const occurrence = (list: LegacyActivity[], key: (a: LegacyActivity) => string, time: (a: LegacyActivity) => number, prefix: string): void => {
    const sorted = [...list].sort((a, b) => time(a) - time(b) || (a.id < b.id ? -1 : 1));
    const seen = new Map<string, number>();
    for (const a of sorted) {
      const k = key(a);
      const n = seen.get(k) ?? 0;
      seen.set(k, n + 1);
      keys.set(a.id, `${prefix}|${k}|#${n}`);
    }
  };
  const resources = g.activities.filter((a) => a.type === 'resource');
  // Memory-cache reuses of one url can be dozens (one image per list item): told apart by order, one reuse
  // more on one side renumbers all later ones; by time, only it differs. Network fetches stay ordered: the
  // reference redates some (a fetch moved to a later cache hit, docs/legacy-builder.md).
  const reuseAt = (a: LegacyActivity): string => (a.cached && opts.partKey === 'end' ? `|@${Math.round(num(a.sentTime) * 1e5)}` : '');
  occurrence(resources, (a) => `${s(a.url)}|${a.cached ? 'cached' : 'net'}${reuseAt(a)}`, (a) => num(a.sentTime), 'R');
  for (const a of g.activities) {
    if (a.type === 'parse_chunk') keys.set(a.id, `P|${s(a.docUrl)}|${num(a.startRow)}|${num(a.startColumn)}`);
  }
  for (const a of g.activities) {
    if (a.type !== 'download_chunk') continue;
    const pc = a.children.map((c) => byId.get(c)).find((c) => c?.type === 'parse_chunk');
    keys.set(a.id, pc ? `D|${keys.get(pc.id)}` : `D|${a.id}`);
  }
  const markers = new Map([
    [g.DOMContentLoadedEvent, 'M|domContentLoaded'],
    [g.loadEvent, 'M|load'],
  ]);
  // Markers keep their own keys, but a marker that is part 0 of a split computation (the original
  // builder's DOMContentLoaded marker on 31 of 64 sites) still numbers the computation's other parts.
  const evals = g.activities.filter((a) => a.type === 'eval');
  const whole = (a: LegacyActivity): string => (s(a.enclosing) !== 'None' && s(a.enclosing) !== '' ? s(a.enclosing) : a.id);
  const firstParts = new Map<string, LegacyActivity>();
  for (const a of evals) {
    const w = whole(a);
    const cur = firstParts.get(w);
    if (!cur || num(a.startTime) < num(cur.startTime)) firstParts.set(w, a);
  }
  const evalKey = (a: LegacyActivity): string =>
    `${s(a.evalType)}|${a.evalType === 'fireEvent' ? `${s(a.name)}/${s(a.targetType)}` : s(a.url)}|${s(a.docUrl)}`;
  const wholeKeys = new Map<string, string>();
  const tmp = new Map<string, string>();
  const sorted = [...firstParts.entries()].sort((x, y) => num(x[1].startTime) - num(y[1].startTime));
  const seen = new Map<string, number>();
  for (const [w, a] of sorted) {
    const k = evalKey(a);
    if (opts.evalKey === 'time') {
      wholeKeys.set(w, `E|${k}|@${Math.round(num(a.startTime) * 1e5)}`);
      continue;
    }
    const n = seen.get(k) ?? 0;
    seen.set(k, n + 1);
    wholeKeys.set(w, `E|${k}|#${n}`);
  }
  const partsOf = new Map<string, LegacyActivity[]>();
  for (const a of evals) (partsOf.get(whole(a)) ?? partsOf.set(whole(a), []).get(whole(a))!).push(a);
  for (const [w, parts] of partsOf) {
    parts.sort((x, y) => num(x.startTime) - num(y.startTime));
    parts.forEach((p, i) => {
      if (parts.length === 1) tmp.set(p.id, wholeKeys.get(w)!);
      else if (opts.partKey === 'end') tmp.set(p.id, `${wholeKeys.get(w)}|part@${Math.round(num(p.endTime) * 1e5)}`);
      else tmp.set(p.id, `${wholeKeys.get(w)}|part${i}`);
    });
  }
  for (const [id, k] of tmp) keys.set(id, k);
  for (const [id, k] of markers) keys.set(id, k);
  return keys;
}

export interface SiteFigures {
  resourceJaccard: number;
  parentsEqual: number;
  parentsTotal: number;
  edgesCommon: number;
  edgesMine: number;
  edgesRef: number;
  critJaccard: number;
  spearman: number;
  /** Resources matched by content (both sides): url, cached flag and occurrence. */
  matched: number;
  resourcesMine: number;
  resourcesRef: number;
  /** Reference resources with a counterpart of the same key (a lost cache reuse lowers it). */
  resourcesMatched: number;
}

function edgeSet(g: LegacyGraph, keys: Map<string, string>): Set<string> {
  const out = new Set<string>();
  for (const a of g.activities) for (const c of a.children) out.add(`${keys.get(a.id) ?? a.id} -> ${keys.get(c) ?? c}`);
  return out;
}

function parentsByKey(g: LegacyGraph, keys: Map<string, string>): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const a of g.activities) {
    for (const c of a.children) {
      const ck = keys.get(c) ?? c;
      (out.get(ck) ?? out.set(ck, new Set()).get(ck)!).add(keys.get(a.id) ?? a.id);
    }
  }
  return out;
}

const cpPriority = (a: LegacyActivity): number => num((a.priority as Record<string, unknown> | undefined)?.cp);
const isCrit = (a: LegacyActivity): boolean => Boolean((a.iscrit as Record<string, unknown> | undefined)?.cp);

export function compareLegacy(mine: LegacyGraph, ref: LegacyGraph, opts: { mine?: KeyOptions; ref?: KeyOptions } = {}): SiteFigures {
  const km = contentKeys(mine, opts.mine);
  const kr = contentKeys(ref, opts.ref);
  const resM = mine.activities.filter((a) => a.type === 'resource');
  const resR = ref.activities.filter((a) => a.type === 'resource');
  const em = edgeSet(mine, km);
  const er = edgeSet(ref, kr);
  let common = 0;
  for (const e of em) if (er.has(e)) common++;
  const pm = parentsByKey(mine, km);
  const pr = parentsByKey(ref, kr);
  const mineByKey = new Map(resM.map((a) => [km.get(a.id)!, a]));
  let equal = 0;
  const prioM: number[] = [];
  const prioR: number[] = [];
  for (const r of resR) {
    const k = kr.get(r.id)!;
    const m = mineByKey.get(k);
    if (!m) continue;
    prioM.push(cpPriority(m));
    prioR.push(cpPriority(r));
    const a = pm.get(k) ?? new Set();
    const b = pr.get(k) ?? new Set();
    if (a.size === b.size && [...a].every((x) => b.has(x))) equal++;
  }
  return {
    resourceJaccard: jaccard(resM.map((a) => a.url as string), resR.map((a) => a.url as string)),
    parentsEqual: equal,
    parentsTotal: resR.length,
    edgesCommon: common,
    edgesMine: em.size,
    edgesRef: er.size,
    critJaccard: jaccard(resM.filter(isCrit).map((a) => km.get(a.id)!), resR.filter(isCrit).map((a) => kr.get(a.id)!)),
    spearman: spearman(prioM, prioR),
    matched: prioM.length,
    resourcesMine: resM.length,
    resourcesRef: resR.length,
    resourcesMatched: prioM.length,
  };
}

/** Why a reference edge is missing / an extra edge exists: a sample for debugging the rules. */
export function edgeDiff(mine: LegacyGraph, ref: LegacyGraph, opts: { mine?: KeyOptions; ref?: KeyOptions } = {}): { missing: string[]; extra: string[] } {
  const em = edgeSet(mine, contentKeys(mine, opts.mine));
  const er = edgeSet(ref, contentKeys(ref, opts.ref));
  return { missing: [...er].filter((e) => !em.has(e)), extra: [...em].filter((e) => !er.has(e)) };
}

const EVAL_TYPE: Partial<Record<GraphNode['kind'], string>> = { script_eval: 'execScript', css_eval: 'recalcStyle', timer: 'timer', event: 'fireEvent', marker: 'fireEvent' };

/**
 * A v1 graph seen through the fields the matcher keys on, read from the v1 fields themselves (not
 * through exportLegacy, so that an export defect shows as a difference between the v1 and the exported
 * figures). Parse chunks carry their 1-based `startLine` as `startRow`: compare only with another view.
 */
export function v1MatchView(g: Graph): LegacyGraph {
  const children = new Map<string, string[]>();
  for (const e of g.edges) (children.get(e.from) ?? children.set(e.from, []).get(e.from)!).push(e.to);
  const frameUrl = new Map(g.frames.map((f) => [f.id, f.url]));
  const activities = g.nodes.map((n): LegacyActivity => {
    const base = { id: n.id, children: children.get(n.id) ?? [] };
    switch (n.kind) {
      case 'resource':
        return { ...base, type: 'resource', url: n.url, cached: n.cached, sentTime: n.start / 1000, priority: { cp: n.priority.criticalPath }, iscrit: { cp: n.onCriticalPath } };
      case 'download_chunk':
        return { ...base, type: 'download_chunk' };
      case 'parse_chunk':
        return { ...base, type: 'parse_chunk', docUrl: n.docUrl, startRow: n.startLine, startColumn: n.startColumn };
      default: {
        const part = 'part' in n ? n.part : undefined;
        const url = n.kind === 'script_eval' ? (n.scriptKind === 'inline' ? '' : n.scriptUrl) : n.kind === 'css_eval' ? n.styleUrl : undefined;
        const event = n.kind === 'event' ? { name: n.eventName, targetType: n.eventTarget } : {};
        return {
          ...base,
          type: 'eval',
          evalType: EVAL_TYPE[n.kind],
          ...(url === undefined ? {} : { url }),
          ...event,
          docUrl: frameUrl.get(n.frame) ?? '',
          enclosing: part === undefined ? 'None' : n.id.replace(/_\d+$/, ''),
          startTime: n.start / 1000,
          endTime: n.end / 1000,
        };
      }
    }
  });
  return { name: g.page.url, root_activity: g.root ?? '', loadEvent: g.markers.load, DOMContentLoadedEvent: g.markers.domContentLoaded, frames: [], activities };
}

/** A content key without its occurrence/time suffix, short enough to print: kind and url/name. */
function shortKey(k: string): string {
  const [kind, what, third] = k.split('|');
  const name = kind === 'E' ? `${what}:${third}` : kind === 'D' ? `${what}|${third}` : (what ?? '');
  return `${kind}|${name.length > 70 ? `${name.slice(0, 67)}...` : name}`;
}

export interface PathDivergence {
  /** 'node' (a node of one path the other graph lacks), 'edge' (both nodes present, the edge is not), 'durations' (each path exists in the other graph: durations chose another one). */
  cause: 'node' | 'edge' | 'durations' | 'same';
  /** Which graph lacks it: 'ours' (a step of the reference's path) or 'ref' (a step of ours). */
  missingIn?: 'ours' | 'ref';
  step?: string;
}

/**
 * Why two critical paths differ: the first step of the reference's path (a node, or the edge into it)
 * that our graph lacks; else the first step of ours that the reference lacks; else both paths exist in
 * both graphs and the node durations picked another one. Paths are lists of node ids, root first.
 */
export function criticalPathDivergence(mine: LegacyGraph, minePath: string[], ref: LegacyGraph, refPath: string[], opts: { mine?: KeyOptions; ref?: KeyOptions } = {}): PathDivergence {
  const km = contentKeys(mine, opts.mine);
  const kr = contentKeys(ref, opts.ref);
  const pm = minePath.map((id) => km.get(id) ?? id);
  const pr = refPath.map((id) => kr.get(id) ?? id);
  if (pm.length === pr.length && pm.every((k, i) => k === pr[i])) return { cause: 'same' };
  const check = (path: string[], keys: Set<string>, edges: Set<string>, missingIn: 'ours' | 'ref'): PathDivergence | undefined => {
    for (let i = 0; i < path.length; i++) {
      if (!keys.has(path[i]!)) return { cause: 'node', missingIn, step: shortKey(path[i]!) };
      if (i > 0 && !edges.has(`${path[i - 1]} -> ${path[i]}`)) return { cause: 'edge', missingIn, step: `${shortKey(path[i - 1]!)} -> ${shortKey(path[i]!)}` };
    }
    return undefined;
  };
  return (
    check(pr, new Set(km.values()), edgeSet(mine, km), 'ours') ??
    check(pm, new Set(kr.values()), edgeSet(ref, kr), 'ref') ?? { cause: 'durations' }
  );
}

/** One node of a critical path and the duration (ms) its graph's analysis gave it. */
export interface PathStep {
  id: string;
  duration: number;
}

export interface DurationGaps {
  /** Steps of the reference's path that our graph has (matched by content). */
  compared: number;
  /** Those whose duration in our graph differs by more than the tolerance, largest gap first. */
  differ: { step: string; ref: number; ours: number }[];
}

/**
 * The reference's durations against ours on the reference's critical path: for each of its steps that our
 * graph has (matched by content), the duration its analysis used (the `duration` column of the reference's
 * `cp_critpath` file, which is not always what its graph file's times give) and ours (`ourDuration` by our
 * id). A step whose durations part by more than `toleranceMs` can move the path by itself.
 */
export function pathDurationGaps(mine: LegacyGraph, ourDuration: (id: string) => number | undefined, ref: LegacyGraph, refPath: PathStep[], opts: { mine?: KeyOptions; ref?: KeyOptions } = {}, toleranceMs = 1): DurationGaps {
  const km = contentKeys(mine, opts.mine);
  const kr = contentKeys(ref, opts.ref);
  const ours = new Map<string, string>();
  for (const [id, k] of km) ours.set(k, id);
  let compared = 0;
  const differ: DurationGaps['differ'] = [];
  for (const step of refPath) {
    const key = kr.get(step.id);
    const id = key === undefined ? undefined : ours.get(key);
    const d = id === undefined ? undefined : ourDuration(id);
    if (d === undefined) continue;
    compared++;
    if (Math.abs(d - step.duration) > toleranceMs) differ.push({ step: shortKey(key!), ref: step.duration, ours: d });
  }
  differ.sort((a, b) => Math.abs(b.ref - b.ours) - Math.abs(a.ref - a.ours));
  return { compared, differ };
}

/** The kind of node a content key names, as the tail table counts it: resource, parse, eval type (event name). */
function kindOfKey(k: string): string {
  const [kind, what, third] = k.split('|');
  if (kind === 'R') return 'resource';
  if (kind === 'P') return 'parse';
  if (kind === 'D') return 'download';
  if (kind === 'M') return `marker:${what}`;
  if (kind === 'E') return what === 'fireEvent' ? `event:${(third ?? '').split('/')[0]}` : (what ?? 'eval');
  return 'unmatched';
}

/**
 * The resources whose parent set differs from the reference's, classified by what differs: the kinds of
 * the parents only the reference has and only we have, and the rule of our edge (from `ruleOf`, keyed
 * "from -> to" by our ids). Returns counts per class, most frequent first.
 */
export function parentDisagreements(mine: LegacyGraph, ref: LegacyGraph, ruleOf: Map<string, string>, opts: { mine?: KeyOptions; ref?: KeyOptions } = {}): Map<string, number> {
  const km = contentKeys(mine, opts.mine);
  const kr = contentKeys(ref, opts.ref);
  const pm = parentsByKey(mine, km);
  const pr = parentsByKey(ref, kr);
  const idOfKey = new Map([...km].map(([id, k]) => [k, id]));
  const out = new Map<string, number>();
  for (const r of ref.activities) {
    if (r.type !== 'resource') continue;
    const k = kr.get(r.id)!;
    const mineId = idOfKey.get(k);
    const a = pm.get(k) ?? new Set<string>();
    const b = pr.get(k) ?? new Set<string>();
    if (mineId === undefined) {
      out.set('resource not rebuilt', (out.get('resource not rebuilt') ?? 0) + 1);
      continue;
    }
    const onlyMine = [...a].filter((x) => !b.has(x));
    const onlyRef = [...b].filter((x) => !a.has(x));
    if (!onlyMine.length && !onlyRef.length) continue;
    const kinds = (xs: string[]) => [...new Set(xs.map(kindOfKey))].sort().join('+') || '-';
    const rules = [...new Set(onlyMine.map((x) => ruleOf.get(`${idOfKey.get(x)} -> ${mineId}`) ?? '?'))].sort().join('+') || '-';
    const whole = (x: string) => x.replace(/\|part[^|]*$/, '');
    const chunkDoc = (x: string) => x.split('|').slice(0, 2).join('|');
    const one = onlyRef.length === 1 && onlyMine.length === 1;
    const how = !one ? '' : whole(onlyRef[0]!) === whole(onlyMine[0]!) ? ', same computation, another part' : kindOfKey(onlyRef[0]!) === 'parse' && chunkDoc(onlyRef[0]!) === chunkDoc(onlyMine[0]!) ? ', another chunk of the document' : kindOfKey(onlyRef[0]!) === kindOfKey(onlyMine[0]!) ? ', another one of that kind' : '';
    const cls = `ref ${kinds(onlyRef)} | ours ${kinds(onlyMine)}${how} (rule ${rules})`;
    out.set(cls, (out.get(cls) ?? 0) + 1);
  }
  return new Map([...out].sort((x, y) => y[1] - x[1]));
}
