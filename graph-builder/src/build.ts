/**
 * The pure core of `pcp build --legacy-log`: log lines -> activity model (adapters/legacy-log) -> rules
 * (rules/) -> normalisation (normalise.ts) -> acyclic v1 graph with priorities and critical path
 * (analysis/). No file I/O here: the CLI and scripts read the file (adapters/legacy-log/file.ts).
 */
import { legacyLogToActivities, legacyLogToActivitiesAsync, linesOf } from './adapters/legacy-log/index.ts';
import { timeDownloadChunks } from './chunk-times.ts';
import { DEFAULT_CHUNK_TIMES, type ChunkTiming } from './format/legacy-chunk-times.ts';
import type { Activities } from './model/types.ts';
import { assignPriorities } from './analysis/priorities.ts';
import type { Graph, GraphNavigation, GraphNode } from './format/types.ts';
import { SCHEMA_VERSION } from './format/types.ts';
import { normalise, type NormaliseOptions } from './normalise.ts';
import { applyRules, breakCycles } from './rules/index.ts';

export { LegacyLogError } from './adapters/legacy-log/reader.ts';

export const BUILDER_VERSION = '0.1.0';

export interface BuildOptions extends NormaliseOptions {
  /** Fail on the first bad line instead of skipping it with a warning. */
  strict?: boolean;
  /** Skip priorities and critical path (for benchmarks of the rule core alone). */
  skipAnalysis?: boolean;
  /**
   * Which graph priorities and the critical path are computed on: 'recorded' (default) — the whole
   * load as profiled, post-load timers included, as the original builder did (its critical paths run
   * through them); 'normalised' — without the nodes normalisation disabled (what an emulator replays).
   */
  analysisScope?: 'recorded' | 'normalised';
  /** Recorded in provenance.input. */
  input?: string;
  /**
   * How download chunks are timed (chunk-times.ts), legacy logs and traces alike: 'received' (default) —
   * by their bytes' arrival (a log's `ReceivedChunk`s, a trace's `ResourceReceivedData`), by the parser
   * where the input has none; 'parser'; 'interpolated' — by byte offset over the document's whole span, as
   * the original 2016 builder did (to reproduce its analysis: its published critical paths assume these times).
   */
  chunkTimes?: ChunkTiming;
}

export interface BuildResult {
  graph: Graph;
  warnings: string[];
}

export function buildFromLegacyLog(input: string | Iterable<string>, options: BuildOptions = {}): BuildResult {
  const warnings: string[] = [];
  const lines = typeof input === 'string' ? linesOf(input) : input;
  const acts = legacyLogToActivities(lines, warnings, { strict: options.strict ?? false });
  const graph = buildFromActivities(acts, warnings, options, 'legacy-log');
  return { graph, warnings };
}

/** The same, over lines streamed from a file or socket (see streamLegacyLogLines). */
export async function buildFromLegacyLogStream(lines: AsyncIterable<string>, options: BuildOptions = {}): Promise<BuildResult> {
  const warnings: string[] = [];
  const acts = await legacyLogToActivitiesAsync(lines, warnings, { strict: options.strict ?? false });
  const graph = buildFromActivities(acts, warnings, options, 'legacy-log');
  return { graph, warnings };
}

/**
 * The source-neutral half: any adapter's activity model -> graph, download chunks timed as
 * `options.chunkTimes` asks (chunk-times.ts) before normalisation and analysis.
 */
export function buildFromActivities(acts: Activities, warnings: string[], options: BuildOptions, source: Graph['provenance']['source']): Graph {
  const out = applyRules(acts, warnings);
  timeDownloadChunks(out.nodes, out.edges, acts.resources, options.chunkTimes ?? DEFAULT_CHUNK_TIMES);
  normalise(out.nodes, out.times, options);
  const lineOf = new Map<string, number>();
  for (const a of [...acts.resources, ...acts.computations]) if (a.sourceLine !== undefined) lineOf.set(a.id, a.sourceLine);
  const describe = (id: string): string => {
    const n = out.nodes.find((x) => x.id === id);
    const line = lineOf.get(id) ?? lineOf.get(id.replace(/_\d+$/, ''));
    return n ? `${id} (${label(n)}${line === undefined ? '' : `, line ${line}`})` : id;
  };
  const edges = breakCycles(
    out.nodes.map((n) => n.id),
    out.edges,
    warnings,
    describe,
  );
  const graph: Graph = {
    schemaVersion: SCHEMA_VERSION,
    page: { url: acts.page },
    frames: acts.frames.map((f) => ({ id: f.id, url: f.url, parent: f.parent })),
    nodes: out.nodes,
    edges,
    markers: out.markers,
    ...(out.root ? { root: out.root } : {}),
    provenance: {
      source,
      tool: 'pcp-graph-builder',
      toolVersion: BUILDER_VERSION,
      ...(acts.browserVersion ? { browserVersion: acts.browserVersion } : {}),
      ...(options.input ? { input: options.input } : {}),
    },
  };
  const navigation = navigationOf(acts);
  if (navigation) graph.navigation = navigation;
  if (acts.mainThreadTasks) graph.mainThreadTasks = acts.mainThreadTasks.map(([a, b]) => [round3(a), round3(b)]);
  if (!options.skipAnalysis) {
    const disabled = options.analysisScope === 'normalised' ? [] : graph.nodes.filter((n) => n.disabled);
    for (const n of disabled) delete n.disabled;
    assignPriorities(graph);
    for (const n of disabled) n.disabled = true;
  }
  if (warnings.length) graph.warnings = [...warnings];
  return graph;
}

const round3 = (v: number): number => Math.round(v * 1000) / 1000;

/** The recorded navigation on the graph's clock, when the adapter found the navigation's start. */
export function navigationOf(acts: Activities): GraphNavigation | undefined {
  const nav = acts.navigation;
  if (!nav) return undefined;
  const out: GraphNavigation = { navigationStartOffset: -nav.navigationStart };
  if (nav.documentRequest !== undefined) out.documentRequest = nav.documentRequest;
  if (nav.documentResponse !== undefined) out.documentResponse = nav.documentResponse;
  if (acts.domContentLoaded !== undefined) out.domContentLoaded = acts.domContentLoaded;
  if (acts.load !== undefined) out.load = acts.load;
  if (nav.loadEventStart !== undefined) out.loadEventStart = nav.loadEventStart;
  return out;
}

function label(n: GraphNode): string {
  switch (n.kind) {
    case 'resource':
      return n.url.slice(0, 80);
    case 'parse_chunk':
      return `${n.docUrl.slice(0, 60)}:${n.startLine}:${n.startColumn}`;
    case 'script_eval':
      return `script ${n.scriptUrl.slice(0, 60)}`;
    case 'event':
      return `event ${n.eventTarget}.${n.eventName}`;
    default:
      return n.kind;
  }
}
