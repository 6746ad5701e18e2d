/**
 * URLs and names come from arbitrary pages. A graph whose page URL, frame URLs, resource URLs and
 * event names are markup and script must render as plain text everywhere (list, header, canvas
 * labels, tooltips, details, timeline, exports) and nothing in it may execute.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launch, newPage, openGraph, screenshot } from './browser.ts';
import { startViewer } from '../src/server/server.ts';
import { syntheticGraph } from './synthetic.ts';

const HOSTILE = [
  '<img src=x onerror="window.__pwned=1;alert(1)">',
  '<script>window.__pwned=2;alert(2)</script>',
  '"><svg onload="window.__pwned=3">',
  "javascript:window.__pwned=4//'",
  '</title><iframe src="javascript:parent.__pwned=5">',
];

test('hostile URLs and names render as text and nothing executes', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'pcp-hostile-'));
  const graph = syntheticGraph(120, { seed: 5, names: HOSTILE, frameSize: 50 });
  writeFileSync(join(dir, 'hostile-graph.json'), JSON.stringify(graph));
  const viewer = await startViewer({ paths: [dir], port: 0, testHook: true });
  const browser = await launch();
  try {
    const page = await newPage(browser);
    const dialogs: string[] = [];
    page.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    // Count elements that could only come from parsing the hostile strings as markup.
    const injected = (): Promise<{ pwned: unknown; imgs: number; iframes: number; svgOnload: number; scripts: number }> =>
      page.evaluate(() => ({
        pwned: (window as unknown as { __pwned?: unknown }).__pwned,
        imgs: document.querySelectorAll('img').length,
        iframes: document.querySelectorAll('iframe').length,
        svgOnload: document.querySelectorAll('[onload],[onerror]').length,
        scripts: document.querySelectorAll('script').length,
      }));
    const clean = { pwned: undefined, imgs: 0, iframes: 0, svgOnload: 0, scripts: 1 };

    await page.goto(viewer.url);
    await page.waitForFunction(() => document.body.dataset.listReady === '1');
    assert.equal(await page.locator('td.url').first().textContent(), graph.page.url, 'list shows the page URL as literal text');
    assert.deepEqual(await injected(), clean);

    await openGraph(page, viewer, 'hostile-graph');
    assert.equal(await page.locator('h1.page-url').textContent(), graph.page.url);
    // Click through every resource (details, timeline row, tooltip by hovering), then zoom in so
    // canvas labels are drawn.
    const resources = graph.nodes.filter((n) => n.kind === 'resource');
    for (const r of resources) {
      await page.evaluate((id) => window.__pcpViewer!.select(id), r.id);
      const pos = await page.evaluate((id) => window.__pcpViewer!.screenPos(id), r.id);
      if (pos) await page.mouse.move(pos[0], pos[1]);
      assert.equal(await page.locator('#details dd[data-field="url"]').textContent(), r.kind === 'resource' ? r.url : '');
    }
    const events = graph.nodes.filter((n) => n.kind === 'event');
    if (events[0]) {
      await page.evaluate((id) => window.__pcpViewer!.select(id), events[0].id);
      assert.match((await page.locator('#details dd[data-field="event"]').textContent()) ?? '', /<img src=x|<script>|<svg onload|javascript:|<\/title>/);
    }
    await page.locator('#search').fill('<script>');
    assert.match((await page.locator('.match-count').textContent()) ?? '', /^\d+ of \d+ nodes match$/);
    await page.locator('#search').fill('');
    await page.locator('[data-tab="whatif-waterfalls"]').click();
    await page.locator('[data-tab="timeline"]').click();
    const [download] = await Promise.all([page.waitForEvent('download'), page.locator('#export-view').click()]);
    const svg = readFileSync(await download.path(), 'utf8');
    assert.ok(!svg.includes('<script') && !svg.includes('<img') && !svg.includes('<iframe'), 'exported SVG has the strings escaped');
    assert.ok(svg.includes('&lt;img src=x onerror='));
    const [tl] = await Promise.all([page.waitForEvent('download'), page.locator('#export-timeline').click()]);
    const tsvg = readFileSync(await tl.path(), 'utf8');
    assert.ok(!/<script|<img|<iframe|<svg onload/.test(tsvg.replace(/^<svg xmlns[^>]*>/, '')), 'timeline SVG has the strings escaped');
    assert.ok(tsvg.includes('&lt;img src=x'));
    await screenshot(page, 'hostile');
    await page.waitForTimeout(200);
    assert.deepEqual(await injected(), clean);
    assert.deepEqual(dialogs, []);

    // The Graphviz export escapes too.
    const res = await fetch(`${viewer.url}api/graphs/hostile-graph/export?format=svg`);
    const dotSvg = await res.text();
    assert.equal(res.status, 200);
    assert.ok(!/<script|<img|<iframe/.test(dotSvg), 'dot SVG has no live markup');
  } finally {
    await browser.close();
    await viewer.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
