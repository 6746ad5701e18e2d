/**
 * `pcp corpus <subcommand>`: graph corpora (corpus/README.md). One module per subcommand in ./corpus/,
 * listed in SUBCOMMANDS; `build-site` is plumbing (the one-site unit each Dask task runs).
 */
import { UsageError, type Command } from '../kit.ts';
import { command as build } from './corpus/build.ts';
import { command as buildSite } from './corpus/build-site.ts';
import { command as importLegacy } from './corpus/import-legacy.ts';

const SUBCOMMANDS: Record<string, Command> = {
  build,
  'import-legacy': importLegacy,
  'build-site': buildSite,
};

const PLUMBING = new Set(['build-site']);

export const command: Command = {
  name: 'corpus',
  summary: 'build graph corpora from site lists or the legacy logs (locally or on Dask)',
  get usage() {
    const listed = Object.values(SUBCOMMANDS).filter((c) => !PLUMBING.has(c.name));
    return [
      '\nusage: pcp corpus <subcommand> ...\n',
      ...listed.map((c) => `  ${c.name.padEnd(14)} ${c.summary}`),
      `\nplumbing: ${[...PLUMBING].map((n) => `pcp corpus ${n}`).join(', ')} (pcp corpus ${[...PLUMBING][0]} --help)`,
      ...Object.values(SUBCOMMANDS).map((c) => c.usage.replace(/\n$/, '')),
    ].join('\n');
  },
  async run(args) {
    const [name, ...rest] = args;
    const sub = name === undefined ? undefined : SUBCOMMANDS[name];
    if (!sub) throw new UsageError(name === undefined ? 'a subcommand is required' : `unknown subcommand '${name}'`);
    return sub.run(rest);
  },
};
