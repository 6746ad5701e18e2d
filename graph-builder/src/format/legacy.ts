/**
 * The original PCP graph layout (as in ../shared/legacy-corpus/graphs), read and written so that graphs
 * feed the original ns-3 emulator and other downstream simulators.
 *
 * Mapping (legacy -> v1): `activities` with `children` -> nodes + edges; times in seconds from the first
 * request -> ms; parse-chunk rows (0-based) -> lines (1-based); `eval` split by `evalType` into script_eval (execScript, and the untyped 'other'),
 * css_eval (recalcStyle), timer, event (fireEvent); `mode` dom/load/end/loadplus -> phase;
 * `priority`/`iscrit` maps keyed cp, cp-plus, depth, mime-type -> `priority`/`critical` keyed
 * criticalPath, criticalPathPlus, depth, mimeType.
 *
 * Round trips are exact: on import, each node keeps in `extra.legacy` only the fields that the export
 * mapping would not reproduce from its v1 fields (a residue; `null` means "absent in the original").
 */
import type {
  Edge,
  EdgeRule,
  Frame,
  Graph,
  GraphNode,
  LoadPhase,
  NodeKind,
  ResourceNode,
  ScriptKind,
} from './types.ts';
import { SCHEMA_VERSION } from './types.ts';
import { DEFAULT_CHUNK_TIMES, timeLegacyChunks, type ChunkTiming } from './legacy-chunk-times.ts';
import { fetchOf, type LegacyRawEvidence } from './legacy-raw.ts';
import { addWrittenScripts } from './legacy-written-scripts.ts';
import { addPreloadHolds } from './legacy-preload-holds.ts';
import { requestingElement, requestTypeOf } from './legacy-request-types.ts';

export interface LegacyFrame {
  id: number;
  parent?: number;
  subframes: number[];
  url: string;
}

export interface LegacyActivity {
  id: string;
  type: 'resource' | 'download_chunk' | 'parse_chunk' | 'eval';
  children: string[];
  [key: string]: unknown;
}

export interface LegacyGraph {
  name: string;
  root_activity: string;
  loadEvent: string;
  DOMContentLoadedEvent: string;
  frames: LegacyFrame[];
  activities: LegacyActivity[];
}

export const TOOL_VERSION = '0.1.0';

const SCHEME_TO_V1: Record<string, string> = {
  cp: 'criticalPath',
  'cp-plus': 'criticalPathPlus',
  depth: 'depth',
  'mime-type': 'mimeType',
};
const SCHEME_TO_LEGACY: Record<string, string> = Object.fromEntries(Object.entries(SCHEME_TO_V1).map(([k, v]) => [v, k]));

const MODE_TO_PHASE: Record<string, LoadPhase> = { dom: 'pre-dom', load: 'pre-load', end: 'post-load', loadplus: 'post-load' };
const PHASE_TO_MODE: Record<LoadPhase, string> = { 'pre-dom': 'dom', 'pre-load': 'load', 'post-load': 'end' };

/** Keys recomputed on every export; never stored in the residue (a changed graph must win). */
const STRUCTURAL = new Set(['id', 'type', 'children']);
const TIME_KEYS = new Set(['startTime', 'endTime', 'sentTime', 'receiveTime']);

export function isLegacyGraph(data: unknown): data is LegacyGraph {
  if (typeof data !== 'object' || data === null) return false;
  const d = data as Record<string, unknown>;
  return Array.isArray(d.activities) && typeof d.root_activity === 'string';
}

const sec = (ms: number) => ms / 1000;
const ms = (s: unknown) => (typeof s === 'number' && Number.isFinite(s) ? s * 1000 : 0);
const str = (v: unknown, fallback = '') => (typeof v === 'string' ? v : v === undefined || v === null ? fallback : String(v));
const mapKeys = <T>(o: unknown, table: Record<string, string>): Record<string, T> =>
  Object.fromEntries(Object.entries((o ?? {}) as Record<string, T>).map(([k, v]) => [table[k] ?? k, v]));

