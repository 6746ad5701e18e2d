/**
 * Child processes that end with their parent, whatever ends the parent (SIGKILL and the OOM killer
 * included): the child is started through util-linux `setpriv --pdeathsig`, so the kernel signals it
 * when the process that spawned it dies. Without `setpriv` (not Linux, or util-linux missing) the child
 * is spawned plainly and outlives a killed parent, as any child would.
 *
 * The death signal is cleared when a child changes its effective user or group id: tcpdump, which drops
 * to its own user after opening the capture, must be told to stay root (`-Z root`; see pcap.ts).
 */
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, isAbsolute, join } from 'node:path';

const SETPRIV = '/usr/bin/setpriv';

let setprivUsable: boolean | undefined;
function hasSetpriv(): boolean {
  if (setprivUsable === undefined) {
    try {
      accessSync(SETPRIV, constants.X_OK);
      setprivUsable = process.platform === 'linux';
    } catch {
      setprivUsable = false;
    }
  }
  return setprivUsable;
}

/** The executable `cmd` names, looked up in PATH as a shell would; undefined when there is none. */
export function findExecutable(cmd: string, path = process.env.PATH ?? ''): string | undefined {
  const candidates = isAbsolute(cmd) || cmd.includes('/') ? [cmd] : path.split(delimiter).filter(Boolean).map((dir) => join(dir, cmd));
  for (const file of candidates) {
    try {
      accessSync(file, constants.X_OK);
      return file;
    } catch {
      // next
    }
  }
  return undefined;
}

/**
 * `spawn(cmd, args, options)`, tied to this process's life: the child gets `signal` (default SIGTERM,
 * which lets tcpdump and Chromium close their files) when this process dies. A missing executable
 * still fails the usual way (an 'error' event with code ENOENT).
 */
export function spawnTied(cmd: string, args: readonly string[], options: SpawnOptions = {}, signal = 'TERM'): ChildProcess {
  const exe = hasSetpriv() ? findExecutable(cmd, options.env?.PATH ?? process.env.PATH) : undefined;
  if (!exe) return spawn(cmd, args, options);
  return spawn(SETPRIV, ['--pdeathsig', signal, '--', exe, ...args], options);
}

/** Whether a process of this id exists (one of another user's counts: signalling it is refused, not unknown). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}
