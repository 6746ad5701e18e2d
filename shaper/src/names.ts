/**
 * Namespace names carry the owning process id, so a later process can tell a live link from one left
 * behind by a process that was killed (SIGKILL runs no handler) and remove it.
 */
import { isAlive } from '@pcp/profiler/child';
import { run } from './sys.ts';

export interface OwnedName {
  name: string;
  pid: number;
}

/** `pcp-<pid>-<n>-c` and `pcp-<pid>-<n>-s` for the n-th link of this process; `-probe` for scratch. */
export function namespaceNames(pid: number, n: number): { client: string; server: string } {
  return { client: `pcp-${pid}-${n}-c`, server: `pcp-${pid}-${n}-s` };
}

/** The shaper's namespaces among the lines of `ip netns list` (which may append "(id: N)"). */
export function parseNetnsList(out: string): OwnedName[] {
  const owned: OwnedName[] = [];
  for (const line of out.split('\n')) {
    const name = line.trim().split(/\s+/)[0] ?? '';
    const m = /^pcp-(\d+)-[a-z0-9-]+$/.exec(name);
    if (m) owned.push({ name, pid: Number(m[1]) });
  }
  return owned;
}

export { isAlive };

/** Deletes the shaper namespaces whose owner is dead; returns their names. */
export async function reapStale(): Promise<string[]> {
  const stale = parseNetnsList(await run(['ip', 'netns', 'list'])).filter((o) => o.pid !== process.pid && !isAlive(o.pid));
  const reaped: string[] = [];
  for (const o of stale) {
    await killNamespacePids(o.name);
    try {
      await run(['ip', 'netns', 'del', o.name]);
      reaped.push(o.name);
    } catch {
      // another process reaped it first
    }
  }
  return reaped;
}

/** SIGKILLs every process still inside a namespace (servers or browsers started through wrap()). */
export async function killNamespacePids(name: string): Promise<void> {
  let out = '';
  try {
    out = await run(['ip', 'netns', 'pids', name]);
  } catch {
    return;
  }
  for (const pid of out.split(/\s+/).filter(Boolean).map(Number)) {
    if (pid !== process.pid) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  }
}