/**
 * Parse-chunk positions: the legacy layout's `startRow`/`endRow` are the patched browser's 0-based rows
 * (as in the log's ObjectHash records), graph format v1's `startLine`/`endLine` are 1-based lines. Export
 * and import convert, so that a built graph exports the log's rows and a round trip is exact (a row the
 * conversion cannot represent, e.g. a negative one, survives in the import residue).
 */
export function lineOfRow(row: unknown): number {
  const n = Number(row);
  return Math.max(1, (Number.isInteger(n) ? n : 0) + 1);
}
export const rowOfLine = (line: number): number => line - 1;

/** Sub-computation part index from ids like comp_17_1 (the original builder's split naming). */
function partOf(id: string): number | undefined {
  const m = /^comp_\d+_(\d+)$/.exec(id);
  return m ? Number(m[1]) : undefined;
}

/** The computation a part belongs to: comp_17 for comp_17_1 (the original layout's `enclosing` field). */
export const enclosingOf = (id: string): string => id.replace(/_\d+$/, '');

/**
 * Whether `child` is the part of a computation that follows `parent`, its previous part (comp_N_k ->
 * comp_N_k+1): the edge a 'split' rule names. The original builder cut one logged computation of any
 * type (script, event, timer, style recalculation) at the instants it issued a child (thesis §3.5.1)
 * and chained the pieces: in the 64 reference graphs each such edge joins consecutive parts that share
 * `enclosing`, end to start to the microsecond, and one logged Computation spans the first to the last.
 * A part resumed after a nested computation has that computation, not its previous part, as parent
 * (`isResumeEdge`).
 */
export function isNextPart(parent: GraphNode, child: GraphNode): boolean {
  if (!('part' in parent) || !('part' in child) || parent.part === undefined || child.part === undefined) return false;
  return parent.kind === child.kind && child.part === parent.part + 1 && enclosingOf(parent.id) === enclosingOf(child.id);
}

const isComputationKind = (k: NodeKind): boolean => k === 'script_eval' || k === 'css_eval' || k === 'timer' || k === 'event';

/** 2 µs, in ms: the resolution to which the reference's consecutive parts meet. */
const SAME_INSTANT_MS = 0.002;

/**
 * Whether the edge `parent -> child` resumes a computation after a computation nested in it (a script
 * run inside another, a handler dispatched synchronously): `child` is a later part of a split
 * computation whose previous part is not among its parents (`parentIds`), and `parent` is a computation
 * that ended as `child` started. The 64 reference graphs hold 211 such parts, each with that one parent
 * and starting at its end to the microsecond, as every part follows its previous one (3,361 edges): the
 * same task going on, which the raw-log builder names 'split' too (rules/split.ts) and the emulator runs
 * as a continuation.
 */
export function isResumeEdge(parent: GraphNode, child: GraphNode, parentIds: readonly string[]): boolean {
  if (!('part' in child) || !child.part || !isComputationKind(parent.kind) || Math.abs(child.start - parent.end) > SAME_INSTANT_MS) return false;
  const previous = `${enclosingOf(child.id)}_${child.part - 1}`;
  return enclosingOf(parent.id) !== enclosingOf(child.id) && !parentIds.includes(previous);
}

function scriptKindOf(a: LegacyActivity): ScriptKind {
  return str(a.url) === '' ? 'inline' : 'sync';
}

