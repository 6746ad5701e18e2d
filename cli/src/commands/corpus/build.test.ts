/**
 * `pcp corpus build` end to end, as a user runs it: the example site on loopback (two origins), real
 * Chromium, tcpdump, the server-delays package and the graph builder. A site list with a page, a port
 * nobody listens on and a line that is not a URL; a build killed mid-site and resumed; the same list on a
 * Dask LocalCluster of two worker processes with one worker killed while it loads a page.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pageId, type PageStatus } from '@pcp/corpus';
import { validateGraph, type Graph } from '@pcp/graph-builder';
import { descendants, holdRefusedUrl, startTestServer, running, waitFor, type TestServer } from '@pcp/profiler/testing';
import { runAsync } from '../../testing/run.ts';

const BIN = fileURLToPath(new URL('../../../bin/pcp.js', import.meta.url));
const SITE = fileURLToPath(new URL('../../../../profiler/example-site/', import.meta.url));
const pcp = (...args: string[]) => runAsync(process.execPath, [BIN, ...args], { timeoutMs: 300_000 });

/**
 * A loopback server that accepts connections and never answers: a page that never loads. (A delayed page of
 * the test server would leave its delay's timer behind, keeping this file's process alive until it fires.)
 */
async function silentServer(): Promise<{ url: string; close: () => Promise<void> }> {
  const sockets = new Set<Socket>();
  const s = createServer((sock) => {
    sockets.add(sock);
    sock.on('close', () => sockets.delete(sock));
  });
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: async () => {
      for (const sock of sockets) sock.destroy();
      await new Promise((r) => s.close(r));
    },
  };
}

const pageOf = (dir: string, url: string) => join(dir, 'pages', pageId(url));
const statusOf = (dir: string, url: string) => JSON.parse(readFileSync(join(pageOf(dir, url), 'status.json'), 'utf8')) as PageStatus;

function assertBuilt(dir: string, url: string): void {
  const page = pageOf(dir, url);
  assert.ok(existsSync(join(page, 'DONE')), `${url}: DONE`);
  assert.deepEqual(readdirSync(page).sort(), ['DONE', 'bundle', 'delays.json', 'graph.json', 'status.json'], url);
  const graph = JSON.parse(readFileSync(join(page, 'graph.json'), 'utf8')) as Graph;
  assert.ok(validateGraph(graph).ok, `${url}: graph v1`);
  assert.equal(graph.page.url.split('?')[0], url.split('?')[0]);
  // Every resource of the example site is in the graph, with the server delay measured from the capture.
  const resources = graph.nodes.filter((n) => n.kind === 'resource');
  for (const file of ['app.js', 'analytics.js', 'news.json', 'hero.png', 'style.css']) {
    const r = resources.find((n) => n.kind === 'resource' && new URL(n.url).pathname === `/${file}`);
    assert.ok(r && r.kind === 'resource' && r.serverDelay !== undefined, `${url}: ${file} with a server delay`);
  }
  assert.equal(statusOf(dir, url).status, 'ok');
}

