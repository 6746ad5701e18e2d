/**
 * The README's main command, whole: `npm run demo` serves the bundled example site, profiles it with the
 * real Chromium, builds its graph and opens it in the viewer. --exit-after-ready checks the viewer loaded
 * the graph and exits instead of serving.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { runAsync } from './testing/run.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

test('the demo profiles the example site and opens its graph', async () => {
  const r = await runAsync('bash', ['scripts/demo.sh', '--port', '0', '--exit-after-ready'], {
    cwd: ROOT,
    env: { ...process.env, PCP_SKIP_SETUP: '1' },
    timeoutMs: 180_000,
  });
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stderr, /complete: http:\/\/a\.pcp\.test:\d+\/index\.html/);
  assert.match(r.stdout + r.stderr, /http:\/\/127\.0\.0\.1:\d+\/#\/graph\/graph/);
  const graph = JSON.parse(readFileSync(`${ROOT}out/demo/graph.json`, 'utf8')) as { provenance: { source: string }; nodes: Array<{ kind: string; url?: string }> };
  assert.equal(graph.provenance.source, 'chrome-trace');
  // The example page's 12 requests: document, 3 scripts, style sheet, 3 images, iframe document with its
  // script and image, and the XHR (profiler/example-site).
  assert.equal(graph.nodes.filter((n) => n.kind === 'resource').length, 12);
});
