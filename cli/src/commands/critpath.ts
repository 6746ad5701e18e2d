import { parse, flag, CliError, type Command } from '../kit.ts';

export const command: Command = {
  name: 'critpath',
  summary: 'print the critical path of a graph (node, kind, duration, remaining length)',
  usage: `
usage: pcp critpath GRAPH [--json]

Prints the critical path of GRAPH (graph format v1 or the original PCP layout, .json or .json.gz):
the longest path through the dependency graph by total node duration (thesis §3.5.3.2, weights as in
Algorithm 1), from the page's root. Disabled (normalised-away) nodes are left out.

Columns: node id, kind, duration (ms), remaining length of the path from this node (ms), and the
resource url or script/style url when the node has one.

options:
  --json    print {"length": ms, "nodes": [{id, kind, duration, remaining, url?}]} instead of a table
  -h, --help
`,
  async run(args) {
    const p = parse(args, { json: { type: 'boolean' } });
    const [file, ...extra] = p.positionals;
    if (!file || extra.length) throw new CliError('expected exactly one graph file');
    const { loadGraph, criticalPath } = await import('@pcp/graph-builder');
    const graph = loadGraph(file);
    const cp = criticalPath(graph);
    const byId = new Map(graph.nodes.map((n) => [n.id, n]));
    const urlOf = (id: string): string | undefined => {
      const n = byId.get(id);
      if (!n) return undefined;
      if (n.kind === 'resource') return n.url;
      if (n.kind === 'script_eval') return n.scriptUrl;
      if (n.kind === 'css_eval') return n.styleUrl;
      if (n.kind === 'event') return `${n.eventTarget}.${n.eventName}`;
      if (n.kind === 'marker') return n.markerName;
      return undefined;
    };
    const round = (x: number) => Math.round(x * 1000) / 1000;
    if (flag(p, 'json')) {
      const nodes = cp.steps.map((s) => ({ id: s.id, kind: s.kind, duration: round(s.duration), remaining: round(s.remaining), ...(urlOf(s.id) ? { url: urlOf(s.id) } : {}) }));
      console.log(JSON.stringify({ length: round(cp.length), nodes }, null, 2));
      return 0;
    }
    const rows = cp.steps.map((s) => [s.id, s.kind, s.duration.toFixed(3), s.remaining.toFixed(3), urlOf(s.id) ?? '']);
    const head = ['node', 'kind', 'duration_ms', 'remaining_ms', 'url'];
    const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
    const fmt = (r: string[]) => r.map((c, i) => (i === r.length - 1 ? c : i >= 2 && i <= 3 ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join('  ');
    console.log(fmt(head));
    for (const r of rows) console.log(fmt(r));
    console.log(`critical path: ${cp.steps.length} nodes, ${cp.length.toFixed(3)} ms`);
    return 0;
  },
};
