/**
 * The viewer's server over real HTTP on loopback: the list, one graph (legacy layout converted to v1
 * with the critical path `pcp critpath` computes), exports through Graphviz and rsvg-convert, the
 * what-if endpoint, and that nothing outside the given directories can be fetched.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { mkdtempSync, writeFileSync, symlinkSync, mkdirSync, copyFileSync, readFileSync, existsSync, rmSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadGraph, criticalPath } from '@pcp/graph-builder';
import { startViewer, type Viewer } from '../src/server/server.ts';
import { FIXTURES } from './browser.ts';

let viewer: Viewer;
let dir: string;
let base: string;
const SECRET = 'TOP-SECRET-CONTENT';

before(async () => {
  // A corpus directory with two reference graphs, a non-graph file, and a symlink to a file outside it.
  base = mkdtempSync(join(tmpdir(), 'pcp-view-'));
  dir = join(base, 'corpus');
  mkdirSync(join(dir, 'graphs'), { recursive: true });
  copyFileSync(`${FIXTURES}www.friv.com.json.gz`, join(dir, 'graphs', 'www.friv.com.json.gz'));
  copyFileSync(`${FIXTURES}mailchimp.com_about_mcsv.json.gz`, join(dir, 'graphs', 'mailchimp.json.gz'));
  writeFileSync(join(dir, 'notes.txt'), SECRET);
  writeFileSync(join(dir, 'graphs', 'broken.json'), '{"schemaVersion": 1, "nodes": [');
  writeFileSync(join(base, 'outside-graph.json'), JSON.stringify({ secret: SECRET }));
  symlinkSync(join(base, 'outside-graph.json'), join(dir, 'graphs', 'escape-graph.json'));
  viewer = await startViewer({ paths: [dir], port: 0 });
});
after(async () => {
  await viewer.close();
  rmSync(base, { recursive: true, force: true });
});

/** A raw request: the path is sent exactly as given (no URL normalisation on the client side). */
function raw(path: string, opts: { method?: string; host?: string; body?: string } = {}): Promise<{ status: number; body: string; headers: Record<string, unknown> }> {
  const u = new URL(viewer.url);
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: Number(u.port), path, method: opts.method ?? 'GET', headers: { host: opts.host ?? u.host, 'content-type': 'application/json' } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (d: Buffer) => chunks.push(d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('latin1'), headers: res.headers }));
    });
    req.on('error', reject);
    req.end(opts.body);
  });
}

test('the bundle users load carries no test hook; a test build does, in a directory removed on close', async () => {
  const app = await raw('/app.js');
  assert.equal(app.status, 200);
  assert.ok(app.body.length > 1000, 'a real bundle');
  assert.ok(!app.body.includes('__pcpViewer'), 'production app.js mentions __pcpViewer');
  const testing = await startViewer({ paths: [dir], port: 0, testHook: true });
  const res = await fetch(`${testing.url}app.js`);
  assert.equal(res.status, 200);
  assert.ok((await res.text()).includes('__pcpViewer'), 'the test build installs the hook');
  assert.notEqual(testing.bundleDir, viewer.bundleDir);
  assert.ok(existsSync(`${testing.bundleDir}app.js`));
  await testing.close();
  assert.ok(!existsSync(testing.bundleDir), 'the test bundle directory is removed');
});

test('binds to loopback only and prints a 127.0.0.1 URL', () => {
  const addr = viewer.server.address();
  assert.ok(addr && typeof addr === 'object');
  assert.equal(addr.address, '127.0.0.1');
  assert.match(viewer.url, /^http:\/\/127\.0\.0\.1:\d+\/$/);
});

