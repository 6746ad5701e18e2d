/** `pcp corpus import-legacy RAW_DIR --out DIR`: the 2016 patched-Chromium logs as a corpus of v1 graphs. */
import { CliError, Progress, UsageError, parse, requireStr, type Command } from '../../kit.ts';

export const command: Command = {
  name: 'import-legacy',
  summary: 'rebuild the 2016 legacy logs as a corpus of v1 graphs',
  usage: `
usage: pcp corpus import-legacy RAW_DIR --out DIR

Rebuilds each patched-Chromium log (2016 PCP/WProf) of RAW_DIR as a graph format v1 graph in the corpus
layout (corpus/README.md; source "legacy", no bundle), with the server delays the corpus measured when it
has them (delays.json, merged into the graph's resources). RAW_DIR is a legacy corpus folder with its
index.json (e.g. ../shared/legacy-corpus) or a folder of <slug>.log[.gz] files (delays from
<slug>.delays.txt[.gz] beside them or in ../delays). Resumable: pages with DONE are skipped; a log that
cannot be built is recorded in DIR/failures.jsonl and the rest proceed.

exit status: 0 when every log was imported, 1 when any failed.
`,
  async run(args) {
    const p = parse(args, { out: { type: 'string' } });
    const [raw, ...extra] = p.positionals;
    if (!raw || extra.length) throw new UsageError('expected one RAW_DIR');
    const out = requireStr(p, 'out');
    const { importLegacyCorpus, legacyEntries } = await import('@pcp/corpus');
    let total: number;
    try {
      total = legacyEntries(raw).length;
    } catch (e) {
      throw new CliError((e as Error).message);
    }
    const progress = new Progress(total, 'import-legacy');
    const r = importLegacyCorpus(raw, out, (st, skipped) => {
      if (st.status !== 'ok') console.error(`failed  ${st.url} — ${st.reason}`);
      progress.tick(st.status === 'ok', skipped ? '' : st.id);
    });
    console.log(`${r.imported} imported, ${r.skipped} already imported, ${r.failed} failed; corpus: ${out}`);
    return r.failed > 0 ? 1 : 0;
  },
};
