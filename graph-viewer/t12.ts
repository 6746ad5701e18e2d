import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startViewer } from './src/server/server.ts';
import { launch, newPage } from './test/browser.ts';
import { syntheticGraph } from './test/synthetic.ts';
const dir = mkdtempSync(join(tmpdir(), 'x-'));
writeFileSync(join(dir, 's.json'), JSON.stringify(syntheticGraph(20000, { seed: 11 })));
const viewer = await startViewer({ paths: [dir], port: 0 });
const browser = await launch();
const page = await newPage(browser);
await page.goto(`${viewer.url}#/graph/s`);
await page.waitForFunction(() => document.body.dataset.graphReady === 's');
for (const kind of ['time', 'layered'] as const) {
  await page.evaluate((k) => window.__pcpViewer!.setLayout(k), kind);
  await page.waitForTimeout(300);
  console.log(kind, await page.evaluate(() => ({ ...(document.querySelector('canvas.graph-canvas') as HTMLCanvasElement).dataset })));
}
await browser.close(); await viewer.close();