test('lists the graphs with their summary; the symlink leading outside is refused', async () => {
  await viewer.store.summariseAll();
  const res = await raw('/api/graphs');
  assert.equal(res.status, 200);
  const data = JSON.parse(res.body) as { graphs: { id: string; nodes: number; resources: number; url: string; criticalPathLength: number; status: string }[]; problems: string[] };
  assert.deepEqual(data.graphs.map((g) => g.id).sort(), ['broken', 'mailchimp', 'www.friv.com']);
  // A broken file is reported on its row and costs nothing else.
  const broken = data.graphs.find((g) => g.id === 'broken') as unknown as { status: string; error: string };
  assert.equal(broken.status, 'error');
  assert.match(broken.error, /broken\.json: not valid JSON/);
  const opened = await raw('/api/graphs/broken');
  assert.equal(opened.status, 422);
  assert.match(JSON.parse(opened.body).error, /not valid JSON/);
  // Expected counts come straight from the legacy file: one v1 node per legacy activity.
  const legacy = JSON.parse(gunzipSync(readFileSync(`${FIXTURES}www.friv.com.json.gz`)).toString()) as { activities: { type: string }[] };
  const friv = data.graphs.find((g) => g.id === 'www.friv.com')!;
  assert.equal(friv.status, 'ok');
  assert.equal(friv.nodes, legacy.activities.length);
  assert.equal(friv.resources, legacy.activities.filter((a) => a.type === 'resource').length);
  assert.equal(friv.url, 'http://www.friv.com/');
  assert.equal(friv.criticalPathLength, criticalPath(loadGraph(`${FIXTURES}www.friv.com.json.gz`)).length);
  assert.ok(data.problems.some((p) => p.includes('escape-graph.json') && p.includes('outside')), data.problems.join('; '));
});

test('serves one graph as v1 JSON with the critical path pcp critpath computes', async () => {
  const res = await raw('/api/graphs/www.friv.com');
  assert.equal(res.status, 200);
  const g = JSON.parse(res.body) as { schemaVersion: number; nodes: unknown[]; criticalPath: { nodes: string[]; length: number } };
  const expected = criticalPath(loadGraph(`${FIXTURES}www.friv.com.json.gz`));
  assert.equal(g.schemaVersion, 1);
  assert.deepEqual(g.criticalPath.nodes, expected.nodes);
  assert.equal(g.criticalPath.length, expected.length);
});

test('path traversal and foreign files: nothing outside the bundle and the catalog is served', async () => {
  const attempts = [
    '/../../../../etc/passwd',
    '/%2e%2e/%2e%2e/%2e%2e/etc/passwd',
    '/..%2f..%2f..%2fetc%2fpasswd',
    '/notes.txt',
    '/graphs/www.friv.com.json.gz',
    '/api/graphs/..%2fnotes.txt',
    '/api/graphs/../../notes.txt',
    '/api/graphs/escape-graph',
    '/api/graphs/%2e%2e',
    '/public/../src/server/server.ts',
    '/app.js/../../package.json',
    `//${dir}/notes.txt`,
  ];
  for (const path of attempts) {
    const res = await raw(path);
    assert.ok(res.status === 404 || res.status === 400, `${path} -> ${res.status}`);
    assert.ok(!res.body.includes(SECRET) && !res.body.includes('root:'), `${path} leaked content`);
  }
});

test('refuses a foreign Host header (DNS rebinding) and non-GET/POST methods', async () => {
  assert.equal((await raw('/api/graphs', { host: 'evil.example:80' })).status, 403);
  assert.equal((await raw('/api/graphs', { method: 'DELETE' })).status, 405);
});

test('sets a CSP that forbids inline script on every response', async () => {
  const res = await raw('/');
  assert.equal(res.status, 200);
  assert.match(String(res.headers['content-security-policy']), /script-src 'self'/);
});

