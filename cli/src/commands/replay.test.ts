/** `pcp replay` without a browser: usage errors, the no-archive failure, and --serve on a small archive. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import http from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';
import { command } from './replay.ts';
import { CliError, UsageError } from '../kit.ts';
import { writeBundle } from '@pcp/replay/testing';

const PCP = fileURLToPath(new URL('../../bin/pcp.js', import.meta.url));

test('usage errors and a bundle without an archive are one-line failures', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'pcp-replay-cli-'));
  try {
    await assert.rejects(command.run([]), (e: Error) => e instanceof UsageError && /one BUNDLE/.test(e.message));
    await assert.rejects(command.run([dir, '--protocol', 'h3']), (e: Error) => e instanceof UsageError && /h1 or h2/.test(e.message));
    await assert.rejects(command.run([dir, '--control']), (e: Error) => e instanceof UsageError && /--control goes with --serve/.test(e.message));
    await assert.rejects(command.run([dir, '--bandwidth', '5mbit']), (e: Error) => e instanceof UsageError && /both --bandwidth and --rtt/.test(e.message));
    await assert.rejects(command.run([dir, '--bandwidth', 'fast', '--rtt', '40ms']), (e: Error) => e instanceof UsageError && /not a rate/.test(e.message));
    await assert.rejects(command.run([dir, '--bandwidth', '5mbit', '--rtt', '40ms', '--loss', '200%']), (e: Error) => e instanceof UsageError && /loss/.test(e.message));
    await assert.rejects(command.run([dir, '--serve', '--rtt', '40ms', '--bandwidth', '1mbit']), UsageError);
    await assert.rejects(command.run([dir, '--runs', '0']), UsageError);
    await assert.rejects(command.run([dir]), (e: Error) => e instanceof CliError && /has no archive\.har/.test(e.message) && !e.message.includes('\n'));
    assert.match(command.usage, /--bandwidth/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('--serve --port: one ready line with the URL and the rules, requests answered, counters printed on SIGTERM', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'pcp-replay-cli-'));
  writeBundle(dir, 'http://10.1.2.3:8000/', [{ url: 'http://10.1.2.3:8000/', body: Buffer.from('<p>replayed</p>') }]);
  const child = spawn(process.execPath, [PCP, 'replay', dir, '--serve', '--port', '0', '--no-server-delays'], { stdio: ['ignore', 'pipe', 'pipe'] });
  try {
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const line = await new Promise<string>((resolve) => createInterface({ input: child.stdout }).once('line', resolve));
    assert.match(line, /^replaying http:\/\/10\.1\.2\.3:8000\/ \(1 origins: .*load it with: chromium '--host-resolver-rules=MAP 10\.1\.2\.3:8000 127\.0\.0\.1:(\d+), MAP \* ~NOTFOUND' http:\/\/10\.1\.2\.3:8000\/$/);
    const port = Number(/127\.0\.0\.1:(\d+)/.exec(line)![1]);
    const body = await new Promise<string>((resolve, reject) => {
      http.get({ host: '127.0.0.1', port, path: '/', headers: { host: '10.1.2.3:8000' } }, (res) => {
        let b = '';
        res.on('data', (d: Buffer) => (b += d.toString()));
        res.on('end', () => resolve(b));
      }).on('error', reject);
    });
    assert.equal(body, '<p>replayed</p>');
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    child.kill('SIGTERM');
    assert.equal(await exited, 130);
    assert.match(stderr, /replay stopped: 1 requests, 1 exact, 0 by query, 0 misses/);
  } finally {
    child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  }
});
