/**
 * The catalog of graphs a viewer serves: built once from the files and directories given on the
 * command line. Graphs are only ever served by catalog id, and every catalogued file is checked
 * (after resolving symlinks) to lie inside one of the given roots, so no request can reach other files.
 */
import { readdirSync, realpathSync, statSync, readFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve, sep, isAbsolute } from 'node:path';
import { isCorpusDir, readCorpus, RELEASE_FILES } from '@pcp/corpus';

export interface CatalogEntry {
  id: string;
  /** Absolute real path of the graph file. */
  path: string;
  /** Display name (path relative to the root it was found in). */
  name: string;
}

export interface Catalog {
  entries: CatalogEntry[];
  /** Paths that were given but held nothing usable, with the reason. */
  problems: string[];
}

const GRAPH_FILE = /\.json(\.gz)?$/i;
const NOT_GRAPHS = /^(index|package|package-lock|tsconfig|meta|frames|trace|devtools\.log)\.json(\.gz)?$/i;
const MAX_DEPTH = 4;
const MAX_FILES = 20000;

/** True when `child` is `root` or lies inside it (both absolute, resolved). */
export function isInside(root: string, child: string): boolean {
  const rel = relative(root, child);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}

function listGraphFiles(dir: string, depth: number, out: string[]): void {
  if (depth > MAX_DEPTH || out.length >= MAX_FILES) return;
  let names: string[];
  try {
    names = readdirSync(dir).sort();
  } catch {
    return;
  }
  for (const name of names) {
    if (name.startsWith('.') || name === 'node_modules') continue;
    const p = join(dir, name);
    let st;
    try {
      st = statSync(p);
    } catch {
      continue;
    }
    if (st.isDirectory()) listGraphFiles(p, depth + 1, out);
    else if (GRAPH_FILE.test(name)) out.push(p);
  }
}

/** In a corpus directory with an index.json listing `graph` paths, those are the graphs. */
function fromIndex(dir: string): string[] | null {
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(join(dir, 'index.json'), 'utf8'));
  } catch {
    return null;
  }
  const list = Array.isArray(data) ? data : (data as { sites?: unknown }).sites;
  if (!Array.isArray(list)) return null;
  const files = list
    .map((e) => (e && typeof e === 'object' ? (e as { graph?: unknown }).graph : undefined))
    .filter((g): g is string => typeof g === 'string')
    .map((g) => resolve(dir, g));
  return files.length > 0 ? files : null;
}

/**
 * A corpus directory (pcp corpus build / import-legacy): the graphs of its finished pages, named by page
 * id; unfinished and failed pages become problems. A release (pcp corpus publish): the graphs its
 * datapackage.json lists.
 */
function fromCorpus(dir: string, problems: string[]): Array<{ path: string; name: string }> | null {
  if (isCorpusDir(dir)) {
    try {
      const c = readCorpus(dir);
      for (const id of c.unfinished) problems.push(`${id}: unfinished (no DONE marker)`);
      for (const f of c.failures) problems.push(`${f.url || f.id}: failed (${f.reason})`);
      return c.pages.map((p) => ({ path: p.graph, name: p.id }));
    } catch (e) {
      problems.push((e as Error).message);
      return [];
    }
  }
  let manifest: unknown;
  try {
    manifest = JSON.parse(readFileSync(join(dir, RELEASE_FILES.manifest), 'utf8'));
  } catch {
    return null;
  }
  const resources = (manifest as { resources?: unknown }).resources;
  if (!Array.isArray(resources)) return null;
  const graphs = resources
    .map((r) => (r && typeof r === 'object' ? (r as { path?: unknown }).path : undefined))
    .filter((p): p is string => typeof p === 'string' && p.startsWith(`${RELEASE_FILES.graphs}/`))
    .map((p) => ({ path: resolve(dir, p), name: basename(p).replace(GRAPH_FILE, '') }));
  return graphs.length > 0 ? graphs : null;
}

/** Graph files in a directory: its index.json when it has one, else files that look like graphs. */
function graphsInDir(dir: string): string[] {
  const indexed = fromIndex(dir);
  if (indexed) return indexed;
  const all: string[] = [];
  listGraphFiles(dir, 0, all);
  const graphish = all.filter((p) => /graph/i.test(basename(p)) || basename(dirname(p)) === 'graphs');
  // Other JSON files are tried as graphs, except the ones known not to be: project files and the
  // profiler's bundle members (a trace can be hundreds of MB).
  return graphish.length > 0 ? graphish : all.filter((p) => !NOT_GRAPHS.test(basename(p)));
}

function idFor(path: string, used: Set<string>, name?: string): string {
  const base = (name ?? basename(path).replace(GRAPH_FILE, '')).replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 80) || 'graph';
  let id = base;
  for (let k = 2; used.has(id); k++) id = `${base}-${k}`;
  used.add(id);
  return id;
}

export function buildCatalog(paths: string[]): Catalog {
  const entries: CatalogEntry[] = [];
  const problems: string[] = [];
  const used = new Set<string>();
  const seen = new Set<string>();
  for (const given of paths) {
    let root: string;
    try {
      root = realpathSync(given);
    } catch {
      problems.push(`${given}: no such file or directory`);
      continue;
    }
    const isDir = statSync(root).isDirectory();
    const named = isDir ? fromCorpus(root, problems) : null;
    const names = new Map(named?.map((g) => [g.path, g.name]));
    const candidates = named ? named.map((g) => g.path) : isDir ? graphsInDir(root) : [root];
    const base = isDir ? root : dirname(root);
    let added = 0;
    for (const c of candidates) {
      let real: string;
      try {
        real = realpathSync(c);
        if (!statSync(real).isFile()) continue;
      } catch {
        problems.push(`${c}: listed but missing`);
        continue;
      }
      // A symlink (or an index entry like ../x) leading out of the root is not served.
      if (!isInside(base, real)) {
        problems.push(`${c}: outside ${given}, skipped`);
        continue;
      }
      if (seen.has(real)) continue;
      seen.add(real);
      const name = names.get(c);
      entries.push({ id: idFor(real, used, name), path: real, name: name ?? (isDir ? relative(root, real) : basename(real)) });
      added++;
    }
    if (added === 0) problems.push(`${given}: no graph files found`);
  }
  return { entries, problems };
}
