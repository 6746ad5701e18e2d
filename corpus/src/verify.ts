/**
 * `pcp corpus verify`: a release checked against its manifest — every listed file present with its
 * size and sha256, no file unlisted, every graph valid against graph format v1 (schema and references),
 * every Parquet table framed as Parquet. Reports problems as lines; never stops at the first.
 */
import { closeSync, existsSync, openSync, readFileSync, readSync, statSync } from 'node:fs';
import { join, normalize, isAbsolute } from 'node:path';
import { readJsonFile, SCHEMA_VERSION, validateGraph } from '@pcp/graph-builder';
import { listFiles, RELEASE_FILES, sha256File } from './release.ts';

export interface VerifyResult {
  files: number;
  graphs: number;
  problems: string[];
}

interface ManifestResource {
  path?: unknown;
  bytes?: unknown;
  hash?: unknown;
}

function isParquet(path: string): boolean {
  const size = statSync(path).size;
  if (size < 12) return false;
  const fd = openSync(path, 'r');
  try {
    const head = Buffer.alloc(4);
    const tail = Buffer.alloc(4);
    readSync(fd, head, 0, 4, 0);
    readSync(fd, tail, 0, 4, size - 4);
    return head.toString('latin1') === 'PAR1' && tail.toString('latin1') === 'PAR1';
  } finally {
    closeSync(fd);
  }
}

function checkGraph(path: string): string | undefined {
  let data: unknown;
  try {
    data = readJsonFile(path);
  } catch (e) {
    return (e as Error).message.replace(`${path}: `, '');
  }
  const v = (data as { schemaVersion?: unknown } | null)?.schemaVersion;
  if (v !== SCHEMA_VERSION) return `schemaVersion ${JSON.stringify(v)}, expected ${SCHEMA_VERSION}`;
  const r = validateGraph(data, 3);
  return r.ok ? undefined : `not a valid v${SCHEMA_VERSION} graph: ${r.errors.join('; ')}`;
}

/**
 * croissant.json against datapackage.json: one FileObject per listed file, at the same path with the same
 * sha256 (the files themselves are checked against datapackage.json). Its validity against the Croissant
 * spec is mlcroissant's to check (`python -m pcp_corpus croissant DIR --check`, run by `pcp corpus verify`).
 */
export function croissantProblems(dir: string, resources: ManifestResource[]): string[] {
  const name = RELEASE_FILES.croissant;
  const path = join(dir, name);
  if (!existsSync(path)) return [`${name}: missing`];
  let files: Array<{ '@type'?: unknown; contentUrl?: unknown; sha256?: unknown }>;
  try {
    const doc = JSON.parse(readFileSync(path, 'utf8')) as { distribution?: unknown };
    if (!Array.isArray(doc.distribution)) throw new Error('no distribution list');
    files = doc.distribution as typeof files;
  } catch (e) {
    return [`${name}: ${(e as Error).message.split('\n', 1)[0]}`];
  }
  const problems: string[] = [];
  const hashes = new Map(files.filter((f) => f['@type'] === 'cr:FileObject').map((f) => [String(f.contentUrl), String(f.sha256)]));
  for (const r of resources) {
    if (typeof r.path !== 'string') continue;
    const h = hashes.get(r.path);
    if (h === undefined) problems.push(`${name}: ${r.path} not in its distribution`);
    else if (typeof r.hash === 'string' && r.hash !== `sha256:${h}`) problems.push(`${name}: ${r.path}: sha256 differs from ${RELEASE_FILES.manifest}`);
    hashes.delete(r.path);
  }
  for (const p of hashes.keys()) problems.push(`${name}: ${p} in its distribution but not in ${RELEASE_FILES.manifest}`);
  return problems;
}

export function verifyRelease(dir: string): VerifyResult {
  const problems: string[] = [];
  const manifestPath = join(dir, RELEASE_FILES.manifest);
  if (!existsSync(manifestPath)) return { files: 0, graphs: 0, problems: [`${RELEASE_FILES.manifest}: missing (not a release directory)`] };
  let resources: ManifestResource[];
  try {
    resources = (JSON.parse(readFileSync(manifestPath, 'utf8')) as { resources?: ManifestResource[] }).resources ?? [];
    if (!Array.isArray(resources)) throw new Error('resources is not a list');
  } catch (e) {
    return { files: 0, graphs: 0, problems: [`${RELEASE_FILES.manifest}: ${(e as Error).message.split('\n', 1)[0]}`] };
  }
  const listed = new Set<string>();
  let files = 0;
  let graphs = 0;
  for (const [i, r] of resources.entries()) {
    const path = typeof r.path === 'string' ? r.path : undefined;
    if (!path || isAbsolute(path) || normalize(path).startsWith('..')) {
      problems.push(`${RELEASE_FILES.manifest}: resource ${i} has no relative path inside the release`);
      continue;
    }
    listed.add(normalize(path));
    const full = join(dir, path);
    if (!existsSync(full)) {
      problems.push(`${path}: listed in ${RELEASE_FILES.manifest} but missing`);
      continue;
    }
    files++;
    const bytes = statSync(full).size;
    if (typeof r.bytes === 'number' && r.bytes !== bytes) problems.push(`${path}: ${bytes} bytes, manifest says ${r.bytes}`);
    const m = typeof r.hash === 'string' ? /^sha256:([0-9a-f]{64})$/.exec(r.hash) : null;
    if (!m) problems.push(`${path}: no sha256 hash in ${RELEASE_FILES.manifest}`);
    else if (sha256File(full) !== m[1]) problems.push(`${path}: sha256 differs from ${RELEASE_FILES.manifest} (modified or corrupt)`);
    if (path.startsWith(`${RELEASE_FILES.graphs}/`)) {
      graphs++;
      const bad = checkGraph(full);
      if (bad) problems.push(`${path}: ${bad}`);
    } else if (path.endsWith('.parquet') && !isParquet(full)) {
      problems.push(`${path}: not a Parquet file`);
    }
  }
  for (const f of listFiles(dir)) {
    if (f !== RELEASE_FILES.manifest && f !== RELEASE_FILES.croissant && !listed.has(normalize(f))) problems.push(`${f}: not listed in ${RELEASE_FILES.manifest}`);
  }
  problems.push(...croissantProblems(dir, resources));
  if (graphs === 0) problems.push(`${RELEASE_FILES.manifest}: lists no graphs`);
  return { files, graphs, problems };
}
