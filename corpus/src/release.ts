/**
 * A corpus release (`pcp corpus publish`): its file layout, the sha256 of every file and the
 * Frictionless Data Package descriptor (datapackage.json) that lists them. Pure but for the file
 * hashing and listing.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { SCHEMA_VERSION } from '@pcp/graph-builder';
import type { CorpusManifest } from './layout.ts';
import { TABLE_NAMES } from './tables.ts';

export const RELEASE_FILES = {
  manifest: 'datapackage.json',
  /** MLCommons Croissant JSON-LD, written by pcp_corpus (mlcroissant) from the manifest. */
  croissant: 'croissant.json',
  card: 'README.md',
  license: 'LICENSE',
  meta: 'corpus.json',
  sites: 'sites.txt',
  failures: 'failures.jsonl',
  graphs: 'graphs',
  data: 'data',
  stats: 'stats',
  graphSchema: 'schema/graph-v1.schema.json',
} as const;

export const graphPath = (id: string): string => `${RELEASE_FILES.graphs}/${id}.json.gz`;
export const tablePath = (table: string): string => `${RELEASE_FILES.data}/${table}.parquet`;

/** Licences named by SPDX id; others are accepted by id alone (no URL known). */
export const LICENSES: Record<string, { title: string; path: string }> = {
  'CC-BY-4.0': { title: 'Creative Commons Attribution 4.0 International', path: 'https://creativecommons.org/licenses/by/4.0/' },
  'CC-BY-SA-4.0': { title: 'Creative Commons Attribution-ShareAlike 4.0 International', path: 'https://creativecommons.org/licenses/by-sa/4.0/' },
  'CC0-1.0': { title: 'Creative Commons Zero v1.0 Universal', path: 'https://creativecommons.org/publicdomain/zero/1.0/' },
  'ODC-By-1.0': { title: 'Open Data Commons Attribution License v1.0', path: 'https://opendatacommons.org/licenses/by/1-0/' },
  'ODbL-1.0': { title: 'Open Data Commons Open Database License v1.0', path: 'https://opendatacommons.org/licenses/odbl/1-0/' },
};

export const SEMVER = /^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?$/;
export const SPDX_ID = /^[A-Za-z0-9][A-Za-z0-9.+-]*$/;

export function licenseText(id: string, year: number): string {
  const known = LICENSES[id];
  return [
    `This dataset is licensed under ${known ? `${known.title} (${id})` : id}.`,
    known ? `Full text: ${known.path}` : '',
    '',
    `Copyright ${year} the dataset's publishers. The pages described remain their owners' work; the`,
    'graphs, tables and statistics record how a browser loaded them.',
    '',
  ].join('\n');
}

export function sha256File(path: string): string {
  return createHash('sha256').update(readFileSync(path)).digest('hex');
}

/** Every file under `dir`, as sorted posix paths relative to it. */
export function listFiles(dir: string, prefix = ''): string[] {
  const out: string[] = [];
  for (const d of readdirSync(join(dir, prefix), { withFileTypes: true })) {
    const rel = prefix ? `${prefix}/${d.name}` : d.name;
    if (d.isDirectory()) out.push(...listFiles(dir, rel));
    else out.push(rel);
  }
  return out.sort();
}

export interface FileEntry {
  path: string;
  bytes: number;
  sha256: string;
}

export function fileEntries(dir: string, paths: string[]): FileEntry[] {
  return paths.map((p) => ({ path: p, bytes: statSync(join(dir, p)).size, sha256: sha256File(join(dir, p)) }));
}

export interface TableField {
  name: string;
  type: string;
  description: string;
}

/** What a release is: the facts its manifest and its card both state. */
export interface ReleaseFacts {
  name: string;
  version: string;
  license: string;
  created: string;
  meta: CorpusManifest;
  pages: number;
}

export interface ManifestInput extends ReleaseFacts {
  /** Every file of the release but the manifest. */
  files: FileEntry[];
  /** Frictionless fields per table (written by pcp_corpus). */
  tableFields: Record<string, TableField[]>;
  toolVersion: string;
}

const MEDIA: Array<[RegExp, string, string]> = [
  [/\.json\.gz$/, 'json', 'application/gzip'],
  [/\.parquet$/, 'parquet', 'application/vnd.apache.parquet'],
  [/\.json$/, 'json', 'application/json'],
  [/\.jsonl$/, 'jsonl', 'application/jsonl'],
  [/\.md$/, 'md', 'text/markdown'],
  [/\.png$/, 'png', 'image/png'],
  [/\.svg$/, 'svg', 'image/svg+xml'],
  [/\.txt$|^LICENSE$/, 'txt', 'text/plain'],
];

/** A Frictionless resource name: lower-case letters, digits, '-', '.', '_'. */
export function resourceName(path: string): string {
  return path.toLowerCase().replace(/[^a-z0-9._-]+/g, '-');
}

/** The Frictionless Data Package descriptor: one resource per file, each with its bytes and sha256. */
export function dataPackage(m: ManifestInput): Record<string, unknown> {
  const license = LICENSES[m.license];
  const tables = new Map<string, string>(TABLE_NAMES.map((t) => [tablePath(t), t]));
  return {
    $schema: 'https://datapackage.org/profiles/2.0/datapackage.json',
    name: m.name,
    title: `PCP page-load dependency graphs: ${m.name}`,
    description: `${m.pages} page loads as dependency graphs (PCP graph format v${SCHEMA_VERSION}), with Parquet tables of their pages, nodes, edges and resources, statistics and figures.`,
    version: m.version,
    created: m.created,
    licenses: [license ? { name: m.license, title: license.title, path: license.path } : { name: m.license }],
    sources: [{ title: m.meta.source === 'legacy' ? 'PCP 2016 patched-Chromium logs (Salameh 2018)' : `pages profiled by pcp corpus build (${m.meta.siteList})` }],
    keywords: ['web performance', 'page load', 'dependency graph', 'critical path', 'Chromium'],
    'pcp:graphSchemaVersion': SCHEMA_VERSION,
    'pcp:graphSchema': RELEASE_FILES.graphSchema,
    'pcp:corpusFormat': m.meta.format,
    'pcp:tool': `pcp ${m.toolVersion}`,
    resources: m.files.map((f) => {
      const [, format, mediatype] = MEDIA.find(([re]) => re.test(f.path)) ?? [null, 'bin', 'application/octet-stream'];
      const table = tables.get(f.path);
      return {
        name: resourceName(f.path),
        path: f.path,
        format,
        mediatype,
        bytes: f.bytes,
        hash: `sha256:${f.sha256}`,
        ...(table && m.tableFields[table] ? { type: 'table', schema: { fields: m.tableFields[table] } } : {}),
        ...(f.path.startsWith(`${RELEASE_FILES.graphs}/`) ? { 'pcp:graphSchemaVersion': SCHEMA_VERSION } : {}),
      };
    }),
  };
}
