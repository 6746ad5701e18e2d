/**
 * pcp view: the graph viewer. Serves the given graphs (files, corpus or bundle directories) on
 * 127.0.0.1 and prints the URL; runs until interrupted (or, with --exit-after-ready, checks that it
 * serves and exits, for scripts and CI).
 */
import { resolve } from 'node:path';
import { existsSync } from 'node:fs';
import { CliError, flag, num, parse, type Command } from '../kit.ts';

const usage = `
usage: pcp view [GRAPH_FILE | DIRECTORY ...] [--port N] [--open ID] [--exit-after-ready]

Starts the graph viewer on http://127.0.0.1:PORT/ (loopback only) and prints its URL.
Arguments are graph files (v1 or legacy layout, .json or .json.gz) and directories: a corpus
directory with an index.json (like ../shared/legacy-corpus), or any directory, which is searched
for graph files. With no argument, the legacy corpus ($PCP_SHARED or ../shared)/legacy-corpus is served.
Only the graphs found there are served; nothing else on disk is reachable.

options:
  --port N             port to listen on (default 8737; 0 picks a free port)
  --open ID            print the URL of this graph's page (graph id = file name without .json[.gz])
  --exit-after-ready   start, check that the list and (with --open) the graph load, print the URL, exit
`;

export const command: Command = {
  name: 'view',
  summary: 'open graphs in the interactive viewer (critical path, timeline, what-if)',
  usage,
  async run(args) {
    const p = parse(args, { port: { type: 'string' }, open: { type: 'string' }, 'exit-after-ready': { type: 'boolean' } });
    const port = num(p, 'port', 8737);
    if (!Number.isInteger(port) || port < 0 || port > 65535) throw new CliError(`--port must be 0-65535, got ${port}`);
    let paths = p.positionals;
    if (paths.length === 0) {
      // ../shared relative to the repository root (as in CI), whatever the working directory.
      const { sharedDir } = await import('@pcp/graph-builder');
      const corpus = resolve(sharedDir(), 'legacy-corpus');
      if (!existsSync(corpus)) throw new CliError(`no graphs given and no corpus at ${corpus} (pass graph files or directories)`);
      paths = [corpus];
    }
    const { startViewer } = await import('@pcp/graph-viewer');
    let viewer;
    try {
      viewer = await startViewer({ paths, port });
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'EADDRINUSE') throw new CliError(`port ${port} is in use (choose another with --port, or 0 for any free port)`);
      throw e;
    }
    for (const problem of viewer.problems) console.error(`pcp view: ${problem}`);
    const graphs = viewer.store.list();
    if (graphs.length === 0) {
      await viewer.close();
      throw new CliError('no graph files found in the given paths');
    }
    const open = p.values.open as string | undefined;
    if (open !== undefined && !viewer.store.has(open)) {
      await viewer.close();
      throw new CliError(`no graph '${open}' (known: ${graphs.slice(0, 5).map((g) => g.id).join(', ')}${graphs.length > 5 ? ', …' : ''})`);
    }
    const url = open ? `${viewer.url}#/graph/${open}` : viewer.url;
    console.log(`pcp view: serving ${graphs.length} graph${graphs.length === 1 ? '' : 's'} at ${url}`);
    if (flag(p, 'exit-after-ready')) {
      try {
        const list = await fetch(`${viewer.url}api/graphs`);
        if (!list.ok) throw new CliError(`viewer list answered HTTP ${list.status}`);
        if (open) {
          const g = await fetch(`${viewer.url}api/graphs/${open}`);
          if (!g.ok) throw new CliError(`graph '${open}' failed to load: ${((await g.json()) as { error?: string }).error ?? g.status}`);
        }
      } finally {
        await viewer.close();
      }
      console.log('pcp view: ready; exiting (--exit-after-ready)');
      return 0;
    }
    console.log('press Ctrl-C to stop');
    await new Promise<void>((resolveStop) => {
      const stop = (): void => {
        void viewer.close().then(resolveStop);
      };
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    });
    return 0;
  },
};
