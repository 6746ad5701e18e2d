import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { assignDelays, delayRecordsOf, readArchive } from '@pcp/replay';
import { SYNTH_FILES, readSynthMeta, writeSiteBundle } from './bundle.ts';
import type { Site } from './site.ts';

/** Every directory a test makes lies in here, removed when the file's tests end. */
const scratch = mkdtempSync(join(tmpdir(), 'pcp-synth-bundle-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

const site: Site = {
  pageUrl: 'http://www.pcp.test/',
  responses: [
    { url: 'http://www.pcp.test/', status: 200, mimeType: 'text/html', body: Buffer.from('<!DOCTYPE html><img src="https://img.pcp.test/a.png">'), delayMs: 12, chunks: [[5, 20], [40, 33]] },
    { url: 'https://img.pcp.test/a.png', status: 404, mimeType: 'image/png', body: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 255]), delayMs: 0 },
  ],
  warnings: ['w'], oversize: [], drifted: 0, lastActivityMs: 5900, sourceKind: 'legacy-graph',
};

test('the replay reads a synthesized bundle: page, bodies byte for byte, statuses, protocols, pacing, delays', () => {
  const dir = mkdtempSync(join(scratch, 'd-'));
  writeSiteBundle(dir, site, 'test-graph.json');
  const archive = readArchive(dir);
  assert.equal(archive.pageUrl, 'http://www.pcp.test/');
  assert.deepEqual(archive.entries.map((e) => [e.url, e.status, e.protocol]), [['http://www.pcp.test/', 200, 'http/1.1'], ['https://img.pcp.test/a.png', 404, 'h2']]);
  assert.deepEqual(archive.entries[1]!.body, site.responses[1]!.body);
  assert.equal(archive.entries[0]!.body!.toString(), site.responses[0]!.body.toString());
  assert.deepEqual(archive.entries[0]!.chunks, [[5, 20], [40, 33]]);
  assert.deepEqual(archive.origins.map((o) => [o.origin, o.protocol]), [['http://www.pcp.test:80', 'http/1.1'], ['https://img.pcp.test:443', 'h2']]);
  const summary = assignDelays(archive.entries, delayRecordsOf(JSON.parse(readFileSync(join(dir, SYNTH_FILES.serverDelays), 'utf8'))));
  assert.deepEqual(archive.entries.map((e) => e.delayMs), [12, 0]);
  assert.equal(summary.measured, 2);
  const meta = JSON.parse(readFileSync(join(dir, 'meta.json'), 'utf8'));
  assert.deepEqual(meta.synthesized, { source: 'test-graph.json', responses: 2, warnings: ['w'], lastActivityMs: 5900, sourceKind: 'legacy-graph' });
  assert.deepEqual(readSynthMeta(dir), meta.synthesized);
  assert.equal(readSynthMeta(mkdtempSync(join(scratch, 'd-'))), undefined, 'no meta.json: not synthesized');
});

test('a third-party http response is served under https too (browser upgrades), the page host only over http', () => {
  const dir = mkdtempSync(join(scratch, 'd-'));
  const js = { url: 'http://www.google-analytics.com/ga.js', status: 200, mimeType: 'application/javascript', body: Buffer.from('1'), delayMs: 3 };
  writeSiteBundle(dir, { ...site, responses: [site.responses[0]!, js] }, 'test-graph.json');
  const archive = readArchive(dir);
  assert.deepEqual(archive.origins.map((o) => o.origin).sort(), ['http://www.google-analytics.com:80', 'http://www.pcp.test:80', 'https://www.google-analytics.com:443']);
  const twin = archive.entries.find((e) => e.url === 'https://www.google-analytics.com/ga.js')!;
  assert.equal(twin.body!.toString(), '1');
  assert.equal(JSON.parse(readFileSync(join(dir, 'meta.json'), 'utf8')).synthesized.responses, 2);
  const plain = mkdtempSync(join(scratch, 'd-'));
  writeSiteBundle(plain, { ...site, responses: [site.responses[0]!, js] }, 'test-graph.json', { httpsTwins: false });
  assert.deepEqual(readArchive(plain).entries.map((e) => e.url), ['http://www.pcp.test/', 'http://www.google-analytics.com/ga.js']);
});

test('a response the source browser took from its cache is marked so in the archive, and only that one is warmed', async () => {
  const { cacheHitUrls } = await import('@pcp/replay');
  const dir = mkdtempSync(join(scratch, 'd-'));
  const cached = { url: 'https://img.pcp.test/c.png', status: 200, mimeType: 'image/png', body: Buffer.from([1, 2]), delayMs: 0, fromCache: true };
  writeSiteBundle(dir, { ...site, responses: [...site.responses, cached] }, 'test-graph.json');
  const archive = readArchive(dir);
  assert.deepEqual(archive.entries.map((e) => e.fromCache === true), [false, false, true]);
  assert.deepEqual(cacheHitUrls(archive), ['https://img.pcp.test/c.png']);
});

test('a response that ends by a time on the page\'s clock carries it to the replay (HAR `_endBy`), the others none', () => {
  const dir = mkdtempSync(join(scratch, 'd-'));
  const early = { url: 'http://www.pcp.test/early.js', status: 200, mimeType: 'text/javascript', body: Buffer.from('1'), delayMs: 0, chunks: [[0, 0], [388, 1]] as [number, number][], endByMs: 1195 };
  writeSiteBundle(dir, { ...site, responses: [...site.responses, early] }, 'test-graph.json');
  assert.deepEqual(readArchive(dir).entries.map((e) => e.endByMs), [undefined, undefined, 1195]);
});

test('a held preload carries the least time it lasts after its request to the replay (HAR `_endByLeast`), with its `_endBy` only', () => {
  const dir = mkdtempSync(join(scratch, 'd-'));
  const held = { url: 'https://www.pcp.test/option-1-btn.png', status: 200, mimeType: 'image/png', body: Buffer.from('1'), delayMs: 0, chunks: [[0, 0], [2859, 1]] as [number, number][], endByMs: 5390, endByLeastMs: 185 };
  const stray = { url: 'https://www.pcp.test/b.png', status: 200, mimeType: 'image/png', body: Buffer.from('1'), delayMs: 0, chunks: [[0, 0], [2859, 1]] as [number, number][], endByLeastMs: 185 };
  writeSiteBundle(dir, { ...site, responses: [...site.responses, held, stray] }, 'test-graph.json');
  const by = new Map(readArchive(dir).entries.map((e) => [e.url, [e.endByMs, e.endByLeastMs]]));
  assert.deepEqual(by.get(held.url), [5390, 185]);
  assert.deepEqual(by.get(stray.url), [undefined, undefined]);
  assert.deepEqual(by.get(site.pageUrl), [undefined, undefined]);
});
