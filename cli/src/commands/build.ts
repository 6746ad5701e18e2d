import type { ChunkTiming } from '@pcp/graph-builder';
import { ConfigError, oneOf } from '@pcp/emulator/config';
import { asUsageError, parse, str, flag, sourceError, CliError, UsageError, type Command, type Parsed } from '../kit.ts';

/**
 * `pcp build`: input -> graph format v1. The input kind decides the builder (see `inputKind`); each
 * builder is a function from the parsed options to `{ graph, warnings }`, so a new input (profiler
 * bundles: `pcp build BUNDLE_DIR`) is one more entry in BUILDERS.
 */
type InputKind = 'legacy-log' | 'trace';

interface Built {
  graph: unknown;
  warnings: string[];
  inputBytes: number;
}

const BUILDERS: Record<InputKind, (p: Parsed, input: string) => Promise<Built>> = {
  trace: buildTrace,
  'legacy-log': async (p, input) => {
    const { readLegacyLogFile, buildFromLegacyLog, LegacyLogError } = await import('@pcp/graph-builder');
    const timing = await chunkTimes(p);
    let log;
    try {
      log = readLegacyLogFile(input);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      throw new CliError(`${input}: ${code === 'ENOENT' ? 'no such file' : (e as Error).message}`);
    }
    try {
      const { graph, warnings } = buildFromLegacyLog(log.text, { strict: flag(p, 'strict'), input, analysisScope: analysisScope(p), chunkTimes: timing });
      return { graph, warnings: [...log.warnings, ...warnings], inputBytes: log.bytes };
    } catch (e) {
      if (e instanceof LegacyLogError) throw sourceError(input, e);
      throw e;
    }
  },
};

/** A profiler bundle directory, or a single trace JSON file (e.g. saved by the DevTools Performance panel). */
async function buildTrace(p: Parsed, input: string): Promise<Built> {
  const { buildFromTrace } = await import('@pcp/graph-builder');
  const timing = await chunkTimes(p);
  const { statSync } = await import('node:fs');
  const { join } = await import('node:path');
  const { findBundleFile, TRACE_NAMES } = await import('@pcp/profiler/bundle');
  let bytes: number;
  try {
    const st = statSync(input);
    const trace = st.isDirectory() ? findBundleFile(input, TRACE_NAMES) : undefined;
    bytes = st.isDirectory() ? (trace ? statSync(join(input, trace)).size : 0) : st.size;
  } catch {
    throw new CliError(`${input}: no such file or directory`);
  }
  try {
    const { graph, warnings } = buildFromTrace(input, { input, analysisScope: analysisScope(p), chunkTimes: timing });
    return { graph, warnings, inputBytes: bytes };
  } catch (e) {
    throw sourceError(input, e);
  }
}

/**
 * Server delays (thesis §3.4.1) into the graph's resources: from --server-delays FILE (records of
 * `pcp delays`), else measured from the bundle's capture.pcap when there is one. A failure here costs
 * the annotation, never the graph: it becomes a warning.
 */
async function addServerDelays(p: Parsed, kind: InputKind, input: string, built: Built): Promise<void> {
  const { existsSync } = await import('node:fs');
  const { join } = await import('node:path');
  const { BUNDLE_FILES } = await import('@pcp/profiler/bundle');
  const { measureServerDelays, mergeServerDelays, readJsonFile } = await import('@pcp/graph-builder');
  const file = str(p, 'server-delays');
  let records: unknown;
  if (file === undefined) {
    const pcap = join(input, BUNDLE_FILES.pcap);
    if (kind !== 'trace' || flag(p, 'no-server-delays') || !existsSync(pcap)) return;
    try {
      records = await measureServerDelays(input);
    } catch (e) {
      built.warnings.push(`server delays not measured from ${pcap}: ${(e as Error).message}`);
      return;
    }
  } else {
    records = readJsonFile(file);
  }
  const list = Array.isArray(records) ? records : (records as { records?: unknown }).records;
  if (!Array.isArray(list)) throw new CliError(`${file ?? input}: expected a list of server-delay records`);
  const merged = mergeServerDelays(built.graph as Parameters<typeof mergeServerDelays>[0], list as Parameters<typeof mergeServerDelays>[1]);
  built.graph = merged.graph;
  built.warnings.push(
    `server delays: ${merged.matched} resources annotated${merged.unmatched.length ? `, ${merged.unmatched.length} records unmatched` : ''}` +
      (merged.clamped ? `, ${merged.clamped} longer than their recorded exchange clamped to it` : ''),
  );
}

/** The value of option `name`, one of `values` (the first when absent), by the emulator's oneOf. */
function choice<T extends string>(p: Parsed, name: string, values: readonly T[]): T {
  return asUsageError(ConfigError, () => oneOf(name, str(p, name) ?? values[0]!, values));
}

function analysisScope(p: Parsed): 'recorded' | 'normalised' {
  return choice(p, 'analysis', ['recorded', 'normalised'] as const);
}

