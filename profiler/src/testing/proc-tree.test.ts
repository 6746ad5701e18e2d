import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { randomUUID } from 'node:crypto';
import { descendants, processesNaming, running, waitFor } from './proc-tree.ts';

test('processesNaming finds a running process by an argument, and not once it has ended; descendants and running agree', async () => {
  const mark = `pcp-proc-tree-test-${randomUUID()}`;
  const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)', mark], { stdio: 'ignore' });
  const exited = once(child, 'exit');
  try {
    assert.ok(await waitFor(() => processesNaming(mark).length === 1, 30_000, 20), 'the child is found by its argument');
    assert.deepEqual(processesNaming(mark).map((p) => p.pid), [child.pid]);
    assert.ok(descendants(process.pid).some((p) => p.pid === child.pid));
    assert.equal(running(child.pid!), true);
  } finally {
    child.kill('SIGKILL');
  }
  await exited;
  assert.deepEqual(processesNaming(mark), []);
  assert.equal(running(child.pid!), false);
});
