import { legacyFormatArgs, CliError, type Command } from '../kit.ts';

export const command: Command = {
  name: 'import',
  summary: 'read a graph in another layout (--format legacy) and write graph format v1',
  usage: `
usage: pcp import --format legacy LEGACY_GRAPH --out FILE

Reads a graph in the original PCP layout (as in ../shared/legacy-corpus/graphs, .json or .json.gz) and
writes it as graph format v1, validated against graph-builder/schema/graph-v1.schema.json. Fields v1
has no place for are kept under each node's extra.legacy, so \`pcp export --format legacy\` gives the
original back. FILE ending in .gz is gzipped.

options:
  --format legacy   the only import layout for now
  --out FILE        where to write (written atomically)
  -h, --help
`,
  async run(args) {
    const { file, out } = legacyFormatArgs(args);
    const { readJsonFile, isLegacyGraph, importLegacy, assertValidGraph, writeJsonFile } = await import('@pcp/graph-builder');
    const data = readJsonFile(file);
    if (!isLegacyGraph(data)) throw new CliError(`${file}: not a graph in the original PCP layout (no "activities"/"root_activity")`);
    const graph = assertValidGraph(importLegacy(data, { input: file }), file);
    writeJsonFile(out, graph);
    console.error(`wrote ${out}: ${graph.nodes.length} nodes, ${graph.edges.length} edges${graph.warnings?.length ? `, ${graph.warnings.length} warnings` : ''}`);
    return 0;
  },
};
