import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { makeProfileDir, profileDirOwner, reapStaleProfileDirs } from './profile-dirs.ts';

test('profileDirOwner: the pid in pcp-chromium-<pid>-XXXXXX, nothing for other names', () => {
  assert.equal(profileDirOwner('pcp-chromium-4242-aB3xYz'), 4242);
  assert.equal(profileDirOwner('pcp-chromium-aB3xYz'), undefined); // made before dirs carried their owner
  assert.equal(profileDirOwner('org.chromium.Chromium.aB3xYz'), undefined);
});

test('reapStaleProfileDirs removes the dirs of dead owners only, and is quiet about a missing dir', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pcp-profile-dirs-'));
  try {
    const dead = spawnSync(process.execPath, ['-e', '0']).pid; // a process that has exited
    const mine = makeProfileDir(dir);
    const orphan = join(dir, `pcp-chromium-${dead}-orphan`);
    const unowned = join(dir, 'pcp-chromium-legacy1');
    for (const d of [orphan, unowned]) mkdirSync(join(d, 'Default'), { recursive: true });
    assert.equal(profileDirOwner(basename(mine)), process.pid);
    assert.deepEqual(reapStaleProfileDirs(dir), [basename(orphan)]);
    assert.deepEqual(readdirSync(dir).sort(), [basename(mine), basename(unowned)].sort());
    assert.deepEqual(reapStaleProfileDirs(join(dir, 'nowhere')), []);
    assert.ok(existsSync(mine));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
