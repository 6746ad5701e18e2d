/**
 * Issue 17 with real parts: a loopback server that sends a response's headers, holds, then sends its
 * body in one piece (a style sheet of the page's origin, and a script of another origin, whose
 * responseReceived Chromium gives the renderer only once the body is in), recorded with real Chromium
 * (`--archive`), replayed with `--pace`, loaded again: the replayed load's network service reads each
 * body at least half the hold after its headers (a lower bound a loaded machine only widens).
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { capturePage, headersReadAt, type DevtoolsLogEntry } from '@pcp/profiler';
import { readArchive } from './archive.ts';
import { startReplayServer } from './server.ts';

const HOLD_MS = 1000;
const work = mkdtempSync(join(tmpdir(), 'pcp-replay-held-'));
after(() => rmSync(work, { recursive: true, force: true }));

/** One origin on 127.0.0.1: `routes` by path, each [content type, body, ms to hold the body after the headers]. */
async function origin(routes: (port: () => number) => Record<string, [string, string, number]>): Promise<{ port: number; close(): Promise<void> }> {
  let port = 0;
  const timers = new Set<NodeJS.Timeout>();
  const table = routes(() => port);
  const server = http.createServer((req, res) => {
    const r = table[req.url ?? ''];
    if (!r) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
      return;
    }
    const [type, body, holdMs] = r;
    res.writeHead(200, { 'content-type': type, 'content-length': String(Buffer.byteLength(body)), 'cache-control': 'no-store', 'timing-allow-origin': '*' });
    res.flushHeaders();
    const t = setTimeout(() => {
      timers.delete(t);
      res.end(body);
    }, holdMs);
    timers.add(t);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  return {
    port,
    close: () => {
      for (const t of timers) clearTimeout(t);
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/** Per URL ending: ms from the network service's reading of the headers to the body's end (loadingFinished), from a bundle's DevTools log. */
function bodyReads(dir: string, suffixes: readonly string[]): Record<string, number> {
  const log = JSON.parse(readFileSync(join(dir, 'devtools.log.json'), 'utf8')) as DevtoolsLogEntry[];
  const out: Record<string, number> = {};
  for (const suffix of suffixes) {
    const resp = log.find((e) => e.method === 'Network.responseReceived' && String((e.params.response as { url: string }).url).endsWith(suffix));
    assert.ok(resp, `${suffix} was loaded`);
    const id = resp.params.requestId;
    const done = log.find((e) => e.method === 'Network.loadingFinished' && e.params.requestId === id);
    const headersAt = headersReadAt(resp.params.response as Record<string, unknown>);
    assert.ok(done && headersAt !== undefined, `${suffix} finished, with timing`);
    out[suffix] = Math.round(((done.params.timestamp as number) - headersAt) * 1e4) / 10;
  }
  return out;
}

test('a body held after its headers (one piece; a cross-origin script) is held again by replay --pace', async (t) => {
  const scripts = await origin(() => ({ '/held.js': ['text/javascript', 'window.heldRan = true;\n', HOLD_MS] }));
  const page = await origin((port) => ({
    '/': ['text/html', `<!DOCTYPE html><html><head><link rel="stylesheet" href="/held.css"><script src="http://127.0.0.1:${scripts.port}/held.js"></script></head><body><p>held</p></body></html>\n`, 0],
    '/held.css': ['text/css', 'p { color: green; }\n', HOLD_MS],
  }));
  const recorded = join(work, 'recorded');
  try {
    const { meta } = await capturePage(`http://127.0.0.1:${page.port}/`, recorded, { archive: true, quietMs: 500 });
    assert.equal(meta.status, 'complete', meta.message);
  } finally {
    await Promise.all([page.close(), scripts.close()]);
  }
  const suffixes = ['/held.css', '/held.js'];
  t.diagnostic(`recorded: headers to body end ${JSON.stringify(bodyReads(recorded, suffixes))} ms (held ${HOLD_MS})`);
  const log = JSON.parse(readFileSync(join(recorded, 'devtools.log.json'), 'utf8')) as DevtoolsLogEntry[];
  const js = log.find((e) => e.method === 'Network.responseReceived' && String((e.params.response as { url: string }).url).endsWith('/held.js'))!;
  const lateBy = ((js.params.timestamp as number) - headersReadAt(js.params.response as Record<string, unknown>)!) * 1000;
  t.diagnostic(`recorded: the cross-origin script's responseReceived came ${lateBy.toFixed(1)} ms after its headers were read`);

  // The archive keeps each hold as one chunk timed from the headers.
  const archive = readArchive(recorded);
  for (const suffix of suffixes) {
    const e = archive.entries.find((x) => x.url.endsWith(suffix))!;
    assert.equal(e.chunks?.length, 1, `${suffix}: one piece, archived with its arrival (${JSON.stringify(e.chunks)})`);
    assert.ok(e.chunks![0]![0] >= HOLD_MS / 2, `${suffix}: archived at ${e.chunks![0]![0]} ms after the headers`);
  }

  const server = await startReplayServer(archive, { pace: true });
  const replayed = join(work, 'replayed');
  try {
    const { meta } = await capturePage(server.pageUrl, replayed, { chromiumArgs: server.chromiumArgs, quietMs: 500 });
    assert.equal(meta.status, 'complete', meta.message);
    assert.deepEqual(server.stats.misses, []);
  } finally {
    await server.close();
  }
  // The same archive unpaced, as every one-piece body was served before (issue 17): a figure, not a check.
  const unpacedServer = await startReplayServer(archive, { pace: false });
  const unpaced = join(work, 'unpaced');
  try {
    await capturePage(unpacedServer.pageUrl, unpaced, { chromiumArgs: unpacedServer.chromiumArgs, quietMs: 500 });
  } finally {
    await unpacedServer.close();
  }
  t.diagnostic(`replayed unpaced: headers to body end ${JSON.stringify(bodyReads(unpaced, suffixes))} ms`);
  const reads = bodyReads(replayed, suffixes);
  t.diagnostic(`replayed --pace: headers to body end ${JSON.stringify(reads)} ms`);
  for (const suffix of suffixes) assert.ok(reads[suffix]! >= HOLD_MS / 2, `${suffix}: the replay held the body ${reads[suffix]} ms (recorded hold ${HOLD_MS})`);
});
