/** pcp corpus verify: a release against its manifest and the graph schema; exit 0 only when all is well. */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { CliError, parse, UsageError, type Command } from '../../kit.ts';

const usage = `
usage: pcp corpus verify RELEASE_DIR

Checks a release (pcp corpus publish): every file listed in datapackage.json is present with its size
and sha256, no file is unlisted, every graph is valid graph format v1 (JSON Schema and references),
every table is Parquet, croissant.json lists the same files and hashes and is valid Croissant (checked
by mlcroissant). Prints one line per problem and exits 1 when there is any, else 0.
`;

export const command: Command = {
  name: 'verify',
  summary: 'check a release: every sha256, every graph against the schema',
  usage,
  async run(args) {
    const p = parse(args, {});
    const [dir, ...extra] = p.positionals;
    if (!dir || extra.length) throw new UsageError('expected one release directory');
    if (!existsSync(dir)) throw new CliError(`${dir}: no such directory`);
    const { verifyRelease, RELEASE_FILES } = await import('@pcp/corpus');
    const r = verifyRelease(dir);
    if (existsSync(join(dir, RELEASE_FILES.croissant))) {
      const { runCorpusPython } = await import('./describe.ts');
      await runCorpusPython(['croissant', dir, '--check']).catch((e: Error) => r.problems.push(e.message));
    }
    for (const problem of r.problems) console.error(`pcp corpus verify: ${dir}: ${problem}`);
    if (r.problems.length) {
      console.error(`pcp corpus verify: ${r.problems.length} problem(s) in ${dir} (${r.files} files, ${r.graphs} graphs checked)`);
      return 1;
    }
    console.log(`pcp corpus verify: ${dir}: ok (${r.files} files and their sha256, ${r.graphs} graphs valid against graph format v1, croissant.json valid)`);
    return 0;
  },
};