/** --chunk-times (legacy logs and traces); the builder's default first. */
async function chunkTimes(p: Parsed): Promise<ChunkTiming> {
  const { CHUNK_TIMINGS, DEFAULT_CHUNK_TIMES } = await import('@pcp/graph-builder');
  return choice(p, 'chunk-times', [DEFAULT_CHUNK_TIMES, ...CHUNK_TIMINGS.filter((t) => t !== DEFAULT_CHUNK_TIMES)]);
}

function inputKind(p: Parsed): { kind: InputKind; input: string } {
  const legacy = str(p, 'legacy-log');
  if (legacy !== undefined) {
    if (p.positionals.length) throw new UsageError('give either --legacy-log FILE or an input path, not both');
    return { kind: 'legacy-log', input: legacy };
  }
  if (p.positionals.length > 1) throw new UsageError('give one input: a bundle directory or a trace file');
  if (p.positionals.length === 1) return { kind: 'trace', input: p.positionals[0]! };
  throw new UsageError('an input is required: BUNDLE_DIR, TRACE.json[.gz] or --legacy-log FILE[.gz]');
}

export const command: Command = {
  name: 'build',
  summary: 'build a dependency graph (format v1) from a browser log',
  usage: `
usage: pcp build BUNDLE_DIR --out GRAPH.json [--server-delays FILE | --no-server-delays] [options]
       pcp build TRACE.json[.gz] --out GRAPH.json [--chunk-times T] [options]
       pcp build --legacy-log FILE[.gz] --out GRAPH.json [--strict] [--chunk-times T] [options]

Builds the page-load dependency graph (thesis ch. 3: Table 3.1 rules, Appendix A event parents, frame
completion chain, sub-computation split, §3.7.4 normalisation), with MIME-type and critical-path
priorities and the critical path, and writes it in graph format v1 after validating it against the schema.

inputs:
  BUNDLE_DIR          a bundle written by \`pcp profile\` (trace.json.gz, devtools.log.json, frames.json,
                      documents.json, listeners.json, meta.json, and capture.pcap when profiled with
                      --pcap; every file: profiler/BUNDLE.md)
  TRACE.json[.gz]     a single Chrome trace, e.g. saved by the DevTools Performance panel (what it lacks,
                      such as the network log, is reported as warnings)
  --legacy-log FILE   a patched-Chromium (2016 PCP/WProf) log, one JSON record per line, plain or gzip;
                      bad lines are skipped with a warning naming the line, a truncated gzip keeps what
                      could be read.

options:
  --out GRAPH.json    where to write the graph (.json.gz to gzip it); required
  --server-delays F   annotate resources with server delays from F (the JSON of \`pcp delays\`); by
                      default they are measured from the bundle's capture.pcap when it has one
  --no-server-delays  do not measure server delays from the bundle's capture
  --strict            fail on the first bad line instead of skipping it
  --chunk-times T     how a document's download chunks are timed. 'received' (default): each spans from
                      the arrival of the chunk before's last byte (the first: of its own first byte) to
                      that of its own last byte (an empty chunk: the byte before it), from a log's
                      ReceivedChunk records or a trace's ResourceReceivedData events (a document
                      without them: the parser's times,
                      chunk n ends when parse chunk n began); 'parser': the parser's times for every
                      document; 'interpolated':
                      a share of the document's whole span by byte offset (DNS, connection and first
                      byte included), as the original 2016 builder timed them: use it to reproduce that
                      analysis (its published critical paths assume these times). Each chunk records
                      its timing in extra.chunkTimes (graph-builder/README.md)
  --analysis SCOPE    compute priorities and the critical path on the 'recorded' load (default, as the
                      original PCP: post-load timers included) or the 'normalised' one (post-load
                      timers disabled, what the emulator replays)
  --warnings          print every warning (default: the count and the first five)
  -h, --help
`,
  async run(args) {
    const p = parse(args, {
      'legacy-log': { type: 'string' },
      out: { type: 'string' },
      strict: { type: 'boolean' },
      warnings: { type: 'boolean' },
      analysis: { type: 'string' },
      'server-delays': { type: 'string' },
      'no-server-delays': { type: 'boolean' },
      'chunk-times': { type: 'string' },
    });
    const { kind, input } = inputKind(p);
    const out = str(p, 'out');
    if (!out) throw new UsageError('--out GRAPH.json is required');
    const built = await BUILDERS[kind](p, input);
    await addServerDelays(p, kind, input, built);
    const { validateGraph, writeJsonFile } = await import('@pcp/graph-builder');
    const v = validateGraph(built.graph);
    if (!v.ok) throw new CliError(`the built graph does not match graph format v1: ${v.errors.slice(0, 3).join('; ')}`);
    writeJsonFile(out, built.graph);
    const g = built.graph as { nodes: unknown[]; edges: unknown[]; criticalPath?: { length: number } };
    const w = built.warnings;
    process.stderr.write(
      `${out}: ${g.nodes.length} nodes, ${g.edges.length} edges, critical path ${(g.criticalPath?.length ?? 0).toFixed(1)} ms; ${w.length} warning(s)\n`,
    );
    for (const line of flag(p, 'warnings') ? w : w.slice(0, 5)) process.stderr.write(`  warning: ${line}\n`);
    if (!flag(p, 'warnings') && w.length > 5) process.stderr.write(`  ... ${w.length - 5} more (--warnings to list them)\n`);
    return 0;
  },
};