/** A legacy activity -> its v1 node, before the residue is attached. */
function nodeFromLegacy(a: LegacyActivity, frameOf: (a: LegacyActivity) => string): GraphNode {
  const frame = frameOf(a);
  switch (a.type) {
    case 'resource': {
      const start = ms(a.sentTime);
      const node: ResourceNode = {
        id: a.id,
        kind: 'resource',
        frame,
        start,
        // Some reference resources (cache hits) record receiveTime a little before sentTime: clamp,
        // the exact original survives in the residue.
        end: a.receiveTime === undefined ? start : Math.max(start, ms(a.receiveTime)),
        url: str(a.url),
        mimeType: str(a.mimeType),
        size: typeof a.size === 'number' ? a.size : 0,
        method: str(a.httpMethod, 'GET'),
        status: 0,
        cached: a.cached === true,
        priority: { mimeType: 0, criticalPath: 0, ...mapKeys<number>(a.priority, SCHEME_TO_V1) },
        onCriticalPath: (a.iscrit as Record<string, boolean> | undefined)?.cp === true,
        critical: mapKeys<boolean>(a.iscrit, SCHEME_TO_V1),
      };
      // A memory-cache reuse names the network fetch it reuses (the builder's extra.originalResource).
      if (typeof a.originalResource === 'string') node.extra = { originalResource: a.originalResource };
      return node;
    }
    case 'download_chunk':
      return {
        id: a.id,
        kind: 'download_chunk',
        frame,
        start: 0,
        end: 0,
        resource: str(a.resource),
        index: 0,
        offset: typeof a.offset === 'number' ? a.offset : 0,
        size: typeof a.size === 'number' ? a.size : 0,
      };
    case 'parse_chunk':
      return {
        id: a.id,
        kind: 'parse_chunk',
        frame,
        start: ms(a.startTime),
        end: ms(a.endTime),
        docUrl: str(a.docUrl),
        startLine: lineOfRow(a.startRow),
        startColumn: Math.max(0, Number(a.startColumn) || 0),
        endLine: lineOfRow(a.endRow),
        endColumn: Math.max(0, Number(a.endColumn) || 0),
        startTag: str(a.startTag),
        endTag: str(a.endTag),
        isFragment: a.isFragment === true,
      };
    case 'eval': {
      const base = {
        id: a.id,
        frame,
        start: ms(a.startTime),
        end: ms(a.endTime),
        phase: MODE_TO_PHASE[str(a.mode)] ?? 'pre-dom',
      };
      const part = partOf(a.id);
      const withPart = part === undefined ? {} : { part };
      switch (a.evalType) {
        case 'recalcStyle':
          return { ...base, ...withPart, kind: 'css_eval', styleUrl: str(a.url) || str(a.docUrl) };
        case 'timer':
          return {
            ...base,
            ...withPart,
            kind: 'timer',
            timerId: str(a.enclosing) !== 'None' ? str(a.enclosing) : a.id,
            timerDelay: typeof a.timeout === 'number' ? Math.max(0, a.timeout) : 0,
          };
        case 'fireEvent':
          return { ...base, ...withPart, kind: 'event', eventName: str(a.name), eventTarget: str(a.targetType) };
        default: // execScript, and 'other' (an untyped computation the patched browser logged)
          return { ...base, ...withPart, kind: 'script_eval', scriptUrl: str(a.url) || str(a.docUrl), scriptKind: scriptKindOf(a) };
      }
    }
    default:
      throw new Error(`activity ${a.id} has unknown type '${String(a.type)}'`);
  }
}

/**
 * Table 3.1 rule implied by the kinds at both ends of an edge, where the kinds alone decide it;
 * 'split' from one part of a computation to the next (`isNextPart`). Legacy graphs do not record rules,
 * so ambiguous pairs are named 'legacy'.
 */
export function inferRule(parent: GraphNode, child: GraphNode): EdgeRule {
  if (isNextPart(parent, child)) return 'split';
  const p: NodeKind = parent.kind;
  const c: NodeKind = child.kind;
  if (c === 'resource') return p === 'parse_chunk' ? 1 : isComputationKind(p) ? 2 : 'legacy';
  if (c === 'download_chunk') {
    if (p === 'download_chunk') return 9;
    if (p === 'resource') return 'resource-chunk';
    return ({ parse_chunk: 5, script_eval: 6, event: 7, timer: 8 } as Partial<Record<NodeKind, number>>)[p] ?? 'legacy';
  }
  if (c === 'parse_chunk') return p === 'script_eval' ? 4 : p === 'parse_chunk' || p === 'download_chunk' ? 3 : 'legacy';
  if (c === 'script_eval') return ({ resource: 10, parse_chunk: 12, script_eval: 14, event: 15, timer: 16 } as Partial<Record<NodeKind, number>>)[p] ?? 'legacy';
  if (c === 'css_eval') return p === 'resource' ? 18 : 'legacy';
  if (c === 'timer') return ({ script_eval: 19, event: 20, timer: 21 } as Partial<Record<NodeKind, number>>)[p] ?? 'legacy';
  if (c === 'event') return 25;
  return 'legacy';
}

