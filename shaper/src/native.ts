/**
 * The shaper's two C programs: the delay line (it must keep up at 100 Mbit/s with sub-millisecond
 * release times) and rttping (ICMP echo with kernel timestamps). Each is compiled on first use into
 * shaper/build/ (gitignored), and again whenever its source is newer; scripts/setup.sh installs gcc.
 * Concurrent builders each write a private file and rename it into place.
 */
import { existsSync, mkdirSync, renameSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { run } from './sys.ts';

export type NativeProgram = 'delayline' | 'rttping';

export function nativeSource(name: NativeProgram): string {
  return fileURLToPath(new URL(`../native/${name}.c`, import.meta.url));
}

export function nativeBinaryPath(name: NativeProgram): string {
  return fileURLToPath(new URL(`../build/${name}`, import.meta.url));
}

/** The path of the compiled program, building it when needed. */
export async function nativeBinary(name: NativeProgram): Promise<string> {
  const src = nativeSource(name);
  const bin = nativeBinaryPath(name);
  if (existsSync(bin) && statSync(bin).mtimeMs >= statSync(src).mtimeMs) return bin;
  mkdirSync(fileURLToPath(new URL('../build/', import.meta.url)), { recursive: true });
  const tmp = `${bin}.${process.pid}.tmp`;
  await run([process.env.CC ?? 'gcc', '-O2', '-Wall', '-o', tmp, src]);
  renameSync(tmp, bin);
  return bin;
}
