/**
 * accuracy:emulator end to end on one page, one condition, one real load (real Chromium through a real
 * shaped link; needs root, as the shaper does), recorded twice. Checks that the row is complete and consistent, never
 * how accurate the predictions are.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runAsync } from '@pcp/cli/testing';
import { CSV_HEADER, TOOLS } from './grid-stats.ts';

const SCRIPT = fileURLToPath(new URL('./emulator.ts', import.meta.url));
const isRoot = process.getuid?.() === 0;

test('accuracy:emulator: example site at 50mbit/20ms/h2, one load: 0 misses, cold, real and predicted times > 0; run again with --keep, nothing is redone', { skip: isRoot ? false : 'the shaper needs root' }, async () => {
  const work = mkdtempSync(join(tmpdir(), 'pcp-accuracy-test-'));
  try {
    const csv = join(work, 'out.csv');
    const args = ['--import', 'tsx', SCRIPT, '--page', 'example-site', '--condition', '50mbit/20ms/h2', '--runs', '1', '--csv', csv, '--no-plots', '--keep', join(work, 'keep'), '--recordings', '2'];
    const r = await runAsync(process.execPath, args, { timeoutMs: 600_000 });
    assert.equal(r.status, 0, r.stderr + r.stdout);
    assert.match(r.stdout, /plan: 1 pages x 1 conditions x 1 runs = 1 real loads \(0 already done\), 1 pages to record/);
    assert.match(r.stdout, /TCP congestion control reno;/);
    // Two recordings, the least disturbed one kept as the page's recording (byte for byte its graph).
    const page = join(work, 'keep', 'example-site');
    const chosen = JSON.parse(readFileSync(join(page, 'recordings.json'), 'utf8')) as { kept: number; recordings: { recording: number; disturbanceMs: number }[] };
    assert.deepEqual(chosen.recordings.map((c) => c.recording), [1, 2]);
    assert.equal(chosen.kept, chosen.recordings.reduce((a, b) => (b.disturbanceMs < a.disturbanceMs ? b : a)).recording);
    assert.equal(readFileSync(join(page, 'graph.json'), 'utf8'), readFileSync(join(page, 'recordings', String(chosen.kept), 'graph.json'), 'utf8'));
    assert.match(r.stdout, /example-site: kept recording [12] of 2/);
    assert.match(r.stdout, /this session: 1 real loads in [\d.]+ min of loading, [\d.]+ loads per minute/);
    // The load ran in a fresh context of a Chromium started for the round, and was cold, over HTTP/2.
    assert.match(r.stdout, /cold check: 1 of 1 checked loads cold .*; 1 of 1 spoke the condition's protocol/);
    const again = await runAsync(process.execPath, args, { timeoutMs: 600_000 });
    assert.equal(again.status, 0, again.stderr + again.stdout);
    assert.match(again.stdout, /= 1 real loads \(1 already done\), 0 pages to record/);
    assert.match(again.stdout, /this session: 0 real loads/);
    const [header, ...rows] = readFileSync(csv, 'utf8').trim().split('\n');
    assert.equal(header, CSV_HEADER);
    assert.equal(rows.length, 1);
    const row = Object.fromEntries(CSV_HEADER.split(',').map((k, i) => [k, rows[0]!.split(',')[i]!]));
    assert.equal(row.page, 'example-site');
    assert.equal(row.condition, '50mbit/20ms/h2');
    assert.equal(row.runs, '1');
    assert.equal(row.misses, '0');
    const n = (k: string): number => Number(row[k]);
    // One real load: it is the median, the min and the max; it takes at least the RTTs of DNS-free
    // TCP + TLS handshakes and the document's request.
    assert.ok(n('real_load_ms') >= 40, `real load ${row.real_load_ms}`);
    assert.equal(n('real_load_min_ms'), n('real_load_ms'));
    assert.equal(n('real_load_max_ms'), n('real_load_ms'));
    assert.ok(n('real_dcl_ms') > 0 && n('real_dcl_ms') <= n('real_load_ms'));
    for (const t of TOOLS) {
      assert.ok(n(`${t}_load_ms`) > 0 && n(`${t}_dcl_ms`) > 0, `${t}: ${rows[0]}`);
      assert.ok(Math.abs(n(`${t}_load_error`) - (n(`${t}_load_ms`) - n('real_load_ms')) / n('real_load_ms')) < 1e-3);
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
});

test('accuracy:emulator: a synthesized page (synth-mailchimp) at 50mbit/20ms/h2, one load: synthesized once into the keep dir, recorded from the replay, loaded cold over h2 with 0 misses', { skip: isRoot ? false : 'the shaper needs root' }, async () => {
  const { synthPages } = await import('./synth-pages.ts');
  if ((await synthPages()).pages.length === 0) return; // no legacy corpus here: the unit tests cover the message
  const work = mkdtempSync(join(tmpdir(), 'pcp-accuracy-synth-'));
  try {
    const csv = join(work, 'out.csv');
    const keep = join(work, 'keep');
    const r = await runAsync(process.execPath, ['--import', 'tsx', SCRIPT, '--page', 'synth-mailchimp', '--condition', '50mbit/20ms/h2', '--runs', '1', '--csv', csv, '--no-plots', '--keep', keep, '--recordings', '1'], { timeoutMs: 600_000 });
    assert.equal(r.status, 0, r.stderr + r.stdout);
    // The site was synthesized into the keep dir, every URL moved to https; the recording is of its replay.
    const site = JSON.parse(readFileSync(join(keep, 'synthesized', 'synth-mailchimp', 'meta.json'), 'utf8')) as { url: string };
    assert.match(site.url, /^https:\/\/mailchimp\.com\//);
    const recorded = JSON.parse(readFileSync(join(keep, 'synth-mailchimp', 'bundle', 'archive.har'), 'utf8')) as { log: { entries: { request: { url: string }; response: { status: number } }[] } };
    // The browser's own favicon request is answered 404 by the replay (the graph has none).
    const page = recorded.log.entries.filter((e) => !e.request.url.endsWith('/favicon.ico'));
    assert.ok(page.length >= 5, `${page.length} entries`);
    assert.ok(page.every((e) => e.request.url.startsWith('https://') && e.response.status < 400), JSON.stringify(page.map((e) => [e.request.url, e.response.status])));
    assert.match(r.stdout, /cold check: 1 of 1 checked loads cold .*; 1 of 1 spoke the condition's protocol/);
    const [header, row] = readFileSync(csv, 'utf8').trim().split('\n');
    const cells = Object.fromEntries(header!.split(',').map((k, i) => [k, row!.split(',')[i]!]));
    assert.equal(cells.page, 'synth-mailchimp');
    assert.equal(cells.misses, '0');
    assert.ok(Number(cells.real_load_ms) >= 60 && Number(cells.emulator_load_ms) > 0, row);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
});
