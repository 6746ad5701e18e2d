import { parse, str, flag, CliError, UsageError, type Command, type Parsed } from '../kit.ts';

/**
 * `pcp build`: input -> graph format v1. The input kind decides the builder (see `inputKind`); each
 * builder is a function from the parsed options to `{ graph, warnings }`, so a new input (profiler
 * bundles: `pcp build BUNDLE_DIR`) is one more entry in BUILDERS.
 */
type InputKind = 'legacy-log';

interface Built {
  graph: unknown;
  warnings: string[];
  inputBytes: number;
}

const BUILDERS: Record<InputKind, (p: Parsed, input: string) => Promise<Built>> = {
  'legacy-log': async (p, input) => {
    const { readLegacyLogFile } = await import('@pcp/graph-builder/adapters/legacy-log/file.ts');
    const { buildFromLegacyLog, LegacyLogError } = await import('@pcp/graph-builder/build.ts');
    let log;
    try {
      log = readLegacyLogFile(input);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      throw new CliError(`${input}: ${code === 'ENOENT' ? 'no such file' : (e as Error).message}`);
    }
    try {
      const { graph, warnings } = buildFromLegacyLog(log.text, { strict: flag(p, 'strict'), input, analysisScope: analysisScope(p) });
      return { graph, warnings: [...log.warnings, ...warnings], inputBytes: log.bytes };
    } catch (e) {
      if (e instanceof LegacyLogError) throw new CliError(`${input}: ${e.message}`);
      throw e;
    }
  },
};

function analysisScope(p: Parsed): 'recorded' | 'normalised' {
  const v = str(p, 'analysis') ?? 'recorded';
  if (v !== 'recorded' && v !== 'normalised') throw new UsageError(`--analysis expects recorded or normalised, got '${v}'`);
  return v;
}

function inputKind(p: Parsed): { kind: InputKind; input: string } {
  const legacy = str(p, 'legacy-log');
  if (legacy !== undefined) {
    if (p.positionals.length) throw new UsageError('give either --legacy-log FILE or an input path, not both');
    return { kind: 'legacy-log', input: legacy };
  }
  if (p.positionals.length) throw new UsageError(`unsupported input '${p.positionals[0]}': only --legacy-log FILE is supported so far`);
  throw new UsageError('an input is required: --legacy-log FILE[.gz]');
}

export const command: Command = {
  name: 'build',
  summary: 'build a dependency graph (format v1) from a browser log',
  usage: `
usage: pcp build --legacy-log FILE[.gz] --out GRAPH.json [--strict] [--warnings] [--analysis recorded|normalised]

Builds the page-load dependency graph (thesis ch. 3: Table 3.1 rules, Appendix A event parents, frame
completion chain, sub-computation split, §3.7.4 normalisation), with MIME-type and critical-path
priorities and the critical path, and writes it in graph format v1 after validating it against the schema.

inputs:
  --legacy-log FILE   a patched-Chromium (2016 PCP/WProf) log, one JSON record per line, plain or gzip;
                      bad lines are skipped with a warning naming the line, a truncated gzip keeps what
                      could be read.

options:
  --out GRAPH.json    where to write the graph (.json.gz to gzip it); required
  --strict            fail on the first bad line instead of skipping it
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
    });
    const { kind, input } = inputKind(p);
    const out = str(p, 'out');
    if (!out) throw new UsageError('--out GRAPH.json is required');
    const built = await BUILDERS[kind](p, input);
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
