import { spawn } from 'node:child_process';

export interface Ran {
  /** The child's process id (what it named its namespaces or files after). */
  pid: number | undefined;
  status: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs a command without blocking this process's event loop (tests that host a server in-process would
 * deadlock under spawnSync), killing it after `timeoutMs`.
 */
export function runAsync(cmd: string, args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv; timeoutMs?: number } = {}): Promise<Ran> {
  return new Promise((done) => {
    const child = spawn(cmd, args, { cwd: options.cwd, env: options.env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 120_000);
    child.on('close', (status) => {
      clearTimeout(timer);
      done({ pid: child.pid, status, stdout, stderr });
    });
  });
}
