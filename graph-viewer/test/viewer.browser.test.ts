/**
 * The viewer in real Chromium (playwright-core driving /usr/bin/chromium): reference graphs open with
 * every node drawn, clicking a node shows its details, the highlighted critical path is exactly
 * criticalPath(graph) (what `pcp critpath` prints), timeline and graph share the selection, the
 * what-if panel shows the emulator's load time, and the current view exports as SVG.
 * Screenshots land in graph-viewer/artifacts/ for a human look.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import type { Browser, Page } from 'playwright-core';
import { loadGraph, criticalPath } from '@pcp/graph-builder';
import type { Viewer } from '../src/server/server.ts';
import { startViewer } from '../src/server/server.ts';
import { LAYERED, layeredGraphSize } from '../src/shared/layeredSize.ts';
import { toLayoutInput } from '../src/shared/layoutTypes.ts';
import { FIXTURES, SHARED, launch, newPage, openGraph, screenshot } from './browser.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const FRIV = `${FIXTURES}www.friv.com.json.gz`;
/** The largest reference graph of the corpus sample (1,642 nodes), when ../shared is there. */
const BILD = `${SHARED}legacy-corpus/graphs/www.bild.de.json.gz`;
const HAVE_BILD = existsSync(BILD);

let viewer: Viewer;
let browser: Browser;
let page: Page;
const errors: string[] = [];

before(async () => {
  viewer = await startViewer({ paths: [FRIV, ...(HAVE_BILD ? [BILD] : [])], port: 0, testHook: true });
  browser = await launch();
  page = await newPage(browser);
  page.on('pageerror', (e) => errors.push(e.message));
});
after(async () => {
  await browser?.close();
  await viewer?.close();
  assert.deepEqual(errors, [], 'no uncaught errors in the page');
});

function legacyActivities(path: string): { id: string; type: string; url?: string; mimeType?: string; size?: number }[] {
  return (JSON.parse(gunzipSync(readFileSync(path)).toString()) as { activities: { id: string; type: string }[] }).activities;
}

test('the list page shows every graph with its node count', async () => {
  await page.goto(viewer.url);
  await page.waitForFunction(() => document.body.dataset.listReady === '1');
  const nodes = await page.locator('tr[data-id="www.friv.com"] td.num').first().textContent();
  assert.equal(Number(nodes), legacyActivities(FRIV).length);
  await screenshot(page, 'list');
});

