/** pcp corpus stats: a corpus' (or a release's) summary table on stdout, and its statistics and figures in a report directory. */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CliError, parse, str, UsageError, type Command } from '../../kit.ts';

const usage = `
usage: pcp corpus stats DIR [--out REPORT_DIR]

The statistics of a corpus directory (pcp corpus build / import-legacy) or of a release (pcp corpus
publish): a summary table on stdout, and in REPORT_DIR summary.txt, summary.md, summary.json and the
figures as PNG and SVG: load and DOMContentLoaded CDFs; nodes, edges, resources, frames, origins per
page; critical-path composition (network vs computation, by activity kind); MIME mix by count and
bytes; server-delay CDFs per MIME class; share of resources on the critical path.
A page whose graph cannot be read is reported and left out.

options:
  --out REPORT_DIR   where the report goes (default: DIR/stats for a corpus; required for a release)

Runs the pcp_corpus Python package (corpus/python; python3, or $PYTHON).
`;

export const command: Command = {
  name: 'stats',
  summary: 'summary table and figures of a corpus or release',
  usage,
  async run(args) {
    const p = parse(args, { out: { type: 'string' } });
    const [dir, ...extra] = p.positionals;
    if (!dir || extra.length) throw new UsageError('expected one corpus or release directory');
    const { isCorpusDir, RELEASE_FILES, tablePath } = await import('@pcp/corpus');
    const { describeCorpus, runCorpusPython } = await import('./describe.ts');
    const out = str(p, 'out');
    if (existsSync(join(dir, RELEASE_FILES.manifest)) && existsSync(join(dir, tablePath('pages')))) {
      if (!out) throw new UsageError('--out REPORT_DIR is required for a release (a release is not written to)');
      await runCorpusPython(['stats', join(dir, RELEASE_FILES.data), '--report', out]);
    } else {
      if (!existsSync(dir)) throw new CliError(`${dir}: no such directory`);
      if (!isCorpusDir(dir)) throw new CliError(`${dir}: neither a corpus directory (corpus.json, pages/) nor a release (datapackage.json, data/)`);
      const report = out ?? join(dir, 'stats');
      const data = mkdtempSync(join(tmpdir(), 'pcp-corpus-data-'));
      try {
        await describeCorpus(dir, { dataDir: data, reportDir: report, print: true, label: 'pcp corpus stats' });
      } finally {
        rmSync(data, { recursive: true, force: true });
      }
    }
    console.error(`pcp corpus stats: report in ${out ?? join(dir, 'stats')}`);
    return 0;
  },
};
