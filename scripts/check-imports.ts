/**
 * The packages' public surfaces, checked: a module imports another workspace only through a name its
 * package.json `exports` declares (`@pcp/emulator`, `@pcp/profiler/testing`, ...), never through a
 * relative path that leaves its own package directory, and library code (a package's src/, tests and
 * src/testing aside) never imports the CLI or another package's `testing` subpath.
 *
 *   node --import tsx scripts/check-imports.ts     prints each violation, exit 1 when there is one
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface PackageSurface {
  /** Directory relative to the repository root, e.g. `graph-builder`. */
  dir: string;
  /** `@pcp/graph-builder`, or undefined for a directory that is not an npm workspace (server-delays, scripts). */
  name: string | undefined;
  /** The keys of its package.json `exports` (`.`, `./testing`, ...). */
  exports: string[];
}

export interface Violation {
  file: string;
  specifier: string;
  reason: string;
}

/** Every module specifier a TypeScript/JavaScript source imports or re-exports, static or dynamic. */
export function specifiersOf(source: string): string[] {
  const out: string[] = [];
  const re = /(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)(['"])([^'"\n]+)\1/gm;
  for (const m of source.matchAll(re)) out.push(m[2]!);
  return out;
}

/** The package a repository-relative path belongs to (package directories do not nest). */
function packageOf(path: string, packages: readonly PackageSurface[]): PackageSurface | undefined {
  return packages.find((p) => path === p.dir || path.startsWith(p.dir + '/'));
}

/** True for library code: under a package's src/, not a test and not a testing helper. */
export function isLibraryFile(path: string): boolean {
  return /^[^/]+\/src\//.test(path) && !/\.test\.ts$/.test(path) && !/\/testing(\/|\.ts$)/.test(path);
}

/** The violations of one file (`path` relative to the root, posix separators). */
export function violationsOf(path: string, specifiers: readonly string[], packages: readonly PackageSurface[]): Violation[] {
  const own = packageOf(path, packages);
  const out: Violation[] = [];
  for (const specifier of specifiers) {
    const bad = (reason: string): void => void out.push({ file: path, specifier, reason });
    if (specifier.startsWith('.')) {
      const target = join(dirname(path), specifier).split(sep).join('/');
      const to = packageOf(target, packages);
      if (own && to && to !== own) bad(`relative import into ${to.dir}/: import ${to.name ?? to.dir} through its public index instead`);
      continue;
    }
    const m = /^(@pcp\/[a-z-]+)(\/.*)?$/.exec(specifier);
    if (!m) continue;
    const target = packages.find((p) => p.name === m[1]);
    if (!target) {
      bad(`no workspace is named ${m[1]}`);
      continue;
    }
    const sub = m[2] ? `.${m[2]}` : '.';
    if (!target.exports.includes(sub)) bad(`${m[1]} does not export '${sub}' (it exports ${target.exports.join(', ')})`);
    if (isLibraryFile(path) && target !== own && (target.name === '@pcp/cli' || sub === './testing')) {
      bad('library code must not depend on the CLI or on another package\'s testing helpers');
    }
  }
  return out;
}

/** The workspaces of the root package.json, plus the non-npm directories that hold TypeScript. */
export function readSurfaces(root: string): PackageSurface[] {
  const rootPkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { workspaces: string[] };
  const surfaces: PackageSurface[] = rootPkg.workspaces.map((dir) => {
    const pkg = JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8')) as { name: string; exports?: Record<string, string> };
    return { dir, name: pkg.name, exports: Object.keys(pkg.exports ?? {}) };
  });
  return [...surfaces, { dir: 'server-delays', name: undefined, exports: [] }, { dir: 'scripts', name: undefined, exports: [] }];
}

/** Source files (.ts, .mjs, .js) under `dir`, node_modules, generated and vendored trees aside. */
function sourcesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir)) {
    if (entry === 'node_modules' || entry === 'public' || entry === 'dist' || entry.startsWith('.')) continue;
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) out.push(...sourcesUnder(path));
    else if (/\.(ts|mjs)$/.test(entry)) out.push(path);
  }
  return out;
}

/** Every violation in the repository at `root`. */
export function checkImports(root: string): Violation[] {
  const packages = readSurfaces(root);
  const out: Violation[] = [];
  for (const p of packages) {
    for (const file of sourcesUnder(join(root, p.dir))) {
      const path = relative(root, file).split(sep).join('/');
      out.push(...violationsOf(path, specifiersOf(readFileSync(file, 'utf8')), packages));
    }
    if (p.exports.includes('./*')) out.push({ file: `${p.dir}/package.json`, specifier: './*', reason: 'exports every file: declare the public subpaths instead' });
  }
  return out;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const found = checkImports(resolve(dirname(fileURLToPath(import.meta.url)), '..'));
  for (const v of found) console.log(`${v.file}: '${v.specifier}': ${v.reason}`);
  console.log(found.length ? `${found.length} import(s) outside the public surfaces` : 'imports: every cross-package import goes through a public surface');
  process.exitCode = found.length ? 1 : 0;
}
