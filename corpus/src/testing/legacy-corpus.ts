/**
 * Test corpora in the corpus directory layout: the first sites of the 2016 legacy sample
 * (../shared/legacy-corpus) imported as `pcp corpus import-legacy` does (server delays included, so the
 * delay statistics have data).
 */
import { join } from 'node:path';
import { sharedDir } from '@pcp/graph-builder';
import { importLegacyCorpus } from '../legacy-import.ts';
import type { PageStatus } from '../layout.ts';

/** Writes `count` legacy sites (the first of index.json) as a finished corpus in `dir`; returns their page ids. */
export function writeLegacyTestCorpus(dir: string, count = Infinity): string[] {
  const ids: string[] = [];
  const r = importLegacyCorpus(join(sharedDir(), 'legacy-corpus'), dir, (status: PageStatus) => ids.push(status.id), count);
  if (r.failed > 0) throw new Error(`legacy test corpus: ${r.failed} site(s) failed to import`);
  return ids;
}
