/**
 * Children end with their parent, whatever the signal (issue 11): `pcp profile --pcap` killed with
 * SIGKILL (a test timeout, `kill -9`, the OOM killer) must not leave tcpdump or Chromium running, and
 * `pcp view` must not leave a server behind. The page never finishes loading (an image that is never
 * answered), so the capture is surely in progress when the CLI is killed.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { once } from 'node:events';
import { descendants, processesNaming, running, waitFor } from '@pcp/profiler/testing';
import { profileDirOwner, reapStaleProfileDirs } from '@pcp/profiler';

const BIN = fileURLToPath(new URL('../bin/pcp.js', import.meta.url));

async function hangingSite(): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    if (req.url === '/') {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<!doctype html><title>never done</title><img src="/hang">');
    }
    // Anything else is never answered: the load event never fires.
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/` };
}

test('pcp profile --pcap killed with SIGKILL leaves neither tcpdump nor Chromium running, and the next launch removes its profile', async () => {
  const { server, url } = await hangingSite();
  const out = mkdtempSync(join(tmpdir(), 'pcp-orphans-'));
  const cli = spawn(process.execPath, [BIN, 'profile', url, '--out', join(out, 'bundle'), '--pcap', '--timeout', '300000'], { stdio: 'ignore' });
  try {
    const pid = cli.pid!;
    let seen: { pid: number; comm: string }[] = [];
    const started = await waitFor(() => {
      seen = descendants(pid);
      return seen.some((p) => p.comm === 'tcpdump') && seen.some((p) => /chrom/.test(p.comm));
    }, 90_000, 200);
    assert.ok(started, `tcpdump and Chromium under the CLI (saw: ${seen.map((p) => p.comm).join(', ') || 'nothing'})`);
    seen = descendants(pid); // every process of the capture, Chromium's helpers included
    const dirs = readdirSync(tmpdir()).filter((name) => profileDirOwner(name) === pid);
    assert.equal(dirs.length, 1, 'the capture\'s Chromium user-data-dir, named by its owner');
    // Chromium may start a helper after the snapshot: every one of its processes names the user-data-dir.
    const ofCapture = (): { pid: number; comm: string }[] => [...seen.filter((p) => running(p.pid)), ...processesNaming(`--user-data-dir=${join(tmpdir(), dirs[0]!)}`)];
    const exited = once(cli, 'exit');
    cli.kill('SIGKILL');
    // Reaped, not a zombie: the owner of the user-data-dir must be dead for the reap below, and a zombie's pid still answers.
    await exited;
    const ended = await waitFor(() => ofCapture().length === 0, 15_000);
    assert.ok(ended, `still running 15 s after the CLI was killed: ${ofCapture().map((p) => `${p.comm} (${p.pid})`).join(', ')}`);
    // No handler ran, so its Chromium user-data-dir is left for the next launch to reap. Another launch running
    // beside this test (a parallel test file, a user's pcp) may reap it first: either way it is gone after one.
    const reaped = reapStaleProfileDirs().filter((name) => profileDirOwner(name) === pid);
    assert.ok(reaped.length <= 1, 'reaped at most once');
    assert.ok(!existsSync(join(tmpdir(), dirs[0]!)), 'the killed capture\'s user-data-dir is gone after the next launch\'s reap');
  } finally {
    cli.kill('SIGKILL');
    server.closeAllConnections();
    server.close();
    rmSync(out, { recursive: true, force: true });
  }
});

test('pcp view killed with SIGKILL leaves nothing listening', async () => {
  const view = spawn(process.execPath, [BIN, 'view', '--port', '0'], { stdio: ['ignore', 'pipe', 'ignore'] });
  try {
    let text = '';
    view.stdout!.setEncoding('utf8');
    view.stdout!.on('data', (d: string) => (text += d));
    assert.ok(await waitFor(() => /http:\/\/127\.0\.0\.1:\d+/.test(text), 60_000), `no URL printed: ${text}`);
    const port = Number(/127\.0\.0\.1:(\d+)/.exec(text)![1]);
    const children = descendants(view.pid!);
    view.kill('SIGKILL');
    await once(view, 'exit');
    assert.ok(await waitFor(() => children.every((p) => !running(p.pid)), 15_000), 'a child of pcp view outlived it');
    const refused = await new Promise<boolean>((resolve) => {
      const s = connect(port, '127.0.0.1');
      s.once('connect', () => { s.destroy(); resolve(false); });
      s.once('error', () => resolve(true));
    });
    assert.ok(refused, `port ${port} still accepts connections after pcp view was killed`);
  } finally {
    view.kill('SIGKILL');
  }
});
