/**
 * `pcp corpus <subcommand>`: graph corpora (corpus/README.md). One module per subcommand in ./corpus/,
 * listed in SUBCOMMANDS, each a Command that imports its heavy modules inside `run`; `build-site` is
 * plumbing (the one-site unit each Dask task runs). `pcp corpus --help` prints every subcommand's usage.
 */
import { UsageError, type Command } from '../kit.ts';
import { command as build } from './corpus/build.ts';
import { command as buildSite } from './corpus/build-site.ts';
import { command as importLegacy } from './corpus/import-legacy.ts';
import { command as stats } from './corpus/stats.ts';
import { command as publish } from './corpus/publish.ts';
import { command as verify } from './corpus/verify.ts';

const SUBCOMMANDS: Record<string, Command> = {
  build,
  'import-legacy': importLegacy,
  stats,
  publish,
  verify,
  'build-site': buildSite,
};

const PLUMBING = new Set(['build-site']);
const names = Object.keys(SUBCOMMANDS).filter((n) => !PLUMBING.has(n)).join(', ');

export const command: Command = {
  name: 'corpus',
  summary: `graph corpora: ${names}`,
  get usage() {
    const listed = Object.values(SUBCOMMANDS).filter((c) => !PLUMBING.has(c.name));
    return [
      '\nusage: pcp corpus <subcommand> [options]\n',
      ...listed.map((c) => `  ${c.name.padEnd(14)} ${c.summary}`),
      `\nplumbing: ${[...PLUMBING].map((n) => `pcp corpus ${n}`).join(', ')} (pcp corpus ${[...PLUMBING][0]} --help)`,
      ...Object.values(SUBCOMMANDS).map((c) => `\n${c.usage.trim()}`),
    ].join('\n');
  },
  async run(args) {
    const [name, ...rest] = args;
    const sub = name === undefined ? undefined : SUBCOMMANDS[name];
    if (!sub) throw new UsageError(name === undefined ? `a subcommand is required: ${names}` : `unknown subcommand '${name}' (one of ${names})`);
    return sub.run(rest);
  },
};
