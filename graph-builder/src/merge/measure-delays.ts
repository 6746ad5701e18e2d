/**
 * Server delays measured by the server-delays Python package (server-delays/, thesis §3.4.1): the one
 * place that runs `python -m server_delays` (python3, or $PYTHON). `pcp delays` passes its arguments
 * through; `pcp build`, `pcp replay` and the replay bench measure a bundle's capture to a temporary
 * JSON file and read its records.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT } from '../legacy-corpus.ts';

export interface DelaysRun {
  /** The exit code of `python -m server_delays`. */
  code: number;
  /** Its `error: ...` line (or the first line of a traceback), when it printed one. */
  error: string | undefined;
}

/** Runs `python -m server_delays ARGS`, passing its stderr through except the error line it returns. */
export async function runServerDelays(args: readonly string[]): Promise<DelaysRun> {
  const { spawnTied } = await import('@pcp/profiler');
  const python = process.env['PYTHON'] ?? 'python3';
  return new Promise((done, fail) => {
    const child = spawnTied(python, ['-m', 'server_delays', ...args], {
      stdio: ['ignore', 'inherit', 'pipe'],
      env: { ...process.env, PYTHONPATH: [join(REPO_ROOT, 'server-delays', 'src'), process.env['PYTHONPATH']].filter(Boolean).join(':') },
    });
    let error: string | undefined;
    let tail = '';
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (chunk: string) => {
      const lines = (tail + chunk).split('\n');
      tail = lines.pop() ?? '';
      for (const line of lines) {
        if (line.startsWith('error: ')) error = line.slice(7);
        else if (line.startsWith('Traceback') || /^\s|^[A-Za-z]+Error/.test(line)) error ??= line.trim();
        else process.stderr.write(`${line}\n`);
      }
    });
    child.on('error', (e) => fail(new Error(`cannot run ${python}: ${e.message}`)));
    child.on('close', (code) => {
      if (tail.startsWith('error: ')) error = tail.slice(7);
      done({ code: code ?? 1, error });
    });
  });
}

/**
 * The JSON `pcp delays BUNDLE --format json` writes, measured from the bundle's capture into a temporary
 * file that is removed afterwards. Throws an Error with the package's one-line reason when it fails.
 */
export async function measureServerDelays(bundle: string): Promise<unknown> {
  const tmp = mkdtempSync(join(tmpdir(), 'pcp-delays-'));
  try {
    const file = join(tmp, 'delays.json');
    const { code, error } = await runServerDelays([bundle, '--out', file, '--format', 'json']);
    if (code !== 0) throw new Error(error ?? `server_delays exited with ${code}`);
    return JSON.parse(readFileSync(file, 'utf8')) as unknown;
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}
