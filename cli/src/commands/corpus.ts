/**
 * pcp corpus: graph corpora — one subcommand a file in ./corpus/ (the table below), each a Command
 * that imports its heavy modules inside `run`. The directory layout they share is in corpus/README.md.
 * `pcp corpus --help` (or any subcommand's --help) prints every subcommand's usage.
 */
import { UsageError, type Command } from '../kit.ts';
import { command as stats } from './corpus/stats.ts';
import { command as publish } from './corpus/publish.ts';
import { command as verify } from './corpus/verify.ts';

const SUBCOMMANDS: Record<string, Command> = { stats, publish, verify };

const names = Object.keys(SUBCOMMANDS).join(', ');

export const command: Command = {
  name: 'corpus',
  summary: `graph corpora: ${names}`,
  usage: [
    'usage: pcp corpus <subcommand> [options]',
    '',
    ...Object.values(SUBCOMMANDS).map((c) => `  ${c.name.padEnd(10)} ${c.summary}`),
    ...Object.values(SUBCOMMANDS).map((c) => `\n${c.usage.trim()}`),
  ].join('\n'),
  async run(args) {
    const [name, ...rest] = args;
    const sub = name === undefined ? undefined : SUBCOMMANDS[name];
    if (!sub) throw new UsageError(name === undefined ? `a subcommand is required: ${names}` : `unknown subcommand '${name}' (one of ${names})`);
    return sub.run(rest);
  },
};
