/**
 * Reading a legacy log from disk, gzip or plain: streamed line by line (`streamLegacyLogLines`), or
 * whole (`readLegacyLogFile`, for benchmarks and tests). A truncated gzip keeps every complete line that
 * could be inflated and adds a warning instead of failing.
 */
import { createReadStream, openSync, readSync, closeSync, readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { PassThrough, type Readable } from 'node:stream';
import { gunzipSync, createGunzip, constants } from 'node:zlib';

export interface LogText {
  text: string;
  warnings: string[];
  bytes: number;
}

export function readLegacyLogFile(path: string): LogText {
  const buf = readFileSync(path);
  return decodeLegacyLog(buf);
}

export function decodeLegacyLog(buf: Buffer): LogText {
  const warnings: string[] = [];
  if (buf.length >= 2 && buf[0] === 0x1f && buf[1] === 0x8b) {
    let out: Buffer;
    try {
      out = gunzipSync(buf);
    } catch {
      // Inflate what is there: Z_SYNC_FLUSH stops at the end of input without demanding the trailer.
      try {
        out = gunzipSync(buf, { finishFlush: constants.Z_SYNC_FLUSH });
      } catch (e) {
        throw new Error(`not a readable gzip file (${(e as Error).message})`);
      }
      let text = out.toString('utf8');
      const lastNl = text.lastIndexOf('\n');
      const partial = lastNl < text.length - 1;
      text = text.slice(0, lastNl + 1);
      const lines = text.split('\n').length - 1;
      warnings.push(`gzip stream is truncated: kept the ${lines} complete line(s) before the cut${partial ? ', dropped a partial last line' : ''}`);
      return { text, warnings, bytes: Buffer.byteLength(text) };
    }
    return { text: out.toString('utf8'), warnings, bytes: out.length };
  }
  return { text: buf.toString('utf8'), warnings, bytes: buf.length };
}

function isGzipFile(path: string): boolean {
  const fd = openSync(path, 'r');
  try {
    const head = Buffer.alloc(2);
    return readSync(fd, head, 0, 2, 0) === 2 && head[0] === 0x1f && head[1] === 0x8b;
  } finally {
    closeSync(fd);
  }
}

/**
 * The lines of a log file, streamed (gunzipped on the fly when the file is gzip, by magic bytes).
 * A gzip cut short ends the stream after the last complete line, with a warning pushed to `warnings`;
 * other read errors are thrown. File-open errors surface before the first line.
 */
export async function* streamLegacyLogLines(path: string, warnings: string[]): AsyncGenerator<string> {
  const gz = isGzipFile(path);
  const file = createReadStream(path);
  let source: Readable = file;
  let cut: Error | undefined;
  if (gz) {
    // Inflated bytes go through a PassThrough so that a truncated or corrupt gzip (an inflater error)
    // ends the line stream there instead of failing it; file errors still fail it.
    const gunzip = createGunzip();
    const out = new PassThrough();
    gunzip.on('error', (e) => {
      cut = e;
      out.end();
    });
    file.on('error', (e) => out.destroy(e));
    file.pipe(gunzip).pipe(out);
    source = out;
  }
  const rl = createInterface({ input: source, crlfDelay: Infinity });
  let n = 0;
  let pending: string | undefined;
  for await (const line of rl) {
    // Hold each line back one step: the last one read before a cut may be partial.
    if (pending !== undefined) {
      n++;
      yield pending;
    }
    pending = line;
  }
  if (cut) {
    warnings.push(`gzip stream is truncated or corrupt (${cut.message}): kept the ${n} line(s) before the cut${pending ? ' and dropped the last one read, which may be partial' : ''}`);
  } else if (pending !== undefined) yield pending;
}
