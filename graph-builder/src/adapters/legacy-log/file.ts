/**
 * Reading a legacy log from disk, gzip or plain. A truncated gzip keeps every complete line that could
 * be inflated and adds a warning instead of failing.
 */
import { readFileSync } from 'node:fs';
import { gunzipSync, constants } from 'node:zlib';

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
