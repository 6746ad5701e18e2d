/** Running the system tools the shaper drives (ip, tc), failures mapped to one-line ShaperErrors. */
import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import { commandError } from './errors.ts';

const execFileP = promisify(execFile);

export async function run(argv: readonly string[]): Promise<string> {
  try {
    const { stdout } = await execFileP(argv[0]!, argv.slice(1), { encoding: 'utf8' });
    return stdout;
  } catch (e) {
    throw commandError(argv, e as { code?: unknown; stderr?: unknown; message?: string });
  }
}

/** For exit handlers, where nothing asynchronous runs any more; errors are ignored (best effort). */
export function runSyncQuiet(argv: readonly string[]): string {
  try {
    return execFileSync(argv[0]!, argv.slice(1), { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  } catch {
    return '';
  }
}
