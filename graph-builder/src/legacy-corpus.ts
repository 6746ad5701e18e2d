import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Root of the repository (graph-builder/src/ -> ../..). */
export const REPO_ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));

/** The shared data folder: $PCP_SHARED, else ../shared beside the repository (as in CI). */
export function sharedDir(): string {
  return resolve(process.env.PCP_SHARED ?? join(REPO_ROOT, '..', 'shared'));
}

export interface LegacySite {
  page: string;
  slug: string;
  /** Absolute paths. */
  raw: string;
  graph: string;
  delays: string;
  critpath: string;
}

/** The 64-site legacy corpus listed by its index.json, with absolute paths; throws a clear error when absent. */
export function legacySites(): LegacySite[] {
  const dir = join(sharedDir(), 'legacy-corpus');
  const index = join(dir, 'index.json');
  if (!existsSync(index)) throw new Error(`legacy corpus not found at ${dir} (set PCP_SHARED to the shared/ folder)`);
  const entries = JSON.parse(readFileSync(index, 'utf8')) as Array<{ page: string; slug: string; raw: string; graph: string; delays: string }>;
  return entries.map((e) => ({
    page: e.page,
    slug: e.slug,
    raw: join(dir, e.raw),
    graph: join(dir, e.graph),
    delays: join(dir, e.delays),
    critpath: join(dir, e.graph.replace(/\.json\.gz$/, '.cp_critpath.txt.gz')),
  }));
}
