/**
 * `pcp view` and the demo script as a user runs them: the URL is printed, a check-and-exit mode never
 * hangs (CI), and bad input fails with one line and a non-zero exit.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { FIXTURES } from './browser.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

function pcp(args: string[], env: Record<string, string> = {}): { code: number; out: string; err: string } {
  const r = spawnSync(process.execPath, ['cli/bin/pcp.js', ...args], { cwd: ROOT, encoding: 'utf8', timeout: 60_000, env: { ...process.env, ...env } });
  return { code: r.status ?? -1, out: r.stdout, err: r.stderr };
}

test('pcp view --exit-after-ready prints the loopback URL of the graph and exits 0', () => {
  const r = pcp(['view', `${FIXTURES}www.friv.com.json.gz`, '--port', '0', '--open', 'www.friv.com', '--exit-after-ready']);
  assert.equal(r.code, 0, r.err);
  assert.match(r.out, /serving 1 graph at http:\/\/127\.0\.0\.1:\d+\/#\/graph\/www\.friv\.com/);
});

test('pcp view --help explains the command', () => {
  const r = pcp(['view', '--help']);
  assert.equal(r.code, 0);
  assert.match(r.out, /usage: pcp view/);
  assert.match(r.out, /--exit-after-ready/);
});

test('pcp view fails in one line for a missing path, an unknown graph id and a busy port', async () => {
  const missing = pcp(['view', '/nonexistent/graphs', '--port', '0', '--exit-after-ready']);
  assert.equal(missing.code, 1);
  assert.equal(missing.err.trim().split('\n').at(-1), 'pcp view: no graph files found in the given paths');
  const unknown = pcp(['view', FIXTURES, '--port', '0', '--open', 'nope', '--exit-after-ready']);
  assert.equal(unknown.code, 1);
  assert.match(unknown.err, /^pcp view: no graph 'nope'/m);
  const busy = createServer();
  await new Promise<void>((r) => busy.listen(0, '127.0.0.1', r));
  const port = (busy.address() as { port: number }).port;
  const r = pcp(['view', FIXTURES, '--port', String(port), '--exit-after-ready']);
  busy.close();
  assert.equal(r.code, 1);
  assert.match(r.err.trim(), new RegExp(`^pcp view: port ${port} is in use`));
  const bad = pcp(['view', '--port', 'x']);
  assert.equal(bad.code, 2);
});

test('the demo script opens a graph and, with --exit-after-ready, exits instead of serving', () => {
  const r = spawnSync('bash', ['scripts/demo.sh', '--port', '0', '--exit-after-ready'], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 60_000,
    // setup.sh already ran in `npm test`; the fixture stands in for the corpus when ../shared is absent.
    env: { ...process.env, PCP_SKIP_SETUP: '1', PCP_DEMO_GRAPH: `${FIXTURES}www.friv.com.json.gz` },
  });
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /http:\/\/127\.0\.0\.1:\d+\/#\/graph\/www\.friv\.com/);
});
