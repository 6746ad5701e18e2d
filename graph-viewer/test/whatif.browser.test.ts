/**
 * The what-if panel in real Chromium (playwright-core driving /usr/bin/chromium) against `pcp emulate`: the
 * options chosen in the panel's groups (loss detection and a loss rate, `KEY=VALUE` pairs, a link trace file)
 * give the result the emulator gives the same graph and options, run here as a user runs the command and
 * directly; a malformed option is the emulator's one-line reason under the buttons, never a crash (the
 * session fails on any uncaught error in the page), and the panel runs again once it is fixed.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { loadGraph } from '@pcp/graph-builder';
import { ConfigError, parseEmulatorOptions, simulate, type SimResult } from '@pcp/emulator';
import type { Viewer } from '../src/server/server.ts';
import { FIXTURES, openGraph, screenshot, useViewerSession } from './browser.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const FRIV = `${FIXTURES}www.friv.com.json.gz`;
/** Mahimahi's format: 4 delivery opportunities a ms for 50 ms, then 1 a ms for 50 ms (48 and 12 Mbit/s). */
const TRACE = `${FIXTURES}alternating.trace`;
/** Set A as the panel starts (shared/whatifFields.ts). */
const A = { bandwidth: '10mbit', rtt: '80ms', protocol: 'h1', connections: '6', priority: 'none' };

let viewer: Viewer;
let page: Page;
useViewerSession([FRIV], (s) => ({ viewer, page } = s));

/** The graph in a freshly loaded page: the panel as it starts. */
async function freshGraph(): Promise<void> {
  await page.goto('about:blank');
  await openGraph(page, viewer, 'www.friv.com');
}

/** Opens a folded group of the panel. */
async function openGroup(group: string): Promise<void> {
  const details = page.locator(`details.whatif-group[data-group="${group}"]`);
  if ((await details.getAttribute('open')) === null) await details.locator('summary').click();
}

/** Clicks "run A" and returns what the server answered and what the panel shows. */
async function runA(): Promise<{ result: SimResult; shownLoad: number; shownLosses: number }> {
  const [response] = await Promise.all([page.waitForResponse((r) => r.url().endsWith('/api/whatif')), page.locator('#whatif-run-a').click()]);
  assert.equal(response.status(), 200, await response.text());
  const { result } = (await response.json()) as { result: SimResult };
  const row = page.locator('.whatif-out tr[data-run="A"]');
  await row.waitFor({ timeout: 60_000 });
  return { result, shownLoad: Number(await row.locator('.load-time').getAttribute('data-ms')), shownLosses: Number(await row.locator('.losses').textContent()) };
}

/** Clicks "run A" expecting a refusal; returns the status line. */
async function refusedA(): Promise<string> {
  await page.locator('#whatif-run-a').click();
  const status = page.locator('.whatif-status', { hasText: 'what-if failed' });
  await status.waitFor({ timeout: 60_000 });
  return (await status.textContent()) ?? '';
}

/** What `pcp emulate GRAPH ... --json` prints, run as a user runs it. */
function pcpEmulate(args: string[]): { loadTime: number; domContentLoadedTime: number; endTime: number; drops: number; losses: number; retransmissions: number; resources: unknown[] } {
  const cli = spawnSync(process.execPath, ['cli/bin/pcp.js', 'emulate', FRIV, ...args, '--json'], { cwd: ROOT, encoding: 'utf8', timeout: 120_000 });
  assert.equal(cli.status, 0, cli.stderr);
  return JSON.parse(cli.stdout);
}

/** The emulator's one-line reason for refusing these options. */
function refusal(opts: Record<string, string>): string {
  try {
    parseEmulatorOptions(opts);
  } catch (e) {
    assert.ok(e instanceof ConfigError);
    return e.message;
  }
  assert.fail(`the emulator accepts ${JSON.stringify(opts)}`);
}

