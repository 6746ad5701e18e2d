/**
 * `pcp view` on a corpus directory, in real Chromium: the list shows its finished pages by page id with
 * their stats, sorts by any column, lists failed and unfinished pages as text (never as HTML), and
 * opens each page's graph.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { writeLegacyTestCorpus } from '@pcp/corpus/testing';
import type { Viewer } from '../src/server/server.ts';
import { openGraph, screenshot, useViewerSession } from './browser.ts';

const dir = mkdtempSync(join(tmpdir(), 'pcp-view-corpus-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const ids = writeLegacyTestCorpus(dir, 4);
const HOSTILE = 'http://evil.test/<img src=x onerror="window.__pwned=1">';
appendFileSync(join(dir, 'failures.jsonl'), `${JSON.stringify({ url: HOSTILE, id: 'evil', reason: 'net::ERR_TIMED_OUT', attempts: 2 })}\n`);
mkdirSync(join(dir, 'pages', 'half.test-00000000'));

let viewer: Viewer;
let page: Page;
useViewerSession([dir], (s) => ({ viewer, page } = s));

const column = (key: string): Promise<string[]> => page.locator(`table.graph-list tbody tr`).evaluateAll(
  (rows, k) => rows.map((r) => {
    const ths = [...document.querySelectorAll('table.graph-list th')];
    const i = ths.findIndex((th) => (th as HTMLElement).dataset.key === k);
    return (r.children[i] as HTMLElement).textContent ?? '';
  }),
  key,
);

test('the list shows the corpus pages by id with their stats, and its failures as text', async () => {
  await page.goto(viewer.url);
  await page.waitForFunction(() => document.body.dataset.listReady === '1');
  assert.deepEqual(await column('name'), [...ids].sort());
  for (const n of await column('nodes')) assert.ok(Number(n) > 0, n);
  for (const n of await column('edges')) assert.ok(Number(n) > 0, n);
  const problems = await page.locator('ul.problems li').allTextContents();
  assert.ok(problems.includes(`${HOSTILE}: failed (net::ERR_TIMED_OUT)`), problems.join('\n'));
  assert.ok(problems.includes('half.test-00000000: unfinished (no DONE marker)'));
  assert.equal(await page.locator('ul.problems img').count(), 0);
  assert.equal(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned), undefined);
  await screenshot(page, 'corpus-list');
});

test('clicking a header sorts by it, descending first for numbers, again ascending', async () => {
  const nodes = async (): Promise<number[]> => (await column('nodes')).map(Number);
  await page.click('th[data-key="nodes"]');
  const desc = await nodes();
  assert.deepEqual(desc, [...desc].sort((a, b) => b - a));
  assert.equal(await page.getAttribute('th[data-key="nodes"]', 'aria-sort'), 'descending');
  await page.click('th[data-key="nodes"]');
  const asc = await nodes();
  assert.deepEqual(asc, [...desc].reverse().sort((a, b) => a - b));
  assert.equal(await page.getAttribute('th[data-key="nodes"]', 'aria-sort'), 'ascending');
  await page.click('th[data-key="url"]');
  const urls = await column('url');
  assert.deepEqual(urls, [...urls].sort((a, b) => a.localeCompare(b)));
});

test('a row opens its page graph', async () => {
  const first = (await column('name'))[0]!;
  await page.click(`tr[data-id="${first}"] a`);
  await page.waitForFunction((gid) => document.body.dataset.graphReady === gid, first, { timeout: 60_000 });
  await openGraph(page, viewer, ids[1]!);
});