async function withServer(fn: (server: TestServer, dir: string) => Promise<void>): Promise<void> {
  const server = await startTestServer({ root: SITE, origins: [{ name: 'a' }, { name: 'b' }] });
  const dir = mkdtempSync(join(tmpdir(), 'pcp-corpus-build-'));
  try {
    await fn(server, dir);
  } finally {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

test('a site list: a built page, an unreachable site retried then recorded, a bad line reported; statuses', async (t) => {
  // Connection refused, on a port held for the test (a port merely closed could be taken meanwhile).
  const held = await holdRefusedUrl();
  t.after(() => held.close());
  await withServer(async (server, dir) => {
    const good = [server.urls.a!];
    const unreachable = held.url;
    const list = join(dir, 'sites.txt');
    const text = `# three lines: a page, a bad line, a port nobody listens on\n${good[0]}\nnot a url\n\n${unreachable}\n`;
    writeFileSync(list, text);
    const out = join(dir, 'corpus');
    const r = await pcp('corpus', 'build', list, '--out', out, '--pcap', '--concurrency', '2', '--retries', '1',
      '--host-resolver-rules', server.hostResolverRules);
    assert.equal(r.status, 1, r.stderr);
    assert.match(r.stderr, /sites\.txt:3: not a URL: not a url \(skipped\)/);
    for (const url of good) {
      assert.match(r.stdout, new RegExp(`^ok +${url.replace(/[.?]/g, '\\$&')}$`, 'm'));
      assertBuilt(out, url);
    }
    assert.match(r.stdout, new RegExp(`^failed +${unreachable.replace(/\./g, '\\.')} — unreachable: `, 'm'));
    assert.match(r.stdout, /^1 ok \(0 already built\), 1 failed, 1 bad line\(s\) skipped/m);
    const failed = statusOf(out, unreachable);
    assert.equal(failed.status, 'failed');
    assert.equal(failed.attempts, 2);
    assert.match(failed.reason ?? '', /^unreachable: /);
    assert.ok(!existsSync(join(pageOf(out, unreachable), 'DONE')));
    const failures = readFileSync(join(out, 'failures.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { url: string; attempts: number });
    assert.deepEqual(failures.map((f) => [f.url, f.attempts]), [[unreachable, 2]]);
    assert.equal(readFileSync(join(out, 'sites.txt'), 'utf8'), text);
    const manifest = JSON.parse(readFileSync(join(out, 'corpus.json'), 'utf8')) as { format: string; source: string; settings: { runs: number; profiler: { pcap: boolean } } };
    assert.equal(manifest.format, 'pcp-corpus/1');
    assert.equal(manifest.source, 'sites');
    assert.equal(manifest.settings.profiler.pcap, true);
  });
});

test('a build killed mid-site resumes: finished pages are kept, the unfinished one is rebuilt from scratch', async () => {
  await withServer(async (server, dir) => {
    const first = server.urls.a!;
    const slow = `${server.urls.a!}index.html?delay=4000`;
    const list = join(dir, 'sites.txt');
    writeFileSync(list, `${first}\n${slow}\n`);
    const out = join(dir, 'corpus');
    const args = ['corpus', 'build', list, '--out', out, '--pcap', '--host-resolver-rules', server.hostResolverRules];
    const child = spawn(process.execPath, [BIN, ...args], { stdio: 'ignore' });
    const exited = new Promise((r) => child.on('close', r));
    const started = await waitFor(() => existsSync(join(pageOf(out, first), 'DONE')) && existsSync(join(pageOf(out, slow), 'bundle')), 240_000);
    child.kill('SIGKILL');
    await exited;
    assert.ok(started, 'the first page was built and the second begun');
    assert.ok(!existsSync(join(pageOf(out, slow), 'DONE')), 'killed before the slow page finished');
    const firstStatus = statusOf(out, first);
    const doneAt = statSync(join(pageOf(out, first), 'DONE')).mtimeMs;

    const r = await pcp(...args);
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, new RegExp(`^ok +${first.replace(/\./g, '\\.')} \\(already built\\)$`, 'm'));
    assert.match(r.stdout, /^2 ok \(1 already built\), 0 failed/m);
    assert.deepEqual(statusOf(out, first), firstStatus);
    assert.equal(statSync(join(pageOf(out, first), 'DONE')).mtimeMs, doneAt);
    assertBuilt(out, first);
    assertBuilt(out, slow);
    assert.equal(readFileSync(join(out, 'failures.jsonl'), 'utf8'), '');
  });
});

/** The pid of a running `pcp corpus build-site` for `url`, and its parent's (the Dask worker process). */
function buildSiteProcess(url: string): { pid: number; ppid: number } | undefined {
  for (const d of readdirSync('/proc').filter((x) => /^\d+$/.test(x))) {
    try {
      const argv = readFileSync(`/proc/${d}/cmdline`, 'utf8').split('\0');
      if (!argv.includes('build-site') || !argv.includes(url)) continue;
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      return { pid: Number(d), ppid };
    } catch {
      // gone meanwhile
    }
  }
  return undefined;
}

test('on a Dask LocalCluster of two workers, a worker killed mid-site: the task is rerun, nothing lost or duplicated', async () => {
  await withServer(async (server, dir) => {
    const slow = `${server.urls.a!}index.html?delay=6000`;
    const sites = [server.urls.a!, slow];
    const list = join(dir, 'sites.txt');
    writeFileSync(list, `${sites.join('\n')}\n`);
    const out = join(dir, 'corpus');
    const run = pcp('corpus', 'build', list, '--out', `file://${out}`, '--scheduler', 'local:2', '--pcap', '--host-resolver-rules', server.hostResolverRules);
    let victim: { pid: number; ppid: number } | undefined;
    assert.ok(await waitFor(() => (victim = buildSiteProcess(slow)) !== undefined, 240_000), 'the slow site started on a worker');
    process.kill(victim!.ppid, 'SIGKILL');
    const r = await run;
    assert.equal(r.status, 0, r.stderr);
    assert.ok(await waitFor(() => !running(victim!.pid), 30_000), 'the killed worker\'s build-site ended with it');
    for (const url of sites) {
      const lines = r.stdout.split('\n').filter((l) => l.endsWith(` ${url}`));
      assert.deepEqual(lines.map((l) => l.split(/ +/)[0]), ['ok'], `${url}: one status line`);
      assertBuilt(out, url);
    }
    assert.deepEqual(readdirSync(join(out, 'pages')).sort(), sites.map(pageId).sort());
    assert.match(r.stdout, /^2 ok \(0 already built\), 0 failed/m);

    // Run again: every page is skipped, nothing rebuilt.
    const again = await pcp('corpus', 'build', list, '--out', out, '--scheduler', 'local:2');
    assert.equal(again.status, 0, again.stderr);
    assert.match(again.stdout, /^2 ok \(2 already built\), 0 failed/m);
  });
});

test('pcp corpus build --scheduler killed with SIGKILL leaves no driver, worker, build-site or Chromium running', async () => {
  const silent = await silentServer();
  const dir = mkdtempSync(join(tmpdir(), 'pcp-corpus-build-'));
  try {
    const list = join(dir, 'sites.txt');
    writeFileSync(list, `${silent.url}\n`);
    const cli = spawn(process.execPath, [BIN, 'corpus', 'build', list, '--out', join(dir, 'corpus'), '--scheduler', 'local:1', '--timeout', '600000'],
      { stdio: 'ignore' });
    try {
      let seen: { pid: number; comm: string }[] = [];
      const started = await waitFor(() => (seen = descendants(cli.pid!)).some((p) => /chrom/.test(p.comm)), 240_000, 200);
      assert.ok(started, `Chromium under the driver's worker (saw: ${seen.map((p) => p.comm).join(', ') || 'nothing'})`);
      seen = descendants(cli.pid!);
      cli.kill('SIGKILL');
      const ended = await waitFor(() => seen.every((p) => !running(p.pid)), 60_000);
      assert.ok(ended, `still running after pcp was killed: ${seen.filter((p) => running(p.pid)).map((p) => `${p.comm} (${p.pid})`).join(', ')}`);
    } finally {
      cli.kill('SIGKILL');
    }
  } finally {
    await silent.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('usage errors are one line, before any browser starts', async () => {
  const r = await pcp('corpus', 'build', '/nonexistent/sites.txt', '--out', '/tmp/x');
  assert.equal(r.status, 1);
  assert.match(r.stderr, /^pcp corpus: cannot read \/nonexistent\/sites\.txt: ENOENT\n$/);
  for (const [args, msg] of [
    [['--out', '/tmp/x'], /expected one site list/],
    [['l.txt', '--out', '/tmp/x', '--scheduler', 'nope'], /--scheduler expects tcp:\/\/HOST:PORT or local:N/],
    [['l.txt', '--out', '/tmp/x', '--retries', '1.5'], /--retries expects a whole number/],
    [['l.txt', '--out', 's3://bucket/x'], /needs --scheduler/],
  ] as const) {
    const u = await pcp('corpus', 'build', ...args);
    assert.equal(u.status, 2, u.stderr);
    assert.match(u.stderr, msg);
    assert.equal(u.stderr.trim().split('\n').length, 1);
  }
});