function sameValue(a: unknown, b: unknown, key: string): boolean {
  if (TIME_KEYS.has(key) && typeof a === 'number' && typeof b === 'number') return Math.abs(a - b) < 1e-9;
  return JSON.stringify(a) === JSON.stringify(b);
}

export interface ImportOptions {
  input?: string;
  /**
   * The reference graph's raw log (legacy-raw.ts): request types from the elements that requested the
   * resources (`requestType`, `extra.requestElement`), download chunks timed by their bytes' arrival,
   * each document's `<body>` start tag on its first parse chunk (`extra.bodyStart`), the preloads the
   * 2016 renderer held before sending (`extra.preloadHold`, legacy-preload-holds.ts).
   */
  raw?: LegacyRawEvidence;
  /** How download chunks are timed (legacy-chunk-times.ts; default `DEFAULT_CHUNK_TIMES`). */
  chunkTimes?: ChunkTiming;
}

export function importLegacy(lg: LegacyGraph, options: ImportOptions = {}): Graph {
  const frames: Frame[] = lg.frames.map((f) => ({
    id: String(f.id),
    url: str(f.url),
    parent: f.parent === undefined || f.parent === null ? null : String(f.parent),
  }));
  const mainFrame = frames.find((f) => f.parent === null)?.id ?? frames[0]?.id ?? '0';
  const byId = new Map(lg.activities.map((a) => [a.id, a]));

  // Resources and download chunks carry no frame in the legacy layout: take it from a parent that has one,
  // else from the document chunk naming (dchunk_<frame>_<n>), else the main frame.
  const parentsOf = new Map<string, string[]>();
  for (const a of lg.activities) for (const c of a.children ?? []) (parentsOf.get(c) ?? parentsOf.set(c, []).get(c)!).push(a.id);
  const frameCache = new Map<string, string>();
  const frameOf = (a: LegacyActivity, depth = 0): string => {
    const cached = frameCache.get(a.id);
    if (cached !== undefined) return cached;
    let f: string | undefined;
    if (a.frame !== undefined && a.frame !== null) f = String(a.frame);
    else if (a.type === 'download_chunk') f = /^dchunk_(\d+)_/.exec(a.id)?.[1];
    else if (a.type === 'resource') {
      const chunk = (a.children ?? []).map((c) => byId.get(c)).find((c) => c?.type === 'download_chunk');
      if (chunk) f = /^dchunk_(\d+)_/.exec(chunk.id)?.[1];
      if (f === undefined && depth < 4) {
        const p = (parentsOf.get(a.id) ?? []).map((id) => byId.get(id)).find((x) => x !== undefined);
        if (p) f = frameOf(p, depth + 1);
      }
    }
    if (f === undefined || !frames.some((fr) => fr.id === f)) f = mainFrame;
    frameCache.set(a.id, f);
    return f;
  };

  const nodes: GraphNode[] = [];
  const chunkIndex = new Map<string, number>();
  for (const a of lg.activities) {
    const node = nodeFromLegacy(a, frameOf);
    if (node.kind === 'download_chunk') {
      const i = chunkIndex.get(node.resource) ?? 0;
      chunkIndex.set(node.resource, i + 1);
      node.index = i;
    }
    nodes.push(node);
  }
  const nodeById = new Map(nodes.map((n) => [n.id, n]));
  const raw = options.raw;
  if (raw) addRequestTypes(nodes, raw);
  if (raw) addBodyStarts(nodes, raw);
  if (raw?.writtenScripts) addWrittenScripts(nodes, raw.writtenScripts);
  if (raw) addPreloadHolds(nodes, raw);
  timeLegacyChunks(
    nodes,
    options.chunkTimes ?? DEFAULT_CHUNK_TIMES,
    (r) => (raw ? fetchOf(raw, r.url, r.start)?.arrivals : undefined),
    (d) => {
      const parsed = (byId.get(d.id)?.children ?? []).map((c) => nodeById.get(c)).filter((n) => n?.kind === 'parse_chunk').map((n) => n!.start);
      return parsed.length ? Math.min(...parsed) : undefined;
    },
  );

  const frameNum = legacyFrameNumbers(frames);
  for (const node of nodes) {
    const original = byId.get(node.id)!;
    const derived = legacyActivity(node, [], frameNum, frames);
    const residue: Record<string, unknown> = {};
    for (const key of new Set([...Object.keys(original), ...Object.keys(derived)])) {
      if (STRUCTURAL.has(key)) continue;
      if (!(key in original)) residue[key] = null;
      else if (!sameValue(original[key], derived[key], key)) residue[key] = original[key];
    }
    if (Object.keys(residue).length) node.extra = { ...node.extra, legacy: residue };
  }

  const edges: Edge[] = [];
  const warnings: string[] = [];
  for (const a of lg.activities) {
    for (const c of a.children ?? []) {
      const from = nodeById.get(a.id)!;
      const to = nodeById.get(c);
      if (!to) {
        warnings.push(`activity ${a.id} names unknown child ${c}; edge dropped`);
        continue;
      }
      edges.push({ from: a.id, to: c, rule: isResumeEdge(from, to, parentsOf.get(c) ?? []) ? 'split' : inferRule(from, to) });
    }
  }

  const graph: Graph = {
    schemaVersion: SCHEMA_VERSION,
    page: { url: lg.name },
    frames,
    nodes,
    edges,
    markers: { domContentLoaded: lg.DOMContentLoadedEvent, load: lg.loadEvent },
    root: lg.root_activity,
    provenance: { source: 'legacy-graph', tool: 'pcp import', toolVersion: TOOL_VERSION, ...(options.input ? { input: options.input } : {}) },
  };
  if (warnings.length) graph.warnings = warnings;
  return graph;
}

