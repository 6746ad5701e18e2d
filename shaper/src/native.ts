/**
 * The delay line is C (it must keep up at 100 Mbit/s with sub-millisecond release times). It is
 * compiled on first use into shaper/build/ (gitignored), and again whenever the source is newer;
 * scripts/setup.sh installs gcc. Concurrent builders each write a private file and rename it.
 */
import { existsSync, mkdirSync, renameSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { run } from './sys.ts';

export const DELAY_LINE_SOURCE = fileURLToPath(new URL('../native/delayline.c', import.meta.url));
export const DELAY_LINE_BINARY = fileURLToPath(new URL('../build/delayline', import.meta.url));

function upToDate(): boolean {
  return existsSync(DELAY_LINE_BINARY) && statSync(DELAY_LINE_BINARY).mtimeMs >= statSync(DELAY_LINE_SOURCE).mtimeMs;
}

/** The path of the compiled delay line, building it when needed. */
export async function delayLineBinary(): Promise<string> {
  if (upToDate()) return DELAY_LINE_BINARY;
  mkdirSync(fileURLToPath(new URL('../build/', import.meta.url)), { recursive: true });
  const tmp = `${DELAY_LINE_BINARY}.${process.pid}.tmp`;
  await run([process.env.CC ?? 'gcc', '-O2', '-Wall', '-o', tmp, DELAY_LINE_SOURCE]);
  renameSync(tmp, DELAY_LINE_BINARY);
  return DELAY_LINE_BINARY;
}
