import { legacyFormatArgs, type Command } from '../kit.ts';

export const command: Command = {
  name: 'export',
  summary: 'write a graph in another layout (--format legacy: the original PCP JSON)',
  usage: `
usage: pcp export --format legacy GRAPH --out FILE

Writes GRAPH (format v1, .json or .json.gz) in the original PCP layout ("activities" with "children",
"root_activity", "loadEvent", "DOMContentLoadedEvent", "frames", resource "priority"/"iscrit" maps keyed
cp, cp-plus, depth, mime-type; times in seconds), which the original ns-3 emulator and other downstream
simulators read. FILE ending in .gz is gzipped.

options:
  --format legacy   the only export layout for now
  --out FILE        where to write (written atomically)
  -h, --help
`,
  async run(args) {
    const { file, out } = legacyFormatArgs(args);
    const { loadGraph, exportLegacy, writeJsonFile } = await import('@pcp/graph-builder');
    writeJsonFile(out, exportLegacy(loadGraph(file)));
    console.error(`wrote ${out}`);
    return 0;
  },
};