/** Each resource's request type from the element that requested it in the raw log, where the graph has none. */
function addRequestTypes(nodes: GraphNode[], raw: LegacyRawEvidence): void {
  for (const n of nodes) {
    if (n.kind !== 'resource' || n.requestType !== undefined) continue;
    const element = requestingElement(raw, n.url, n.cached ? undefined : fetchOf(raw, n.url, n.start));
    if (!element) continue;
    const type = requestTypeOf(element);
    if (type) n.requestType = type;
    n.extra = { ...n.extra, requestElement: element.name };
  }
}

/**
 * Where each document's `<body>` start tag was in the raw log (legacy-raw.ts `bodyStartOf`), on the
 * document's first parse chunk as `extra.bodyStart` ({ line: 1-based, column }, graph format v1's
 * positions): the synthesizer writes its `<body>` tag there.
 */
function addBodyStarts(nodes: GraphNode[], raw: LegacyRawEvidence): void {
  const done = new Set<string>();
  for (const n of nodes) {
    if (n.kind !== 'parse_chunk' || done.has(n.docUrl)) continue;
    done.add(n.docUrl);
    const at = raw.bodyStarts.get(n.docUrl);
    if (at) n.extra = { ...n.extra, bodyStart: { line: lineOfRow(at.row), column: at.column } };
  }
}

/** Legacy frame ids are numbers: keep numeric v1 ids, number the others by position. */
function legacyFrameNumbers(frames: Frame[]): Map<string, number> {
  const numeric = frames.every((f) => /^\d+$/.test(f.id));
  return new Map(frames.map((f, i) => [f.id, numeric ? Number(f.id) : i]));
}

