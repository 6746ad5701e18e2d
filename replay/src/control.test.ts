/**
 * The control protocol of `pcp replay --serve --control` over a real replay server on loopback: `stats`
 * counts what was served, `reset` is a fresh start for the next load (counts zeroed, the open connection
 * closed), and the server closes when its input ends.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { readArchive } from './archive.ts';
import { ControlClient, runControlled } from './control.ts';
import { startReplayServer } from './server.ts';
import { writeBundle } from './testing.ts';

test("'stats' counts the requests served; 'reset' zeroes them and closes the open connection", { timeout: 120_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'pcp-replay-control-'));
  const agent = new http.Agent({ keepAlive: true });
  try {
    writeBundle(dir, 'http://www.site.test/', [{ url: 'http://www.site.test/', body: Buffer.from('<p>page</p>') }]);
    const server = await startReplayServer(readArchive(dir));
    const toServer = new PassThrough();
    const fromServer = new PassThrough();
    const served = runControlled(server, toServer, fromServer);
    const client = new ControlClient(toServer, fromServer, served.then(() => 'closed'));
    const ready = await client.ready;
    const port = ready.origins[0]!.listenPort;
    let socketClosed!: Promise<void>;
    const status = await new Promise<number>((resolve, reject) => {
      const req = http.get({ host: '127.0.0.1', port, path: '/', headers: { host: 'www.site.test' }, agent }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode!));
      });
      req.on('socket', (s) => (socketClosed = new Promise((r) => s.once('close', () => r()))));
      req.on('error', reject);
    });
    assert.equal(status, 200);
    assert.equal((await client.stats()).requests, 1);
    await client.reset();
    assert.equal((await client.stats()).requests, 0);
    await socketClosed; // the kept-alive connection: closed by the server (else the test times out)
    toServer.end();
    await served;
  } finally {
    agent.destroy();
    rmSync(dir, { recursive: true, force: true });
  }
});
