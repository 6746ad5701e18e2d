/**
 * Chromium's user-data-dirs, one per capture, named after the process that made them
 * (`pcp-chromium-<pid>-XXXXXX` in the temp dir). A capture removes its own when it ends; one whose owner was
 * killed (SIGKILL, the OOM killer: no handler runs) stays behind, and the next launch removes it, as the
 * shaper does with its namespaces.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isAlive } from './child.ts';

const PREFIX = 'pcp-chromium-';

/** A fresh user-data-dir owned by this process. */
export function makeProfileDir(dir = tmpdir()): string {
  return mkdtempSync(join(dir, `${PREFIX}${process.pid}-`));
}

/** The owner's process id of a user-data-dir name; undefined for any other name. */
export function profileDirOwner(name: string): number | undefined {
  const m = /^pcp-chromium-(\d+)-[^/]+$/.exec(name);
  return m ? Number(m[1]) : undefined;
}

/** Removes the user-data-dirs in `dir` whose owner is dead; returns their names. Never throws. */
export function reapStaleProfileDirs(dir = tmpdir()): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const reaped: string[] = [];
  for (const name of names) {
    const owner = profileDirOwner(name);
    if (owner === undefined || owner === process.pid || isAlive(owner)) continue;
    try {
      rmSync(join(dir, name), { recursive: true, force: true });
      reaped.push(name);
    } catch {
      // another process reaped it first, or a file is held: the next launch tries again
    }
  }
  return reaped;
}
