/**
 * pcp sweep: run a parameter grid of emulations over many graphs on all cores, one CSV row per
 * (graph, config, run). Resumable: rows already in the output are skipped. A graph that fails is
 * reported and skipped; the others go on.
 */
import { positiveInt, CliError, Progress, UsageError, parse, str, type Command } from '../kit.ts';

const usage = `usage: pcp sweep <graph|dir>... --grid <grid.json> --out <results.csv> [--workers N] [--runs N]

Emulates every graph (format v1 or legacy layout, .json or .json.gz; a directory means the graphs in it)
under every point of a parameter grid, in worker threads on all cores, appending one CSV row per
(graph, config, run) to --out. Re-running the same command resumes: rows already present are skipped.

The grid is a JSON object of pcp emulate options (without dashes) to a value or a list of values;
'runs' sets runs per point (seeds seed..seed+runs-1, seed defaulting to 1):
  {"bandwidth": ["1mbit", "10mbit"], "rtt": ["40ms", "200ms"], "protocol": ["h1", "h2"], "runs": 3}

columns: graph, config, <grid options>, run, seed, loadTime, domContentLoadedTime, endTime (ms),
         drops, retransmissions, packets, connections

options:
  --grid <file>     the parameter grid (required)
  --out <file>      results CSV, created or appended to (required)
  --workers <n>     worker threads (default: the number of cores)
  --runs <n>        override the grid's runs
  -h, --help        this help
`;

const OPTIONS = {
  grid: { type: 'string' },
  out: { type: 'string' },
  workers: { type: 'string' },
  runs: { type: 'string' },
} as const;

export const command: Command = {
  name: 'sweep',
  summary: 'run an emulation parameter grid over many graphs on all cores (resumable CSV)',
  usage,
  async run(args) {
    const p = parse(args, OPTIONS);
    const gridPath = str(p, 'grid');
    const out = str(p, 'out');
    if (!gridPath) throw new UsageError('--grid is required');
    if (!out) throw new UsageError('--out is required');
    if (p.positionals.length === 0) throw new UsageError('expected at least one graph file or directory');
    const { existsSync, readFileSync, readdirSync, statSync, appendFileSync, writeFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { availableParallelism } = await import('node:os');
    const { Worker } = await import('node:worker_threads');
    const { parseGrid, csvHeader, csvField, doneKeys, rowKey, GridError, SWEEP_WORKER_ENTRY } = await import('@pcp/emulator/sweep');
    type Job = import('@pcp/emulator/sweep').SweepJob;
    type Msg = import('@pcp/emulator/sweep').SweepMessage;

    let grid;
    try {
      grid = parseGrid(JSON.parse(readFileSync(gridPath, 'utf8')) as unknown);
    } catch (e) {
      if (e instanceof GridError) throw new UsageError(`${gridPath}: ${e.message}`);
      throw new CliError(`${gridPath}: ${(e as Error).message}`);
    }
    const runs = positiveInt(p, 'runs', grid.runs);
    const workers = positiveInt(p, 'workers', availableParallelism());

    const graphs: string[] = [];
    for (const g of p.positionals) {
      if (!existsSync(g)) throw new CliError(`${g}: no such file or directory`);
      if (statSync(g).isDirectory()) {
        for (const f of readdirSync(g).sort()) if (/\.json(\.gz)?$/.test(f)) graphs.push(join(g, f));
      } else graphs.push(g);
    }
    if (graphs.length === 0) throw new CliError('no graph files found');

    const header = csvHeader(grid);
    let done = new Set<string>();
    if (existsSync(out) && statSync(out).size > 0) {
      const text = readFileSync(out, 'utf8');
      try {
        done = doneKeys(text, header);
      } catch (e) {
        throw new CliError(`${out}: ${(e as Error).message}`);
      }
      if (!text.endsWith('\n')) appendFileSync(out, '\n'); // a torn last line from an interrupted run stays apart
    } else writeFileSync(out, `${header}\n`);

    const jobs: Job[] = [];
    let skipped = 0;
    for (const graph of graphs) {
      const tasks: Job['tasks'] = [];
      for (const pt of grid.points) {
        for (let run = 1; run <= runs; run++) {
          if (done.has(rowKey(graph, pt.key, run))) {
            skipped++;
            continue;
          }
          const prefix = [graph, pt.key, ...grid.params.map((k) => pt.options[k]!)].map(csvField).join(',');
          tasks.push({ config: pt.config, configKey: pt.key, run, seed: (pt.config.seed ?? 1) + run - 1, prefix });
        }
      }
      if (tasks.length) jobs.push({ graph, tasks });
    }
    const total = jobs.reduce((s, j) => s + j.tasks.length, 0);
    if (total === 0) {
      console.error(`nothing to do: all ${skipped} rows are already in ${out}`);
      return 0;
    }
    const progress = new Progress(total, 'sweep');
    const failed: string[] = [];
    let written = 0;
    await new Promise<void>((resolve, reject) => {
      let next = 0;
      let live = 0;
      const n = Math.min(workers, jobs.length);
      for (let i = 0; i < n; i++) {
        const w = new Worker(SWEEP_WORKER_ENTRY);
        live++;
        const feed = (): void => {
          if (next < jobs.length) w.postMessage(jobs[next++]!);
          else void w.terminate();
        };
        w.on('message', (m: Msg) => {
          if (m.kind === 'row') {
            appendFileSync(out, `${m.row}\n`);
            written++;
            progress.tick(true);
          } else if (m.kind === 'error') {
            failed.push(`${m.graph}: ${m.message}`);
            for (let k = 0; k < m.remaining; k++) progress.tick(false);
          } else feed();
        });
        w.on('error', (e) => reject(new CliError(`worker failed: ${e.message}`)));
        w.on('exit', () => {
          if (--live === 0) resolve();
        });
        feed();
      }
    });
    for (const f of failed) console.error(`failed: ${f}`);
    console.error(`${written} rows written to ${out}${skipped ? `, ${skipped} already there` : ''}${failed.length ? `, ${failed.length} graph(s) failed and were skipped` : ''}`);
    return failed.length ? 1 : 0;
  },
};
