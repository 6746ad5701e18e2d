import { test } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { holdRefusedUrl } from './refused.ts';

const connect = (host: string, port: number): Promise<string> => new Promise((resolve) => {
  const s = net.connect(port, host);
  s.once('connect', () => (s.destroy(), resolve('connected')));
  s.once('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? e.message));
});

const listen = (host: string, port: number): Promise<string> => new Promise((resolve) => {
  const s = net.createServer();
  s.once('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? e.message));
  s.listen(port, host, () => s.close(() => resolve('listening')));
});

test('a held refused URL: connections to it are refused, and its port cannot be taken on any address meanwhile', async () => {
  const r = await holdRefusedUrl();
  try {
    assert.equal(r.url, `http://127.0.0.2:${r.port}/`);
    assert.equal(await connect('127.0.0.2', r.port), 'ECONNREFUSED');
    assert.equal(await listen('0.0.0.0', r.port), 'EADDRINUSE');
    assert.equal(await listen('127.0.0.1', r.port), 'EADDRINUSE');
  } finally {
    await r.close();
  }
});
