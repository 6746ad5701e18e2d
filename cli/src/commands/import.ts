import { legacyFormatArgs, CliError, type Command } from '../kit.ts';

export const command: Command = {
  name: 'import',
  summary: 'read a graph in another layout (--format legacy) and write graph format v1',
  usage: `
usage: pcp import --format legacy LEGACY_GRAPH --out FILE

Reads a graph in the original PCP layout (as in ../shared/legacy-corpus/graphs, .json or .json.gz) and
writes it as graph format v1, validated against graph-builder/schema/graph-v1.schema.json. Fields v1
has no place for are kept under each node's extra.legacy, so \`pcp export --format legacy\` gives the
original back. FILE ending in .gz is gzipped. A graph in the corpus layout (graphs/SLUG.json.gz with
raw/SLUG.log.gz beside, as in ../shared/legacy-corpus) is imported with its raw 2016 log: resources get the
request type of the element that requested them, download chunks the times their bytes arrived; without
a log, chunks end when the parser began the chunk they feed (graph-builder/src/format/legacy-chunk-times.ts).

options:
  --format legacy   the only import layout for now
  --out FILE        where to write (written atomically)
  -h, --help
`,
  async run(args) {
    const { file, out } = legacyFormatArgs(args);
    const { readJsonFile, isLegacyGraph, importLegacy, assertValidGraph, writeJsonFile, legacyRawLogOf, readLegacyRawEvidence } = await import('@pcp/graph-builder');
    const data = readJsonFile(file);
    if (!isLegacyGraph(data)) throw new CliError(`${file}: not a graph in the original PCP layout (no "activities"/"root_activity")`);
    const log = legacyRawLogOf(file);
    const graph = assertValidGraph(importLegacy(data, { input: file, ...(log ? { raw: readLegacyRawEvidence(log) } : {}) }), file);
    if (log) console.error(`with its raw log ${log}`);
    writeJsonFile(out, graph);
    console.error(`wrote ${out}: ${graph.nodes.length} nodes, ${graph.edges.length} edges${graph.warnings?.length ? `, ${graph.warnings.length} warnings` : ''}`);
    return 0;
  },
};