test('exports the whole graph through Graphviz with one cluster per frame, and as PDF', async () => {
  const g = loadGraph(`${FIXTURES}www.friv.com.json.gz`);
  const framesWithNodes = new Set(g.nodes.map((n) => n.frame)).size;
  const svg = await raw('/api/graphs/www.friv.com/export?format=svg');
  assert.equal(svg.status, 200);
  assert.equal(svg.headers['x-pcp-export-engine'], 'dot');
  assert.equal((svg.body.match(/<g id="clust\d+" class="cluster">/g) ?? []).length, framesWithNodes);
  assert.equal((svg.body.match(/<g id="node\d+" class="node">/g) ?? []).length, g.nodes.length);
  const pdf = await raw('/api/graphs/www.friv.com/export?format=pdf');
  assert.equal(pdf.status, 200);
  assert.ok(pdf.body.startsWith('%PDF-'));
  // The viewer's own time-axis drawing (the route for graphs too big for dot): one rect per node.
  const time = await raw('/api/graphs/www.friv.com/export?format=svg&engine=time');
  assert.equal(time.headers['x-pcp-export-engine'], 'time');
  assert.equal((time.body.match(/<rect data-id=/g) ?? []).length, g.nodes.length);
  const timePdf = await raw('/api/graphs/www.friv.com/export?format=pdf&engine=time');
  assert.ok(timePdf.body.startsWith('%PDF-'));
  assert.equal((await raw('/api/graphs/www.friv.com/export?format=png')).status, 400);
});

test('what-if runs the emulator; bad options get a 400 with the emulator\'s reason', async () => {
  const body = JSON.stringify({ graph: 'www.friv.com', options: { bandwidth: '10mbit', rtt: '80ms', protocol: 'h2' } });
  const res = await raw('/api/whatif', { method: 'POST', body });
  assert.equal(res.status, 200, res.body);
  const data = JSON.parse(res.body) as { result: { loadTime: number; resources: { id: string }[] } };
  const g = loadGraph(`${FIXTURES}www.friv.com.json.gz`);
  assert.ok(data.result.loadTime > 0);
  // Every simulated resource is one of the graph's resources.
  const ids = new Set(g.nodes.filter((n) => n.kind === 'resource').map((n) => n.id));
  for (const r of data.result.resources) assert.ok(ids.has(r.id));
  const bad = await raw('/api/whatif', { method: 'POST', body: JSON.stringify({ graph: 'www.friv.com', options: { bandwidth: 'fast', rtt: '80ms' } }) });
  assert.equal(bad.status, 400);
  assert.match(bad.body, /not a rate/);
  assert.equal((await raw('/api/whatif', { method: 'POST', body: '{nope' })).status, 400);
  assert.equal((await raw('/api/whatif', { method: 'POST', body: JSON.stringify({ graph: '../x', options: {} }) })).status, 404);
});

test('what-if over two paths: the share of the second path comes back, a bad path is a 400', async () => {
  const body = JSON.stringify({ graph: 'www.friv.com', options: { bandwidth: '10mbit', rtt: '80ms', protocol: 'h2', path2: '10mbit,80ms', 'mptcp-scheduler': 'stream' } });
  const res = await raw('/api/whatif', { method: 'POST', body });
  assert.equal(res.status, 200, res.body);
  const data = JSON.parse(res.body) as { result: { bytesDelivered: number; multipath: { bytesPath2: number; bytesArrived: number } } };
  assert.equal(data.result.multipath.bytesArrived, data.result.bytesDelivered);
  assert.ok(data.result.multipath.bytesPath2 >= 0 && data.result.multipath.bytesPath2 <= data.result.bytesDelivered);
  const bad = await raw('/api/whatif', { method: 'POST', body: JSON.stringify({ graph: 'www.friv.com', options: { bandwidth: '10mbit', rtt: '80ms', path2: '10mbit' } }) });
  assert.equal(bad.status, 400);
  assert.match(bad.body, /a path is BANDWIDTH,RTT/);
});

test('a profiler bundle without a graph is reported, its trace is not tried as a graph', async () => {
  const { buildCatalog } = await import('../src/server/catalog.ts');
  const bundle = join(base, 'bundle');
  mkdirSync(bundle);
  for (const f of ['trace.json.gz', 'devtools.log.json', 'frames.json', 'meta.json']) writeFileSync(join(bundle, f), '{}');
  const empty = buildCatalog([bundle]);
  assert.deepEqual(empty.entries, []);
  assert.deepEqual(empty.problems, [`${bundle}: no graph files found`]);
  // Once the bundle holds a built graph, that is what is served.
  copyFileSync(`${FIXTURES}www.friv.com.json.gz`, join(bundle, 'graph.json.gz'));
  assert.deepEqual(buildCatalog([bundle]).entries.map((e) => e.name), ['graph.json.gz']);
});
