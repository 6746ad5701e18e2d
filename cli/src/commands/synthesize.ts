/**
 * pcp synthesize: a graph turned into a site the replay serves (a bundle with archive.har), or a
 * parametric page of N objects. A thin shell over @pcp/synth.
 */
import { CliError, UsageError, parse, positiveInt, requireStr, sourceError, str, type Command } from '../kit.ts';

const usage = `
usage: pcp synthesize GRAPH --out DIR
       pcp synthesize --objects N [--sizes DIST] [--origin URL] [--seed S] --out DIR

Turns a dependency graph (graph format v1, or the original PCP layout) into a self-contained site:
DIR is a replay bundle (archive.har, meta.json, server-delays.json) that pcp replay DIR --serve
serves and pcp profile --replay DIR profiles. Every resource of the graph keeps its URL (so its
host, reached through --host-resolver-rules), MIME type, byte size, HTTP status and server delay;
documents put their tags at the parse chunks' recorded positions and are trickled in the download
chunks' pieces (replay --pace), with the <body> tag where the source's was (a graph of the legacy
corpus: from its raw log); scripts run for their recorded durations and do what their children
in the graph say (insert elements, XHR/fetch, timers, handlers of the recorded events). An edge the
page cannot cause is a warning, never a failure. The contract: synth/README.md.

Parametric pages (Goel et al.): --objects N images on one page, sizes drawn from DIST:
  fixed:BYTES | uniform:MIN-MAX | lognormal:MEDIAN,SIGMA     (sizes in bytes; k/m suffixes allowed)

options:
  --out DIR          the bundle to write (required)
  --objects N        a parametric page of N objects instead of a graph
  --sizes DIST       object size distribution (default lognormal:12k,1.2)
  --origin URL       origin of the parametric page (default http://synth.pcp.test)
  --shards N         spread the objects over N hosts (default 1)
  --seed S           random seed for the sizes (default 1)
  -h, --help
`;

export const command: Command = {
  name: 'synthesize',
  summary: 'a graph (or N objects) turned into a site the replay serves',
  usage,
  async run(args) {
    const p = parse(args, {
      out: { type: 'string' },
      objects: { type: 'string' },
      sizes: { type: 'string' },
      origin: { type: 'string' },
      shards: { type: 'string' },
      seed: { type: 'string' },
    });
    const out = requireStr(p, 'out');
    const objects = positiveInt(p, 'objects');
    const { writeSiteBundle } = await import('@pcp/synth');
    if (objects !== undefined) {
      if (p.positionals.length) throw new UsageError('--objects takes no GRAPH');
      const { parametricGraph, parseSizeDist } = await import('@pcp/synth');
      let dist;
      try {
        dist = parseSizeDist(str(p, 'sizes') ?? 'lognormal:12k,1.2');
      } catch (e) {
        throw new UsageError((e as Error).message);
      }
      const origin = str(p, 'origin') ?? 'http://synth.pcp.test';
      if (!/^https?:\/\/[^/]+$/.test(origin)) throw new UsageError(`--origin expects scheme://host[:port], got '${origin}'`);
      const graph = parametricGraph({ objects, sizes: dist, origin, shards: positiveInt(p, 'shards', 1), seed: positiveInt(p, 'seed', 1) });
      return write(graph, out, `--objects ${objects} --sizes ${str(p, 'sizes') ?? 'lognormal:12k,1.2'}`);
    }
    const [file, ...extra] = p.positionals;
    if (!file || extra.length) throw new UsageError('expected one GRAPH file (or --objects N)');
    const { loadGraph } = await import('@pcp/graph-builder');
    let graph;
    try {
      graph = loadGraph(file);
    } catch (e) {
      throw sourceError(file, e);
    }
    return write(graph, out, file);

    async function write(graph: Parameters<typeof import('@pcp/synth').synthesizeSite>[0], dir: string, source: string): Promise<number> {
      const { synthesizeSite, bodyStartsOf } = await import('@pcp/synth');
      // A graph of the legacy corpus: its documents' <body> tags where the 2016 browser read them (its raw log).
      const site = synthesizeSite(graph, { bodyStarts: bodyStartsOf(graph) });
      try {
        writeSiteBundle(dir, site, source, { httpsTwins: objects === undefined });
      } catch (e) {
        throw new CliError(`cannot write ${dir}: ${(e as Error).message}`);
      }
      for (const w of site.warnings) console.error(`warning: ${w}`);
      const bytes = site.responses.reduce((s, r) => s + r.body.length, 0);
      console.log(`${site.pageUrl}: ${site.responses.length} responses, ${bytes} bytes, ${site.warnings.length} warnings, ${site.oversize.length} larger than recorded, ${site.drifted} parse chunks moved; bundle: ${dir} (pcp replay ${dir} --serve --pace)`);
      return 0;
    }
  },
};