test('sack and 1% loss chosen in the panel: the backend returns what pcp emulate gives', async () => {
  await freshGraph();
  await openGroup('loss');
  await page.locator('select[name="A-loss-detection"]').selectOption('sack');
  await page.locator('input[name="A-loss"]').fill('1%');
  assert.equal(await page.locator('details[data-group="loss"] summary').textContent(), 'loss (2 set)');
  const { result, shownLoad, shownLosses } = await runA();
  const printed = pcpEmulate(['--bandwidth', A.bandwidth, '--rtt', A.rtt, '--protocol', A.protocol, '--connections', A.connections, '--priority', A.priority, '--loss', '1%', '--loss-detection', 'sack']);
  for (const k of ['loadTime', 'domContentLoadedTime', 'endTime', 'drops', 'losses', 'retransmissions', 'resources'] as const) assert.deepEqual(result[k], printed[k], k);
  // And the emulator called directly: the whole result, as JSON carries it.
  const direct = simulate(loadGraph(FRIV), parseEmulatorOptions({ ...A, loss: '1%', 'loss-detection': 'sack' }));
  assert.deepEqual(result, JSON.parse(JSON.stringify(direct)));
  assert.ok(result.losses > 0, 'a lossy link loses packets');
  assert.equal(shownLoad, result.loadTime);
  assert.equal(shownLosses, result.losses);
  // sack is not the default: with nack the same link gives another timeline.
  assert.notDeepEqual(result.resources, JSON.parse(JSON.stringify(simulate(loadGraph(FRIV), parseEmulatorOptions({ ...A, loss: '1%' })))).resources);
  await screenshot(page, 'whatif-loss-sack');
});

test('a malformed loss model is the emulator\'s one-line reason in the panel, and the panel runs again once fixed', async () => {
  await freshGraph();
  await openGroup('loss');
  await page.locator('input[name="A-loss-model"]').fill('gilbert:nope');
  const line = await refusedA();
  assert.equal(line, `what-if failed: ${refusal({ ...A, 'loss-model': 'gilbert:nope' })}`);
  assert.ok(!line.includes('\n'));
  assert.equal(await page.locator('.whatif-out').count(), 0, 'no stale result beside the error');
  await screenshot(page, 'whatif-bad-loss-model');
  await page.locator('input[name="A-loss-model"]').fill('gilbert:1%,20%,0,30%');
  const { result } = await runA();
  assert.equal(result.loadTime, simulate(loadGraph(FRIV), parseEmulatorOptions({ ...A, 'loss-model': 'gilbert:1%,20%,0,30%' })).loadTime);
  assert.equal(await page.locator('.whatif-status').textContent(), '');
});

test('other options (KEY=VALUE) and the multipath group: an unknown key is refused by name, the rest is --option', async () => {
  await freshGraph();
  await openGroup('advanced');
  await openGroup('multipath');
  await page.locator('textarea[name="A-option"]').fill('seed=5 bogus=1');
  assert.match(await refusedA(), /^what-if failed: --option: unknown emulator option 'bogus' \(known: bandwidth, /);
  await page.locator('textarea[name="A-option"]').fill('seed=5\ntls-rtts=1');
  await page.locator('input[name="A-path2"]').fill('5mbit,200ms,1%');
  await page.locator('select[name="A-mptcp-scheduler"]').selectOption('stream');
  const { result } = await runA();
  const direct = simulate(loadGraph(FRIV), parseEmulatorOptions({ ...A, seed: '5', 'tls-rtts': '1', path2: '5mbit,200ms,1%', 'mptcp-scheduler': 'stream' }));
  assert.deepEqual(result, JSON.parse(JSON.stringify(direct)));
  assert.ok(result.multipath, 'two paths');
  assert.match((await page.locator('.whatif-out tr[data-run="A"] .path2-share').textContent()) ?? '', /^\d+% of bytes$/);
});

test('a downlink trace chosen as a file gives what pcp emulate --downlink-trace gives; a malformed one is refused in one line', async () => {
  await freshGraph();
  await page.locator('input[name="A-downlink-trace"]').setInputFiles(TRACE);
  const { result } = await runA();
  const printed = pcpEmulate(['--bandwidth', A.bandwidth, '--rtt', A.rtt, '--protocol', A.protocol, '--connections', A.connections, '--priority', A.priority, '--downlink-trace', TRACE]);
  for (const k of ['loadTime', 'domContentLoadedTime', 'endTime', 'drops', 'resources'] as const) assert.deepEqual(result[k], printed[k], k);
  assert.notEqual(result.loadTime, simulate(loadGraph(FRIV), parseEmulatorOptions(A)).loadTime, 'the trace was used');
  await page.locator('input[name="A-downlink-trace"]').setInputFiles({ name: 'broken.trace', mimeType: 'text/plain', buffer: Buffer.from('1\n2\nsoon\n') });
  assert.equal(await refusedA(), "what-if failed: broken.trace:3: not a millisecond timestamp: 'soon'");
});
