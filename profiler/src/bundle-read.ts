/**
 * Validating readers for the bundle's files (the contract is bundle.ts, documented in BUNDLE.md).
 * Each returns undefined when the file is absent (every file but the trace is optional to a reader)
 * and throws BundleFileError with a one-line message naming the file when it is corrupt. Light: only
 * node:fs and node:zlib, so readers (graph builder, CLI, replay) import it without the capture.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { BUNDLE_FILES } from './bundle-files.ts';
import type { BundleFrame, BundleMeta, DevtoolsLogEntry, DocumentSource, FramesFile, ListenerRecord } from './bundle.ts';
import type { Har } from './archive.ts';

/** A bundle file that exists but is not what the contract says; the message names the file. */
export class BundleFileError extends Error {}

/** Names a reader accepts for the trace and the log, first found wins (plain JSON besides the profiler's). */
export const TRACE_NAMES = [BUNDLE_FILES.trace, 'trace.json'] as const;
export const DEVTOOLS_LOG_NAMES = [BUNDLE_FILES.devtoolsLog, 'devtools.log.json.gz'] as const;

/** The first of `names` present in `dir`. */
export function findBundleFile(dir: string, names: readonly string[]): string | undefined {
  return names.find((n) => existsSync(join(dir, n)));
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const optional = (o: Obj, k: string, type: string): boolean => o[k] === undefined || typeof o[k] === type;

/** The file's JSON (gunzipped when gzip, by magic bytes), or undefined when absent. */
function readJson(dir: string, name: string): unknown {
  const file = join(dir, name);
  if (!existsSync(file)) return undefined;
  let buf: Buffer;
  try {
    buf = readFileSync(file);
    if (buf.length >= 2 && buf[0] === 0x1f && buf[1] === 0x8b) buf = gunzipSync(buf);
  } catch (e) {
    throw new BundleFileError(`${name}: cannot read (${(e as Error).message})`);
  }
  try {
    return JSON.parse(buf.toString('utf8')) as unknown;
  } catch (e) {
    throw new BundleFileError(`${name}: not valid JSON (${(e as Error).message})`);
  }
}

/** Checks every element of a list file; the first bad one names the file and its index. */
function list<T>(value: unknown, name: string, what: string, ok: (v: Obj) => boolean): T[] {
  if (!Array.isArray(value)) throw new BundleFileError(`${name}: expected a list, each ${what}`);
  value.forEach((v, i) => {
    if (!isObj(v) || !ok(v)) throw new BundleFileError(`${name}: entry ${i} is not ${what}`);
  });
  return value as T[];
}

export function readFramesFile(dir: string, name: string = BUNDLE_FILES.frames): FramesFile | undefined {
  const v = readJson(dir, name);
  if (v === undefined) return undefined;
  if (!isObj(v) || !(v.mainFrameId === null || typeof v.mainFrameId === 'string')) throw new BundleFileError(`${name}: expected {mainFrameId, frames}`);
  const frames = list<BundleFrame>(v.frames, name, 'a frame {id, parentId, url}', (f) =>
    typeof f.id === 'string' && (f.parentId === null || typeof f.parentId === 'string') && typeof f.url === 'string');
  return { mainFrameId: v.mainFrameId, frames };
}

export function readDocuments(dir: string, name: string = BUNDLE_FILES.documents): DocumentSource[] | undefined {
  const v = readJson(dir, name);
  if (v === undefined) return undefined;
  return list<DocumentSource>(v, name, 'a document {requestId, url, frameId, mimeType, body?}', (d) =>
    typeof d.url === 'string' && typeof d.requestId === 'string' && typeof d.frameId === 'string' && optional(d, 'body', 'string') && optional(d, 'base64Encoded', 'boolean'));
}

export function readListeners(dir: string, name: string = BUNDLE_FILES.listeners): ListenerRecord[] | undefined {
  const v = readJson(dir, name);
  if (v === undefined) return undefined;
  return list<ListenerRecord>(v, name, 'a listener {frameId, target, type, scriptId, lineNumber, columnNumber}', (l) =>
    typeof l.frameId === 'string' && (l.target === 'window' || l.target === 'document') && typeof l.type === 'string' &&
    typeof l.scriptId === 'string' && typeof l.lineNumber === 'number' && typeof l.columnNumber === 'number');
}

/** The DevTools log under the first of DEVTOOLS_LOG_NAMES present, with the name it was read from. */
export function readDevtoolsLog(dir: string): { name: string; log: DevtoolsLogEntry[] } | undefined {
  const name = findBundleFile(dir, DEVTOOLS_LOG_NAMES);
  if (!name) return undefined;
  const log = list<DevtoolsLogEntry>(readJson(dir, name), name, 'a protocol event {method, params}', (e) => typeof e.method === 'string' && isObj(e.params));
  return { name, log };
}

/** meta.json, checked for the fields readers use (format, url, status, browser.product). */
export function readBundleMeta(dir: string, name: string = BUNDLE_FILES.meta): BundleMeta | undefined {
  const v = readJson(dir, name);
  if (v === undefined) return undefined;
  if (!isObj(v) || v.format !== 'pcp-bundle/1') throw new BundleFileError(`${name}: not a pcp-bundle/1 meta file`);
  if (typeof v.url !== 'string' || typeof v.status !== 'string') throw new BundleFileError(`${name}: no url or status`);
  if (v.browser !== undefined && !(isObj(v.browser) && typeof v.browser.product === 'string')) throw new BundleFileError(`${name}: browser has no product`);
  return v as unknown as BundleMeta;
}

/** archive.har (with --archive): HAR 1.2 with the profiler's extensions (archive.ts), checked down to log.entries. */
export function readArchiveHar(dir: string, name: string = BUNDLE_FILES.archive): Har | undefined {
  const v = readJson(dir, name);
  if (v === undefined) return undefined;
  if (!isObj(v) || !isObj(v.log) || !Array.isArray(v.log.entries)) throw new BundleFileError(`${name}: not a HAR file (no log.entries)`);
  return v as unknown as Har;
}