/** A v1 node -> the legacy activity (without residue), as the original builder would have written it. */
function legacyActivity(node: GraphNode, children: string[], frameNum: Map<string, number>, frames: Frame[]): LegacyActivity {
  const frame = frameNum.get(node.frame) ?? 0;
  const docUrl = frames.find((f) => f.id === node.frame)?.url ?? '';
  switch (node.kind) {
    case 'resource': {
      const out: LegacyActivity = {
        id: node.id,
        type: 'resource',
        children,
        cached: node.cached,
        httpMethod: node.method,
        iscrit: { cp: node.onCriticalPath, 'cp-plus': node.onCriticalPath, ...mapKeys<boolean>(node.critical, SCHEME_TO_LEGACY) },
        mimeType: node.mimeType,
        priority: { 'cp-plus': node.priority.criticalPath, ...mapKeys<number>(node.priority, SCHEME_TO_LEGACY) },
        receiveTime: sec(node.end),
        sentTime: sec(node.start),
        size: node.size,
        url: node.url,
      };
      const original = node.extra?.originalResource;
      if (typeof original === 'string') out.originalResource = original;
      return out;
    }
    case 'download_chunk':
      return { id: node.id, type: 'download_chunk', children, offset: node.offset, resource: node.resource, size: node.size };
    case 'parse_chunk': {
      // Columns the builder clamped to 0 (negative in document.write fragments of 2016 logs) go back as logged.
      const src = (node.extra ?? {}) as { sourceStartColumn?: number; sourceEndColumn?: number };
      return {
        id: node.id,
        type: 'parse_chunk',
        children,
        docUrl: node.docUrl,
        endColumn: src.sourceEndColumn ?? node.endColumn,
        endRow: rowOfLine(node.endLine),
        endTag: node.endTag ?? '',
        endTime: sec(node.end),
        frame,
        isFragment: node.isFragment ?? false,
        startColumn: src.sourceStartColumn ?? node.startColumn,
        startRow: rowOfLine(node.startLine),
        startTag: node.startTag ?? '',
        startTime: sec(node.start),
      };
    }
    default: {
      const part = 'part' in node ? node.part : undefined;
      const enclosing = part === undefined ? 'None' : enclosingOf(node.id);
      const out: LegacyActivity = {
        id: node.id,
        type: 'eval',
        children,
        blocking: 1,
        docUrl,
        enclosing,
        endTime: sec(node.end),
        evalType: 'execScript',
        frame,
        mode: PHASE_TO_MODE[node.phase ?? 'pre-dom'],
        startTime: sec(node.start),
        subtree: part === undefined ? 'None' : `subtree_${enclosing}`,
      };
      if (node.kind === 'script_eval') out.url = node.scriptKind === 'inline' ? '' : node.scriptUrl;
      else if (node.kind === 'css_eval') Object.assign(out, { evalType: 'recalcStyle', blocking: 4, url: node.styleUrl });
      else if (node.kind === 'timer') Object.assign(out, { evalType: 'timer', timeout: node.timerDelay });
      else if (node.kind === 'event') Object.assign(out, { evalType: 'fireEvent', name: node.eventName, targetType: node.eventTarget });
      else if (node.kind === 'marker') {
        const dcl = node.markerName === 'domContentLoaded';
        Object.assign(out, { evalType: 'fireEvent', name: dcl ? 'DOMContentLoaded' : node.markerName, targetType: dcl ? 'Document' : 'Window' });
      }
      return out;
    }
  }
}

export function exportLegacy(graph: Graph): LegacyGraph {
  const frameNum = legacyFrameNumbers(graph.frames);
  const children = new Map<string, string[]>();
  for (const e of graph.edges) (children.get(e.from) ?? children.set(e.from, []).get(e.from)!).push(e.to);
  const activities = graph.nodes.map((node) => {
    const out = legacyActivity(node, children.get(node.id) ?? [], frameNum, graph.frames);
    const residue = (node.extra?.legacy ?? {}) as Record<string, unknown>;
    for (const [k, v] of Object.entries(residue)) {
      if (STRUCTURAL.has(k)) continue;
      if (v === null) delete out[k];
      else out[k] = v;
    }
    return out;
  });
  const frames: LegacyFrame[] = graph.frames.map((f) => {
    const out: LegacyFrame = {
      id: frameNum.get(f.id) ?? 0,
      subframes: graph.frames.filter((s) => s.parent === f.id).map((s) => frameNum.get(s.id) ?? 0),
      url: f.url,
    };
    if (f.parent !== null) out.parent = frameNum.get(f.parent) ?? 0;
    return out;
  });
  const hasParent = new Set(graph.edges.map((e) => e.to));
  return {
    name: graph.page.url,
    root_activity: graph.root ?? graph.nodes.find((n) => !hasParent.has(n.id))?.id ?? '',
    loadEvent: graph.markers.load,
    DOMContentLoadedEvent: graph.markers.domContentLoaded,
    frames,
    activities,
  };
}
