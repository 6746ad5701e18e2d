/**
 * Test helpers: the real viewer server on loopback and the system Chromium driven by playwright-core
 * (no browser download). Screenshots go to artifacts/ (git-ignored) for a human look.
 */
import { chromium, type Browser, type Page } from 'playwright-core';
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { sharedDir } from '@pcp/graph-builder';
import type { Viewer } from '../src/server/server.ts';

export const CHROMIUM = process.env.PCP_CHROMIUM ?? '/usr/bin/chromium';
export const ARTIFACTS = fileURLToPath(new URL('../artifacts/', import.meta.url));
export const FIXTURES = fileURLToPath(new URL('./fixtures/', import.meta.url));
/** The shared data folder, with a trailing slash. */
export const SHARED = `${sharedDir()}/`;

export async function launch(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'],
  });
}

export async function newPage(browser: Browser, width = 1400, height = 900): Promise<Page> {
  const context = await browser.newContext({ viewport: { width, height }, acceptDownloads: true });
  // tsx compiles functions passed to page.evaluate with esbuild's keepNames, which calls a __name helper.
  await context.addInitScript('globalThis.__name = (f) => f;');
  return context.newPage();
}

/** Opens a graph page and waits until its first render. */
export async function openGraph(page: Page, viewer: Viewer, id: string): Promise<void> {
  await page.goto(`${viewer.url}#/graph/${id}`);
  await page.waitForFunction((gid) => document.body.dataset.graphReady === gid, id, { timeout: 30_000 });
}

export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(ARTIFACTS, { recursive: true });
  const path = `${ARTIFACTS}${name}.png`;
  await page.screenshot({ path });
  return path;
}
