import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { gunzipSync, gzipSync } from 'node:zlib';
import { basename } from 'node:path';
import type { Graph } from './types.ts';
import { assertValidGraph } from './validate.ts';
import { importLegacy, isLegacyGraph } from './legacy.ts';
import { legacyRawLogOf, readLegacyRawEvidence } from './legacy-raw.ts';

/** A file that could not be read as what it should be; the message names the file. */
export class GraphFileError extends Error {}

/** Reads a file's text, gunzipping when it is gzip (by magic bytes, not by name). */
export function readText(path: string): string {
  let buf: Buffer;
  try {
    buf = readFileSync(path);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new GraphFileError(code === 'ENOENT' ? `${path}: no such file` : `${path}: cannot read (${code ?? (e as Error).message})`);
  }
  if (buf.length >= 2 && buf[0] === 0x1f && buf[1] === 0x8b) {
    try {
      buf = gunzipSync(buf);
    } catch (e) {
      throw new GraphFileError(`${path}: corrupt or truncated gzip (${(e as Error).message})`);
    }
  }
  return buf.toString('utf8');
}

export function readJsonFile(path: string): unknown {
  const text = readText(path);
  try {
    return JSON.parse(text) as unknown;
  } catch (e) {
    throw new GraphFileError(`${path}: not valid JSON (${(e as Error).message})`);
  }
}

/** Writes JSON atomically (temp file + rename) so an interrupted run never leaves half a file; gzips for *.gz. */
export function writeJsonFile(path: string, data: unknown, pretty = false): void {
  const text = JSON.stringify(data, null, pretty ? 2 : undefined);
  const body = path.endsWith('.gz') ? gzipSync(text) : text;
  const tmp = `${path}.tmp-${process.pid}`;
  writeFileSync(tmp, body);
  renameSync(tmp, path);
}

/**
 * Turns parsed JSON into a v1 graph: v1 graphs are validated, legacy-layout graphs are imported, with
 * their raw log when the corpus layout has one beside them (`legacyRawLogOf`: request types, received
 * chunk times).
 */
export function toGraph(data: unknown, source: string): Graph {
  if (isLegacyGraph(data)) {
    const log = legacyRawLogOf(source);
    return importLegacy(data, { input: basename(source), ...(log ? { raw: readLegacyRawEvidence(log) } : {}) });
  }
  return assertValidGraph(data, source);
}

/** Reads a graph file (v1 or the original PCP layout, plain or gzipped). */
export function loadGraph(path: string): Graph {
  return toGraph(readJsonFile(path), path);
}