for (const [id, file] of [['www.friv.com', FRIV], ...(HAVE_BILD ? [['www.bild.de', BILD]] : [])] as [string, string][]) {
  test(`${id}: every node of the file is drawn, and the highlighted critical path is criticalPath(graph)`, async () => {
    await openGraph(page, viewer, id);
    const activities = legacyActivities(file);
    const rendered = await page.evaluate(() => window.__pcpViewer!.renderedNodes());
    assert.equal(rendered, activities.length);
    const highlighted = await page.evaluate(() => window.__pcpViewer!.criticalPath());
    const expected = criticalPath(loadGraph(file));
    assert.deepEqual(highlighted, expected.nodes);
    const label = await page.locator('.cp-length').getAttribute('data-ms');
    assert.equal(Number(label), expected.length);
    // And what the command prints, run as a user would.
    const cli = spawnSync(process.execPath, ['cli/bin/pcp.js', 'critpath', file, '--json'], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
    assert.equal(cli.status, 0, cli.stderr);
    const printed = JSON.parse(cli.stdout) as { length: number; nodes: { id: string }[] };
    assert.deepEqual(highlighted, printed.nodes.map((x) => x.id));
    assert.ok(Math.abs(printed.length - Number(label)) <= 5e-4, `${printed.length} vs ${label}`); // printed to 3 decimals
    await screenshot(page, `graph-${id}`);
  });
}

test('clicking a node on the canvas shows its details and edge rules', async () => {
  await openGraph(page, viewer, 'www.friv.com');
  // download_3 is http://www.friv.com/menu/friv.js in the legacy file.
  const expected = legacyActivities(FRIV).find((a) => a.id === 'download_3')!;
  const pos = await page.evaluate(() => window.__pcpViewer!.screenPos('download_3'));
  assert.ok(pos);
  await page.mouse.click(pos[0], pos[1]);
  const url = await page.locator('#details dd[data-field="url"]').textContent();
  assert.equal(url, expected.url);
  assert.equal(await page.locator('#details dd[data-field="MIME"]').textContent(), expected.mimeType);
  assert.equal(await page.locator('#details dd[data-field="id"]').textContent(), 'download_3');
  assert.equal(await page.locator('.graph-overlay .selected-node').getAttribute('data-id'), 'download_3');
  // Its children are listed with each edge's rule.
  const g = loadGraph(FRIV);
  const childEdges = g.edges.filter((e) => e.from === 'download_3');
  assert.equal(await page.locator('#details ul.edges').nth(1).locator('li').count(), childEdges.length);
  assert.match((await page.locator('#details .rule').first().textContent()) ?? '', /rule|:/);
  await screenshot(page, 'details-friv');
});

test('selection is shared: a click in the timeline selects in the graph', async () => {
  await openGraph(page, viewer, 'www.friv.com');
  const g = loadGraph(FRIV);
  const row = page.locator('#timeline g.row[data-node]:not([data-node="-1"])').nth(2);
  const idx = Number(await row.getAttribute('data-node'));
  await row.locator('rect.seg').last().click({ force: true });
  assert.equal(await page.locator('.graph-overlay .selected-node').getAttribute('data-id'), g.nodes[idx]!.id);
  assert.equal(await page.locator('#details dd[data-field="id"]').textContent(), g.nodes[idx]!.id);
  assert.equal(await page.locator('#timeline g.row.selected').getAttribute('data-node'), String(idx));
});

test('the kind filter counts the resources of the file', async () => {
  await openGraph(page, viewer, 'www.friv.com');
  await page.locator('input[data-kind="resource"]').check();
  const resources = legacyActivities(FRIV).filter((a) => a.type === 'resource').length;
  assert.equal(await page.locator('.match-count').textContent(), `${resources} of ${legacyActivities(FRIV).length} nodes match`);
});

test('the layered layout (Web Worker) draws every node too', async () => {
  await openGraph(page, viewer, 'www.friv.com');
  const g = loadGraph(FRIV);
  assert.ok(layeredGraphSize(toLayoutInput(g).input) <= LAYERED.maxSize, 'friv is within the layered limit');
  await page.evaluate(() => window.__pcpViewer!.setLayout('layered'));
  assert.equal(await page.evaluate(() => window.__pcpViewer!.layoutKind()), 'layered');
  await page.waitForFunction((want) => window.__pcpViewer!.renderedNodes() === want, g.nodes.length);
  await screenshot(page, 'layered-www.friv.com');
});

if (HAVE_BILD) {
  test('above the layered limit only the time axis is offered', async () => {
    const g = loadGraph(BILD);
    assert.ok(layeredGraphSize(toLayoutInput(g).input) > LAYERED.maxSize, 'bild is above the layered limit');
    await openGraph(page, viewer, 'www.bild.de');
    assert.equal(await page.locator('#layout-kind option[value="layered"]').isDisabled(), true);
    await page.evaluate(() => window.__pcpViewer!.setLayout('layered'));
    assert.equal(await page.evaluate(() => window.__pcpViewer!.layoutKind()), 'time');
    assert.equal(await page.evaluate(() => window.__pcpViewer!.renderedNodes()), g.nodes.length);
  });
}

test('what-if: compare A | B shows the emulator\'s load times and simulated waterfalls', async () => {
  const id = HAVE_BILD ? 'www.bild.de' : 'www.friv.com';
  await openGraph(page, viewer, id);
  await page.locator('#whatif-compare').click();
  await page.locator('.whatif-out tr[data-run="B"] .load-time').waitFor({ timeout: 60_000 });
  const shown = Number(await page.locator('.whatif-out tr[data-run="A"] .load-time').getAttribute('data-ms'));
  // The same simulation run directly (the emulator is seeded, so it is deterministic).
  const emu = await import('@pcp/emulator');
  const g = loadGraph(HAVE_BILD ? BILD : FRIV);
  const direct = emu.simulate(g, emu.parseEmulatorOptions({ bandwidth: '10mbit', rtt: '80ms', protocol: 'h1', connections: '6', priority: 'none' }));
  assert.equal(shown, direct.loadTime);
  assert.equal(await page.locator('#whatif-waterfalls svg.waterfall').count(), 3);
  await screenshot(page, `whatif-${id}`);
  // A combination the emulator refuses comes back as its one-line reason, next to the form.
  await page.locator('select[name="A-server"]').selectOption('out-of-order');
  await page.locator('#whatif-run-a').click();
  await page.locator('.whatif-status', { hasText: 'what-if failed' }).waitFor();
  assert.match((await page.locator('.whatif-status').textContent()) ?? '', /what-if failed: an out-of-order server needs framing/);
});

test('export the current view as SVG', async () => {
  await openGraph(page, viewer, 'www.friv.com');
  const [download] = await Promise.all([page.waitForEvent('download'), page.locator('#export-view').click()]);
  const path = await download.path();
  const svg = readFileSync(path, 'utf8');
  assert.match(svg, /^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
  // Fitted view: every node is in it.
  assert.equal((svg.match(/<rect data-id=/g) ?? []).length, legacyActivities(FRIV).length);
  assert.ok(svg.includes('stroke="#ff00aa"'), 'critical path marked');
  // The timeline exports too: one row per resource of the file, plus the main-thread rows.
  const [tl] = await Promise.all([page.waitForEvent('download'), page.locator('#export-timeline').click()]);
  const tsvg = readFileSync(await tl.path(), 'utf8');
  const resources = legacyActivities(FRIV).filter((a) => a.type === 'resource').length;
  assert.equal((tsvg.match(/<g class="row[^"]*" data-node="\d+"/g) ?? []).length, resources);
});

test('descendants of a node are outlined, and collapsing a frame hides its nodes', async () => {
  await openGraph(page, viewer, 'www.friv.com');
  const g = loadGraph(FRIV);
  // Expected descendants of the root by a plain walk over the file's edges.
  const root = g.root ?? g.nodes[0]!.id;
  const seen = new Set<string>();
  const stack = [root];
  while (stack.length) {
    const v = stack.pop()!;
    for (const e of g.edges) if (e.from === v && !seen.has(e.to) && e.to !== root) (seen.add(e.to), stack.push(e.to));
  }
  await page.evaluate((id) => window.__pcpViewer!.select(id), root);
  await page.locator('#details button[data-related="descendants"]').click();
  assert.equal(Number(await page.locator('.related-count').getAttribute('data-count')), seen.size);
  await screenshot(page, 'descendants-friv');
  // Collapse the last frame of the list: its nodes are no longer drawn one by one.
  const frameBox = page.locator('ul.frames input[data-frame]').last();
  const frameId = await frameBox.getAttribute('data-frame');
  const inFrame = g.nodes.filter((n) => n.frame === frameId).length;
  await frameBox.uncheck();
  await page.locator('#fit').click(); // selecting zoomed in on the root; count over the whole graph
  await page.waitForFunction((want) => window.__pcpViewer!.renderedNodes() === want, g.nodes.length - inFrame);
  await frameBox.check();
  await page.locator('#fit').click();
  await page.waitForFunction((want) => window.__pcpViewer!.renderedNodes() === want, g.nodes.length);
});

test('hovering an edge shows the rule that created it', async () => {
  await openGraph(page, viewer, 'www.friv.com');
  const g = loadGraph(FRIV);
  let shown = 0;
  for (let k = 0; k < g.edges.length && shown < 5; k++) {
    const pos = await page.evaluate((e) => window.__pcpViewer!.edgeScreenPos(e), k);
    if (!pos) continue;
    await page.mouse.move(pos[0], pos[1]);
    const tip = page.locator('.tooltip');
    // The midpoint of an edge can sit on a node (then the node's tooltip shows): only edge hits count.
    if ((await tip.getAttribute('data-edge')) !== String(k)) continue;
    const rule = g.edges[k]!.rule;
    assert.ok(((await tip.textContent()) ?? '').endsWith(typeof rule === 'number' ? `rule ${rule} (Table 3.1)` : rule));
    shown++;
  }
  assert.ok(shown >= 3, `only ${shown} edges could be hovered`);
});
